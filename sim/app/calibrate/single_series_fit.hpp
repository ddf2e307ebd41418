// The single-series calibration's result as `sonicsim calibrate` shows it (sim/app/calibrate/
// calibrate_command.cpp): what it adopts and why, the points before and after, and calibration.json.
#pragma once

#include "sim/app/calibrate/calibrate_inputs.hpp"
#include "sim/app/common/output_options.hpp"
#include "sim/calibration/calibration.hpp"

#include <nlohmann/json.hpp>

#include <vector>

namespace sonicsim {

// What the fit sets: a value is adopted only when the data call for it: identifiable, and its 95 % interval
// excludes the start (otherwise the fit cannot tell it from the uncalibrated value, and the scenario keeps
// that). Says so per parameter.
struct SeriesAdoption {
  std::vector<double> values;
  std::vector<bool> significant;
};
SeriesAdoption adopt_fitted(const std::vector<calibration::FitParameter>& parameters,
                            const std::vector<double>& initial, const calibration::CalibrationResult& result,
                            const TextOutput& say);

// MAPE, Pearson r and chi-square of a fit, as JSON (a figure the data leave undefined, Pearson r of a
// constant prediction, is left out, not written as null) and on one line of stdout.
nlohmann::ordered_json quality_json(const calibration::FitQuality& q);
void print_quality(const char* label, const calibration::FitQuality& q);

// Each point measured, before and after, and its residual in units of its sd.
void print_fit_points(const std::vector<calibration::DataPoint>& points,
                      const calibration::CalibrationResult& result, const TextOutput& say);

// calibration.json without its held-out series: the inputs, each parameter with its interval, the fit's
// quality and its points.
nlohmann::ordered_json single_series_json(const CalibrateArguments& a, const CheckedInputs& in,
                                          const calibration::CalibrationResult& result,
                                          const SeriesAdoption& adoption);

} // namespace sonicsim
