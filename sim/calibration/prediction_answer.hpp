// The answer to a prediction: one value, one 95 % interval that holds everything the model does not know
// (the seeds, the calibration, the model form, the misfit, the parameters the data leave unplaced, the rival
// fits and the readings of a setting the data cannot choose), and the assumptions it rests on ranked by how
// far each one moves the answer across its range, each with the measurement that would pin it and the
// interval the answer would have if it were pinned at either end of that range. Pure code over the
// predictions' runs (sim/calibration/joint_prediction.hpp): no simulation of its own.
#pragma once

#include "sim/calibration/joint_prediction.hpp"
#include "sim/calibration/joint_spec.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sonicsim {

// One assumption of an answer and what it moves. An end at which the prediction has no value (a crossing
// outside its sweep) or an open interval side is +-infinity; its swing is then infinite.
struct AnswerAssumption {
  enum class Kind { reading, held, rival_fits, model_misfit, calibration, model_form, seeds };
  Kind kind = Kind::seeds;
  std::string name;                   // what is assumed
  std::string low_end, high_end;      // the range's ends in words, where the answer is lowest and highest
  double at_low = 0.0, at_high = 0.0; // the answer at each end
  double swing = 0.0;                 // at_high - at_low
  // The answer's interval with this assumption pinned at each end (the parts of the interval it adds gone);
  // for a part of the statistical interval (misfit, calibration, model form, seeds) both are the interval
  // without that part.
  std::pair<double, double> pinned_low, pinned_high;
  std::string pinned_by; // the measurement that would pin it
};

struct PredictionAnswer {
  std::string id, title;
  std::vector<std::string>
      readings;                // the ids of the predictions it is made of: its own first, then its readings
  std::optional<double> value; // the prediction's own reading at the adopted fit; none if it has no value
  std::pair<double, double> interval95;      // everything, as reading_envelope gives it (open sides infinite)
  std::vector<AnswerAssumption> assumptions; // largest swing first
  std::string problem;                       // why there is no value, or why a side is open
  // Each reading's warnings (a pool past its own saturation point), the reading named when not the first.
  std::vector<std::string> warnings;
};

// The answer of a prediction of its own (`readings.front()`) and its other readings (spec key `reading_of`,
// in the spec's order). `spec` names the assumptions: each reading's `assumes`, each held parameter's unit
// and `pinned_by`, the readings' and the rival fits' `pinned_by`.
PredictionAnswer answer_of(const JointSpec& spec, const std::vector<const PredictionResult*>& readings);

// Each prediction of its own with its readings (`results` in the spec's order), answered.
std::vector<PredictionAnswer> answers_of(const JointSpec& spec, const std::vector<PredictionResult>& results);

const char* kind_name(AnswerAssumption::Kind kind);

} // namespace sonicsim
