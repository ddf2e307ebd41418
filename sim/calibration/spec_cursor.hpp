// Reading a calibration spec (sim/calibration/joint_spec.hpp, joint_unknowns.hpp): an unknown key is told
// with the keys expected, a string or a list of strings read as a list, paths, overrides, the series and
// parameters an entry names, each told at its line; and the predictions section.
#pragma once

#include "sim/calibration/joint_spec.hpp"
#include "sim/scenario/yaml_cursor.hpp"
#include "sim/scenario/yaml_values.hpp"

#include <set>
#include <string>
#include <vector>

namespace sonicsim::spec_cursor {

inline void only_keys(const Cursor& c, const std::set<std::string>& known) {
  require(c, c.node().IsMap(), "a map");
  for (const auto& entry : c.node()) {
    const auto key = entry.first.Scalar();
    if (!known.count(key)) {
      std::string list;
      for (const auto& k : known)
        list += (list.empty() ? "" : ", ") + k;
      c.key_cursor(entry.first).fail("unknown key '" + key + "'; expected one of " + list);
    }
  }
}

inline std::vector<std::string> strings(const Cursor& c) {
  std::vector<std::string> out;
  if (!c.present()) return out;
  if (c.node().IsScalar()) return {read_string(c)};
  require(c, c.node().IsSequence(), "a list of strings");
  for (std::size_t i = 0; i < c.node().size(); ++i)
    out.push_back(read_string(c[i]));
  return out;
}

// Overrides of a series or a prediction: each KEY.PATH=VALUE, told at its own line when it is not.
std::vector<std::string> overrides(const Cursor& c);

// A path in the spec, relative to the repository root (the spec's folder's parent's parent:
// validation/calibration/x.yaml) or to the working directory when the file is there; a regular file.
std::string resolve(const std::string& spec, const Cursor& c);

// The scenario a series or a prediction runs, loaded with its variants and overrides: an override it refuses
// is told at the overrides' line, and a module the observable names that its pipeline lacks at `named`'s.
void check_scenario_runs(const Cursor& c, const std::string& scenario,
                         const std::vector<std::string>& variants, const std::vector<std::string>& overrides,
                         const std::string& module, const Cursor& named);

// The parameter of `key` a map's entry names (a prediction's set, a start), or a failure at that key's line.
const JointParameter& parameter_named(const JointSpec& spec, const Cursor& map, const YAML::Node& key,
                                      const std::string& otherwise);

// A parameter's, prediction's or constraint's `series:` names series of the spec, told at its line.
void require_series_of(const JointSpec& spec, const Cursor& at, const std::vector<std::string>& names);

// The spec's `predictions:` list into spec.predictions, each checked against the spec read so far
// (sim/calibration/joint_spec_predictions.cpp).
void read_predictions(JointSpec& spec, const Cursor& predictions);

} // namespace sonicsim::spec_cursor
