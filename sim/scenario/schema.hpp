// The shape of a scenario file: which keys exist where. It is the single list of known keys, used to reject
// unknown keys in a file (with a suggestion), to check --set / --vary key paths before anything runs, and
// (through the tests) to keep docs/scenario_reference.md honest. Types and ranges are checked by the loader.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/scenario/yaml_cursor.hpp"

namespace sonicsim::schema {

enum class Kind {
  value,        // a scalar or a list the loader reads as a whole (e.g. throughput points)
  map,          // fixed keys
  dict,         // user-chosen keys (model names, GPU types), every value of the same shape
  list,         // a sequence; elements with a `name` key can also be addressed by name in key paths
  distribution, // a scalar (constant) or a map {dist, value, mean, sd, min, max}
  module,       // a pipeline module: the keys allowed depend on its `type`
};

struct Node {
  Kind kind = Kind::value;
  std::vector<std::pair<std::string, std::shared_ptr<const Node>>> fields; // map and module
  std::shared_ptr<const Node> element;                                     // list and dict
  const Node* field(const std::string& key) const;
  std::vector<std::string> keys() const;
};

// The whole scenario file.
const Node& root();

const std::vector<std::string>& module_types(); // cpu, remote_inference, local_inference
const std::vector<std::string>&
module_keys(const std::string& type);                 // keys allowed for a module of that type
const std::vector<std::string>& distribution_kinds(); // constant, normal, lognormal, exponential, uniform
const std::vector<std::string>&
distribution_keys(const std::string& kind); // parameters of that kind, with `dist`

// " (did you mean 'jobs'?)" for the nearest candidate within a small edit distance, else " (expected one of:
// ...)".
std::string suggestion(const std::string& word, const std::vector<std::string>& candidates);
// A key the scenario format no longer reads: what to write instead. None for any other key.
std::optional<std::string> retired_key(const std::string& key);
std::size_t edit_distance(const std::string& a, const std::string& b);

// Checks every key in the document against the schema: unknown keys, keys that do not apply to a module's
// type, duplicate keys, and a map or list written where the other (or a scalar) is expected.
void check_document(const Cursor& root_cursor);

} // namespace sonicsim::schema
