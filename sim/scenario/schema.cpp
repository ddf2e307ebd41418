#include "sim/scenario/schema.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace sonicsim::schema {
namespace {

using NodePtr = std::shared_ptr<const Node>;
using Fields = std::vector<std::pair<std::string, NodePtr>>;

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words)
    out += (out.empty() ? "" : ", ") + w;
  return out;
}

// Every map key must be a scalar and appear once; returns the keys in order with their key nodes.
std::vector<std::pair<std::string, YAML::Node>> map_entries(const Cursor& c) {
  std::vector<std::pair<std::string, YAML::Node>> entries;
  std::map<std::string, int> first_line;
  for (const auto& entry : c.node()) {
    const YAML::Node key = entry.first;
    if (!key.IsScalar()) c.key_cursor(key).fail("a key must be a plain name; got a map or list as a key");
    const std::string name = key.Scalar();
    const auto [it, inserted] = first_line.emplace(name, key.Mark().line + 1);
    if (!inserted)
      c.key_cursor(key).fail("duplicate key '" + name + "' (first written at line " +
                             std::to_string(it->second) + "); write each key once");
    entries.emplace_back(name, key);
  }
  return entries;
}

void check(const Cursor& c, const Node& schema);

void check_map(const Cursor& c, const Node& schema, const std::vector<std::string>& allowed) {
  if (!c.node().IsMap()) c.fail_value("a map with keys: " + joined(allowed));
  for (const auto& [key, key_node] : map_entries(c)) {
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) {
      check(c[key], *schema.field(key));
      continue;
    }
    if (const auto replaced = retired_key(key))
      c.key_cursor(key_node).fail("key '" + key + "' is no longer read: " + *replaced);
    c.key_cursor(key_node).fail("unknown key '" + key + "'" + suggestion(key, allowed));
  }
}

void check_module(const Cursor& c, const Node& schema) {
  if (!c.node().IsMap()) c.fail_value("a module: a map with keys name, type, ...");
  const std::string type = c["type"].scalar("the module type: one of " + joined(module_types()));
  if (std::find(module_types().begin(), module_types().end(), type) == module_types().end())
    c["type"].fail("unknown module type '" + type + "'" + suggestion(type, module_types()));
  const auto& allowed = module_keys(type);
  for (const auto& [key, key_node] : map_entries(c)) {
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) {
      check(c[key], *schema.field(key));
      continue;
    }
    if (schema.field(key))
      c.key_cursor(key_node).fail("key '" + key + "' does not apply to a " + type + " module (" + type +
                                  " modules take: " + joined(allowed) + ")");
    c.key_cursor(key_node).fail("unknown key '" + key + "'" + suggestion(key, allowed));
  }
}

void check_distribution(const Cursor& c) {
  if (c.node().IsScalar()) return;
  if (!c.node().IsMap()) c.fail_value("a single value or a map {dist: normal, mean: ..., sd: ...}");
  const std::string kind = c["dist"].scalar("the distribution: one of " + joined(distribution_kinds()));
  const auto& kinds = distribution_kinds();
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
    c["dist"].fail("unknown distribution '" + kind + "'" + suggestion(kind, kinds));
  const auto& allowed = distribution_keys(kind);
  for (const auto& [key, key_node] : map_entries(c)) {
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::vector<std::string> all{"dist", "value", "mean", "sd", "min", "max"};
    if (std::find(all.begin(), all.end(), key) != all.end())
      c.key_cursor(key_node).fail("key '" + key + "' is not a parameter of a " + kind + " distribution (" +
                                  kind + " takes: " + joined(allowed) + ")");
    c.key_cursor(key_node).fail("unknown key '" + key + "'" + suggestion(key, allowed));
  }
}

