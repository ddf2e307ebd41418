#include "sim/app/calibrate/calibrated_scenario.hpp"

#include "sim/execution/state_file.hpp"
#include "sim/scenario/overrides.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace sonicsim {
namespace {

// The element of a list a key path component names: by its `name`, or by index.
YAML::Node list_element(const YAML::Node& list, const std::string& component) {
  for (const auto& element : list)
    if (element.IsMap() && element["name"] && element["name"].as<std::string>() == component) return element;
  try {
    const std::size_t index = std::stoul(component);
    if (index < list.size()) return list[index];
  } catch (const std::exception&) {
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

// The keys whose values are paths relative to the scenario file (docs/scenario_reference.md): a file or a
// folder, with or without a folder in its name.
bool path_key(const std::string& key) {
  return key == "perf_analyzer" || key == "triton_config" || key == "supersonic_values";
}

// A relative path of the scenario file, as the output folder reaches it; the text itself otherwise. Under a
// path key every relative value moves ("values.yaml" beside the scenario too, or calibrated.yaml written
// elsewhere does not load); elsewhere only a value with a folder in it that names an existing file.
std::string rebased(const std::string& text, bool under_path_key, const std::filesystem::path& from_dir,
                    const std::filesystem::path& to_dir) {
  if (text.empty() || std::filesystem::path(text).is_absolute()) return text;
  if (!under_path_key && text.find('/') == std::string::npos) return text;
  std::error_code error;
  const auto target = from_dir / text;
  if (!std::filesystem::exists(target, error)) return text;
  const auto relative = std::filesystem::relative(target, std::filesystem::absolute(to_dir), error);
  return error || relative.empty() ? std::filesystem::absolute(target).lexically_normal().string()
                                   : relative.string();
}

void rebase_paths(YAML::Node node, bool under_path_key, const std::filesystem::path& from_dir,
                  const std::filesystem::path& to_dir) {
  if (node.IsScalar()) {
    const std::string text = node.Scalar();
    const std::string moved = rebased(text, under_path_key, from_dir, to_dir);
    if (moved != text) node = moved;
  } else if (node.IsSequence()) {
    for (auto element : node)
      rebase_paths(element, under_path_key, from_dir, to_dir);
  } else if (node.IsMap()) {
    for (auto entry : node)
      rebase_paths(entry.second, path_key(entry.first.Scalar()), from_dir, to_dir);
  }
}

} // namespace

YAML::Node scenario_tree(const CalibrateArguments& a) {
  // Loaded first: it checks the file (a regular file within the size bound) and its content.
  const Scenario as_written = load_scenario_file(a.scenario);
  YAML::Node tree = YAML::LoadFile(a.scenario);
  SourceInfo source{a.scenario, {}};
  for (const auto& name : a.variants)
    for (const auto& variant : as_written.variants)
      if (variant.name == name)
        for (const auto& argument : variant.overrides)
          apply_set_override(tree, argument, source);
  for (const auto& argument : a.set_overrides)
    apply_set_override(tree, argument, source);
  return tree;
}

std::optional<double> number_at(const YAML::Node& tree, const std::string& key, const std::string& unit) {
  YAML::Node node = YAML::Clone(tree);
  for (const auto& component : split_key_path(key)) {
    if (node.IsMap()) {
      node = node[component];
    } else if (node.IsSequence()) {
      node = list_element(node, component);
    } else {
      return std::nullopt;
    }
    if (!node.IsDefined() || node.IsNull()) return std::nullopt;
  }
  if (!node.IsScalar()) return std::nullopt;
  const std::string text = node.Scalar();
  std::size_t end = 0;
  double value = 0.0;
  try {
    value = std::stod(text, &end);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  std::string rest = text.substr(end);
  while (!rest.empty() && rest.front() == ' ')
    rest.erase(rest.begin());
  if (rest != unit || !std::isfinite(value)) return std::nullopt;
  return value;
}

void write_calibrated_yaml(const CalibrateArguments& a, const std::vector<CalibratedValue>& adopted,
                           const std::filesystem::path& path) {
  YAML::Node tree = scenario_tree(a);
  SourceInfo source{a.scenario, {}};
  for (const auto& v : adopted) {
    apply_set_override(tree, v.parameter->key + "=" + value_text(v.value, v.parameter->unit), source);
    // What the scenario said of this value, or of a part or a whole of it ("assumed" for the curve whose
    // point is now fitted), no longer describes it: the calibrated entry replaces it, not stands beside it.
    const std::string& key = v.parameter->key;
    if (tree["provenance"] && tree["provenance"].IsMap()) {
      std::vector<std::string> stale;
      for (const auto& entry : tree["provenance"]) {
        const std::string other = entry.first.Scalar();
        if (other != key && key_paths_overlap(other, key)) stale.push_back(other);
      }
      for (const auto& other : stale)
        tree["provenance"].remove(other);
    }
    tree["provenance"][key] = YAML::Node(YAML::NodeType::Map);
    tree["provenance"][v.parameter->key]["calibrated"] = v.provenance;
  }
  rebase_paths(tree, false, std::filesystem::path(a.scenario).parent_path(), path.parent_path());
  YAML::Emitter yaml;
  yaml << tree;
  write_file_atomically(path.string(), "# " + a.scenario + " calibrated by `sonicsim calibrate` on series '" +
                                           a.series + "' of " + a.data + "\n" + yaml.c_str() + "\n");
}

} // namespace sonicsim
