// How `calibrate --spec` shows its predictions: each on the terminal and in calibration.json, and the table
// of predictions.md (value, 95 % interval and its parts, and the span over the values the calibration holds).
#pragma once

#include "sim/app/output_options.hpp"
#include "sim/calibration/joint_prediction.hpp"
#include "sim/calibration/joint_spec.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sonicsim {

// One prediction, printed and as calibration.json has it.
nlohmann::ordered_json prediction_json(const PredictionResult& p, const TextOutput& say);

// Each prediction that has other readings (spec key `reading_of`): the envelope of their spans, printed and
// as calibration.json's `envelopes` has it. Empty when no prediction has readings.
nlohmann::ordered_json envelopes_json(const JointSpec& spec, const std::vector<PredictionResult>& results,
                                      const TextOutput& say);

// predictions.md: the table, then the parameters' values and whether each is calibrated or held.
std::string predictions_markdown(const JointSpec& spec, const std::vector<PredictionResult>& results,
                                 const std::vector<double>& values, const std::vector<bool>& adopted);

} // namespace sonicsim
