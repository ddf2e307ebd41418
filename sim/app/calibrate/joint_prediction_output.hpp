// How `calibrate --spec` shows its predictions: the answers (one 95 % interval each, the assumptions ranked)
// and each reading's parts, on the terminal, in calibration.json and in predictions.md.
#pragma once

#include "sim/app/common/output_options.hpp"
#include "sim/calibration/joint_prediction.hpp"
#include "sim/calibration/joint_spec.hpp"
#include "sim/calibration/prediction_answer.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sonicsim {

// One prediction, printed and as calibration.json has it.
nlohmann::ordered_json prediction_json(const PredictionResult& p, const TextOutput& say);

// The answers (sim/calibration/prediction_answer.hpp): each value with its one 95 % interval and its top
// assumptions, printed, and as calibration.json's `answers` has them.
nlohmann::ordered_json answers_json(const std::vector<PredictionAnswer>& answers, const TextOutput& say);

// predictions.md: the answers, each reading's parts, then the parameters' values and whether each is
// calibrated or held.
std::string predictions_markdown(const JointSpec& spec, const std::vector<PredictionResult>& results,
                                 const std::vector<PredictionAnswer>& answers,
                                 const std::vector<double>& values, const std::vector<bool>& adopted);

} // namespace sonicsim