void check(const Cursor& c, const Node& schema) {
  switch (schema.kind) {
  case Kind::value:
    return;
  case Kind::map:
    return check_map(c, schema, schema.keys());
  case Kind::module:
    return check_module(c, schema);
  case Kind::distribution:
    return check_distribution(c);
  case Kind::dict:
    if (!c.node().IsMap()) c.fail_value("a map from names to settings");
    for (const auto& [key, key_node] : map_entries(c))
      check(c[key], *schema.element);
    return;
  case Kind::list:
    if (!c.node().IsSequence()) c.fail_value("a list");
    for (std::size_t i = 0; i < c.node().size(); ++i)
      check(c[i], *schema.element);
    return;
  }
}

} // namespace

const Node* Node::field(const std::string& key) const {
  for (const auto& [name, node] : fields)
    if (name == key) return node.get();
  return nullptr;
}

std::vector<std::string> Node::keys() const {
  std::vector<std::string> out;
  for (const auto& f : fields)
    out.push_back(f.first);
  return out;
}

std::optional<std::string> retired_key(const std::string& key) {
  // Keys of the single-pool format (before server groups), with what to write instead.
  static const std::map<std::string, std::string> retired{
      {"server_pods",
       "the servers are now named groups: write platform.server_groups: {NAME: {pods: N, devices: {type: T4, "
       "count: G}, host_cores: C, nic_bandwidth: \"16Gbps\"}} and, under each model, deploy: {groups: "
       "[NAME], "
       "load_balancer: random}"},
      {"gpus_per_pod", "write platform.server_groups.NAME.devices.count"},
      {"gpu_type", "write platform.server_groups.NAME.devices.type"},
      {"instances_per_gpu", "write triton.instance_group: [{count: N, kind: GPU}] (Triton's own key)"},
      {"queue_policy", "write triton.dynamic_batching.default_queue_policy: {max_queue_size: N, timeout: T} "
                       "(Triton's own key; a queue policy applies to the dynamic batcher)"},
      {"preferred_batch_sizes", "write preferred_batch_size (Triton's own key, singular)"},
  };
  const auto it = retired.find(key);
  if (it == retired.end()) return std::nullopt;
  return it->second;
}

const std::vector<std::string>& distribution_kinds() {
  static const std::vector<std::string> kinds{"constant", "normal", "lognormal", "exponential", "uniform"};
  return kinds;
}

const std::vector<std::string>& distribution_keys(const std::string& kind) {
  static const std::map<std::string, std::vector<std::string>> keys{
      {"constant", {"dist", "value"}},       {"normal", {"dist", "mean", "sd"}},
      {"lognormal", {"dist", "mean", "sd"}}, {"exponential", {"dist", "mean"}},
      {"uniform", {"dist", "min", "max"}},
  };
  static const std::vector<std::string> none;
  const auto it = keys.find(kind);
  return it == keys.end() ? none : it->second;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  // Levenshtein distance, one row at a time.
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string suggestion(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = 0;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (best.empty() || d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  // Within a third of the word's length (at least 2 edits) the nearest key is likely what was meant; beyond
  // that a suggestion misleads more than it helps, so list the choices instead.
  const std::size_t tolerance = std::max<std::size_t>(2, word.size() / 3);
  if (!best.empty() && best_distance <= tolerance) return " (did you mean '" + best + "'?)";
  // A truncated key ("max_batch" for "max_batch_size") is far in edit distance but obvious as a prefix.
  constexpr std::size_t min_prefix = 3;
  for (const auto& c : candidates)
    if (word.size() >= min_prefix && c.compare(0, word.size(), word) == 0)
      return " (did you mean '" + c + "'?)";
  return " (expected one of: " + joined(candidates) + ")";
}

void check_document(const Cursor& root_cursor) {
  // Retired keys, with what replaces them (an "unknown key" with a near-miss suggestion would mislead).
  if (root_cursor["costs"].present() && root_cursor["costs"].node().IsMap() &&
      root_cursor["costs"]["gpu_hour"].present())
    root_cursor["costs"]["gpu_hour"].fail(
        "one price for every GPU type is retired (a plan on another device kept it); write device_hour: "
        "{T4: 0.35}, US dollars per hour of one device of each type");
  check(root_cursor, root());
}

} // namespace sonicsim::schema
