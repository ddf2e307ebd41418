// The whole joint calibration as one call, the twin of planning::Planner: the fit from every start (or a fit
// read back), what it adopts (the rest held, the adopted refitted beside them), the model's own error from
// leave-one-series-out fits, the rival fits, every prediction with its interval, the answers, and how often
// the interval as quoted covered the held-out points. Pure: the simulations come in as a JointSimulator, the
// printing and the files are the command's (sim/app/calibrate/calibrate_joint.cpp).
#pragma once

#include "sim/calibration/conditional_fit.hpp"
#include "sim/calibration/held_out_coverage.hpp"
#include "sim/calibration/joint_fit.hpp"
#include "sim/calibration/joint_prediction.hpp"
#include "sim/calibration/model_form.hpp"
#include "sim/calibration/prediction_answer.hpp"
#include "sim/calibration/rival_fits.hpp"

#include <functional>
#include <optional>
#include <vector>

namespace sonicsim {

// A finished fit taken as it is (`calibrate --predict-from`): its values, intervals and covariance, where its
// starts ended, and its leave-one-series-out fits when the spec asks for a model form.
struct FitReadBack {
  calibration::CalibrationResult result;
  std::vector<FitStart> starts;
  std::optional<ModelForm> model_form;
};

struct JointCalibration {
  bool fitted = false;                   // false: the fit was read back, only the predictions ran
  std::vector<FitStart> starts;          // each start's end, in start order
  calibration::CalibrationResult result; // the adopted fit (refitted beside the held parameters)
  Adoption adoption;
  // The fit of all parameters together when some were held (empty `values`: none was), and the refits made.
  calibration::CalibrationResult unconditional;
  int refit_rounds = 0;
  std::optional<ModelForm> model_form;
  std::vector<RivalFit> rivals;
  std::vector<PredictionResult> predictions; // in spec order
  std::vector<PredictionAnswer> answers;
  std::optional<HeldOutCoverage> coverage; // with a model form
};

// What the calibration tells as it goes, for a reader watching a fit of tens of minutes. Each may be empty.
struct JointCalibrationProgress {
  std::function<void(const FitStart&)> start_ended;
  // The fit and its adoption are known (everything before the model form, the rivals and the predictions).
  std::function<void(const JointCalibration&)> adopted;
  std::function<void(const HeldOutPoint&)> held_out;
};

// Checks that every series loads with each parameter at each bound (a value its scenario refuses is told at
// the spec's line that sets the bound), then calibrates; `read_back`: take that fit instead of fitting.
JointCalibration calibrate_jointly(const JointSpec& spec, const JointSimulator& simulator,
                                   const JointCalibrationProgress& progress = {},
                                   std::optional<FitReadBack> read_back = std::nullopt);

} // namespace sonicsim
