#include "sim/calibration/spec_cursor.hpp"

#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace sonicsim::spec_cursor {

// Overrides of a series or a prediction: each KEY.PATH=VALUE, told at its own line when it is not.
std::vector<std::string> overrides(const Cursor& c) {
  std::vector<std::string> out = strings(c);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::size_t equals = out[i].find('=');
    require(c.node().IsSequence() ? c[i] : c, equals != std::string::npos && equals > 0,
            "KEY.PATH=VALUE, e.g. workload.jobs=200");
  }
  return out;
}

// Paths in the spec are relative to the repository root: the spec's folder's parent's parent
// (validation/calibration/x.yaml), or the working directory when the file is there.
std::string resolve(const std::string& spec, const Cursor& c) {
  const std::string path = read_string(c);
  std::error_code error;
  // A device or a folder is refused before anything reads it (/dev/zero would be read without end).
  const auto regular = [&c, &error](const fs::path& file) {
    require(c, fs::is_regular_file(file, error),
            "a regular file (a device or a folder holds no measured series)");
    return file.lexically_normal().string();
  };
  if (fs::path(path).is_absolute() || fs::exists(path, error)) return regular(path);
  const auto root = fs::path(spec).parent_path().parent_path().parent_path() / path;
  require(c, fs::exists(root, error), "an existing file (relative to the repository root)");
  return regular(root);
}

// The scenario a series or a prediction runs, loaded with its variants and overrides: an override it refuses
// is told at the overrides' line, and a module the observable names that its pipeline lacks at `named`'s.
void check_scenario_runs(const Cursor& c, const std::string& scenario,
                         const std::vector<std::string>& variants, const std::vector<std::string>& overrides,
                         const std::string& module, const Cursor& named) {
  Scenario loaded;
  try {
    loaded = load_variant_file(scenario, variants, overrides);
  } catch (const ScenarioError& e) {
    (c["overrides"].present() ? c["overrides"] : c["scenario"])
        .fail("refused by " + scenario + ": " + spec_override_problem(e));
  }
  if (module.empty()) return;
  std::string names;
  for (const auto& m : loaded.workload.pipeline) {
    if (m.name == module) return;
    names += (names.empty() ? "" : ", ") + m.name;
  }
  named.fail("module '" + module + "' is not in " + scenario + "'s pipeline (" + names + ")");
}

// The parameter of `key` a map's entry names (a prediction's set, a start), or a failure at that key's line.
const JointParameter& parameter_named(const JointSpec& spec, const Cursor& map, const YAML::Node& key,
                                      const std::string& otherwise) {
  for (const auto& p : spec.parameters)
    if (p.fit.key == key.Scalar()) return p;
  map.key_cursor(key).fail(otherwise);
}

// A parameter's, prediction's or constraint's `series:` names series of the spec, told at its line.
void require_series_of(const JointSpec& spec, const Cursor& at, const std::vector<std::string>& names) {
  for (const auto& name : names)
    require(at,
            std::any_of(spec.series.begin(), spec.series.end(),
                        [&name](const JointSeries& s) { return s.name == name; }),
            "names of series of this spec (no series '" + name + "')");
}

} // namespace sonicsim::spec_cursor
