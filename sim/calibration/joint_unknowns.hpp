// An input of a prediction that no released series measures and the calibration therefore does not fit (a
// model's production capacity against its benchmark files, say): held at its assumed value, with a range from
// released facts, and each prediction it acts on also made at both ends of that range, the fitted values as
// adopted. Its swing joins the prediction's one interval and its ranked assumptions
// (sim/calibration/prediction_answer.hpp). Spec key `unknowns` (docs/calibration.md "Unknowns no series
// measures").
#pragma once

#include <string>
#include <vector>

namespace sonicsim {

class Cursor;
struct JointPrediction;

struct JointUnknown {
  std::string key;  // the name answers give it
  std::string unit; // of lower, upper and assumed ("" for a ratio)
  double lower = 0.0, upper = 0.0, assumed = 0.0;
  // The --set expressions that put a value in a prediction's runs, {} standing for it (as a parameter's set).
  std::vector<std::string> sets;
  // The ids of the predictions (of their own) it acts on; their readings (reading_of) too.
  std::vector<std::string> predictions;
  std::string why_range; // where the range comes from (released facts)
  std::string pinned_by; // the measurement that would pin it
};

// Reads one entry of `unknowns` (the predictions' ids are checked by the spec once they are read). Throws
// ScenarioError naming the line and key.
JointUnknown read_unknown(const Cursor& c);

// Whether u acts on this prediction: its id, or the id it is a reading of, is among u's predictions.
bool unknown_acts_on(const JointUnknown& u, const JointPrediction& prediction);

} // namespace sonicsim
