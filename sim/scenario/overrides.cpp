#include "sim/scenario/overrides.hpp"

#include "sim/scenario/input_error.hpp"

#include <algorithm>
#include <cctype>

#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/schema.hpp"

namespace sonicsim {
namespace {

bool is_index(const std::string& s) {
  return !s.empty() && s.size() < 10 &&
         std::all_of(s.begin(), s.end(), [](unsigned char ch) { return std::isdigit(ch) != 0; });
}

std::string render(const std::string& prefix, const std::string& key) {
  return prefix.empty() ? key : prefix + "." + key;
}

// The schema node one step below `node` for `component`, or an error message in `problem`.
const schema::Node* descend(const schema::Node& node, const std::string& component, const std::string& where,
                            std::string& problem) {
  switch (node.kind) {
  case schema::Kind::map:
  case schema::Kind::module:
    if (const schema::Node* child = node.field(component)) return child;
    if (const auto replaced = schema::retired_key(component)) {
      problem = "key '" + component + "' is no longer read: " + *replaced;
      return nullptr;
    }
    problem = "unknown key '" + component + "'" + (where.empty() ? "" : " under '" + where + "'") +
              schema::suggestion(component, node.keys());
    return nullptr;
  case schema::Kind::dict:
    return node.element.get();
  case schema::Kind::list:
    if (is_index(component) || (node.element && node.element->field("name"))) return node.element.get();
    problem = "'" + where + "' is a list: address an element by its index (e.g. " + where + ".0)";
    return nullptr;
  case schema::Kind::distribution: {
    static const schema::Node parameter; // a distribution's parameters are plain values
    const std::vector<std::string> keys{"dist", "value", "mean", "sd", "min", "max"};
    if (std::find(keys.begin(), keys.end(), component) != keys.end()) return &parameter;
    problem = "unknown distribution parameter '" + component + "'" + schema::suggestion(component, keys);
    return nullptr;
  }
  case schema::Kind::value:
    break;
  }
  problem = "'" + where + "' is a single value and has no key '" + component + "'";
  return nullptr;
}

[[noreturn]] void fail_at_set(const std::string& argument, const std::string& path,
                              const std::string& message) {
  throw ScenarioError("--set " + argument, 0, 0, path, message);
}

// Finds the element of a list by index or by its `name`; the error lists what exists.
std::size_t find_element(const YAML::Node& list, const std::string& component, const std::string& where,
                         const std::string& argument) {
  if (is_index(component)) {
    const std::size_t index = std::stoul(component);
    if (index >= list.size())
      fail_at_set(argument, where,
                  "index " + component + " is past the end: the list has " + std::to_string(list.size()) +
                      " elements");
    return index;
  }
  std::vector<std::string> names;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node name = list[i]["name"];
    if (name.IsDefined() && name.IsScalar()) {
      if (name.Scalar() == component) return i;
      names.push_back(name.Scalar());
    }
  }
  fail_at_set(argument, where, "no element named '" + component + "'" + schema::suggestion(component, names));
}

} // namespace

bool key_paths_overlap(const std::string& a, const std::string& b) {
  const std::string& shorter = a.size() <= b.size() ? a : b;
  const std::string& longer = a.size() <= b.size() ? b : a;
  return longer.compare(0, shorter.size(), shorter) == 0 &&
         (longer.size() == shorter.size() || longer[shorter.size()] == '.');
}

std::vector<std::string> split_key_path(const std::string& path) {
  std::string text;
  for (char ch : path) {
    if (ch == '[')
      text += '.';
    else if (ch != ']')
      text += ch;
  }
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = text.find('.', start);
    parts.push_back(text.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts;
}

void validate_key_path(const std::string& path, const std::string& origin) {
  const std::string location = origin.empty() ? "--set " + path : origin;
  // A retired key, with what replaces it (its nearest neighbour, cpu_hour, would mislead).
  if (path.rfind("costs.gpu_hour", 0) == 0)
    throw ScenarioError(location, 0, 0, path,
                        "one price for every GPU type is retired; set a price per device type, e.g. "
                        "costs.device_hour.T4=0.35 (US dollars per hour of one device)");
  const auto parts = split_key_path(path);
  const schema::Node* node = &schema::root();
  std::string where;
  for (const auto& part : parts) {
    if (part.empty()) throw ScenarioError(location, 0, 0, path, "empty component in key path (stray '.'?)");
    std::string problem;
    node = descend(*node, part, where, problem);
    if (!node) throw ScenarioError(location, 0, 0, path, problem);
    where = render(where, part);
  }
}

void apply_set_override(YAML::Node& root, const std::string& argument, SourceInfo& source) {
  const auto equals = argument.find('=');
  if (equals == std::string::npos)
    throw ScenarioError("--set " + argument, 0, 0, "", "expected KEY.PATH=VALUE, e.g. workload.jobs=200");
  const std::string path = argument.substr(0, equals);
  const std::string value_text = argument.substr(equals + 1);
  validate_key_path(path, "--set " + argument);
  if (value_text.empty()) fail_at_set(argument, path, "missing value after '='");
  YAML::Node value;
  try {
    value = YAML::Load(value_text);
  } catch (const YAML::Exception& e) {
    fail_at_set(argument, path, "the value is not valid YAML: " + e.msg);
  }

  // Walk down the document alongside the schema, creating maps the file left out.
  const auto parts = split_key_path(path);
  if (!root.IsDefined() || root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  YAML::Node current = root; // a handle: reset() moves it, assignment would overwrite the node it refers to
  const schema::Node* node = &schema::root();
  std::string resolved;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const bool last = i + 1 == parts.size();
    std::string problem;
    const schema::Node* child_schema = descend(*node, parts[i], resolved, problem);
    if (node->kind == schema::Kind::list) {
      if (!current.IsSequence())
        fail_at_set(argument, resolved,
                    "'" + resolved + "' is not a list in the scenario; set the whole list");
      const std::size_t index = find_element(current, parts[i], resolved, argument);
      resolved += "[" + std::to_string(index) + "]";
      if (last)
        current[index] = value;
      else
        current.reset(current[index]);
    } else {
      if (current.IsNull()) current = YAML::Node(YAML::NodeType::Map); // `key:` with no value: fill it in
      if (!current.IsMap()) {
        const std::string hint = node->kind == schema::Kind::distribution
                                     ? "; set the whole distribution, e.g. --set " + resolved +
                                           "={dist: normal, mean: 100, sd: 10}"
                                     : "";
        fail_at_set(argument, resolved, "'" + resolved + "' is written as a single value, not a map" + hint);
      }
      resolved = render(resolved, parts[i]);
      if (last) {
        // `key=null` takes the key out, so that its default (or its absence) applies.
        if (value.IsNull())
          current.remove(parts[i]);
        else
          current[parts[i]] = value;
      } else {
        if (!current[parts[i]].IsDefined()) current[parts[i]] = YAML::Node(YAML::NodeType::Map);
        current.reset(current[parts[i]]);
      }
    }
    node = child_schema;
  }
  source.overrides.push_back({argument, resolved, ""});
}

} // namespace sonicsim

namespace sonicsim {

void rethrow_at_origin(const ScenarioError& error, const std::string& injected, const std::string& origin) {
  const std::string as_set = "--set " + injected;
  if (error.file == as_set)
    throw InputError(ScenarioError::render(origin, 0, 0, error.key_path, error.message));
  std::string text = error.what();
  for (auto at = text.find(as_set); at != std::string::npos; at = text.find(as_set, at + origin.size()))
    text.replace(at, as_set.size(), origin);
  throw InputError(origin + ": " + text);
}

} // namespace sonicsim
