// The scenario a single-series calibration starts from and the one it writes: the file with its --variant
// and --set applied, as a YAML tree. A fit starts from the scenario's own value of each parameter (not from a
// bound), and the written calibrated.yaml holds only the adopted values, marks them `calibrated` in its
// provenance and loads from the folder it is written to (its relative paths rebased there).
#pragma once

#include "sim/app/calibrate/calibrate_inputs.hpp"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

// The scenario file as a tree, with its variants (in order) and --set applied.
YAML::Node scenario_tree(const CalibrateArguments& a);

// The number a key path holds in the tree, in `unit` ("16.82ms" with unit "ms" is 16.82); none when the
// path is absent (a default), not a plain number with that unit (a distribution, another unit).
std::optional<double> number_at(const YAML::Node& tree, const std::string& key, const std::string& unit);

// One fitted parameter as the calibrated scenario takes it.
struct CalibratedValue {
  const calibration::FitParameter* parameter = nullptr;
  double value = 0.0;
  std::string provenance; // why: the fit, its interval, the series
};

// Writes calibrated.yaml at `path`: the tree with the adopted values and their provenance; every relative
// path of the file that names an existing file or folder is rewritten relative to the output folder.
void write_calibrated_yaml(const CalibrateArguments& a, const std::vector<CalibratedValue>& adopted,
                           const std::filesystem::path& path);

} // namespace sonicsim
