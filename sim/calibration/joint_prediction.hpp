// A prediction with the calibration's uncertainty in it: the value at the fitted parameters (mean over
// replications), and a 95 % interval that adds, in quadrature, the seeds' part (Student's t over the
// replications times their standard error) and the fitted parameters' part (1.96 times their uncertainty
// propagated to first order: gradient by a one-sd step of each fitted parameter, common random numbers,
// through their covariance). Pure code: the runs are the simulator's (sim/calibration/joint_fit.hpp).
#pragma once

#include "sim/calibration/joint_fit.hpp"
#include "sim/calibration/joint_spec.hpp"
#include "sim/calibration/rival_fits.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

struct PredictionResult {
  std::string id, title;
  std::optional<double> value; // none: it does not cross within the sweep at the fitted values
  double half_width = 0.0;     // 95 %, both parts
  double seed_se = 0.0, parameter_se = 0.0;
  int replications = 1;              // the seeds' part is Student's t over these times seed_se
  std::vector<double> gradient;      // per parameter, per unit of it (0 for those not fitted)
  std::string problem;               // why there is no value or no interval
  std::vector<std::string> warnings; // of its runs at the adopted values (JointSimulator::warnings)
  // The parts a rerun of the same code reproduces within: seeds, calibration and model-form, without the
  // model misfit (which moves the curve, not the runs). Equal to half_width without model_form in the spec.
  double bounded_parts_half_width = 0.0;
  // The model's own error (sim/calibration/model_form.hpp): the jackknife se over the leave-one-series-out
  // fits, and each fit's value; 0 and none without model_form in the spec.
  double model_form_se = 0.0;
  std::vector<double> model_form_values;
  // The model's misfit where it was not fitted: the simulated figure off by 1.96 x the held-out points'
  // relative RMS (`model_error_relative`), carried to the prediction (a crossing: where the curve so moved
  // crosses); this half-width joins the interval. 0 without model_form in the spec.
  double model_error_relative = 0.0;
  double model_error_half_width = 0.0;
  bool model_error_on_ratio = false; // the relative RMS is the held-out ratios' to the direct level's
  // crossing_jobs: where the curve crosses when it is that much lower, and when that much higher (none where
  // it does not cross within the sweep: lower, already below direct at its first point; higher, still above
  // at its last).
  std::optional<double> crossing_curve_lower, crossing_curve_higher;
  // Each parameter the calibration holds (not adopted: the released data do not place it) that acts on the
  // prediction, at its lower and at its upper bound, the others as adopted (not fitted again): the answer
  // rests on where it really is. `prediction`: the mean over the replications; none where one does not cross.
  struct HeldAt {
    std::string key;
    double value = 0.0;
    std::optional<double> prediction;
    bool at_adopted = false; // the bound the calibration holds it at: the value's own runs
  };
  std::vector<HeldAt> held;
  // At each rival fit's values (sim/calibration/rival_fits.hpp: another start's fit the data cannot tell from
  // the answer), all its parameters as that fit put them; the mean over the replications, none where one does
  // not cross.
  struct RivalAt {
    std::size_t start = 0;
    double chi_square = 0.0;
    std::optional<double> prediction;
  };
  std::vector<RivalAt> rivals;
  // The 95 % interval: value +- half_width where it is bounded. A crossing whose curve, moved by the model
  // misfit, leaves the sweep on one side only (DeepMET on one T4: with the curve lower it is below direct
  // inference from the first point) is open on that side (-inf or +inf) and bounded on the other by the
  // bounded parts and that side's misfit in quadrature. Both open without a value, where a leave-one-out fit
  // gives none, or where the misfit leaves the curve unbounded.
  std::pair<double, double> interval() const;
  // The interval over the held parameters' range and the rival fits: from the lowest of the value, the held
  // and the rivals' predictions less the interval's lower half-width to the highest plus its upper one (each
  // side as interval() gives it at the value); both open where one of them does not cross. Without either,
  // interval().
  std::pair<double, double> span() const;
};

// The answer to a prediction that has other readings (spec key `reading_of`: a setting the released data
// cannot choose, the batcher's limit in requests or in inferences, say): from the lowest of the readings'
// spans to the highest, a side open if any reading leaves it open, and open on both when a reading has no
// value (it does not cross within its sweep). `readings` holds the prediction itself and its readings.
std::pair<double, double> reading_envelope(const std::vector<const PredictionResult*>& readings);

// `values`: the adopted values; `covariance`: k x k of the fitted values (row-major); `fitted[i]`: whether
// parameter i carries an interval (adopted), else it is held at its value with no uncertainty.
PredictionResult predict(const JointSpec& spec, const JointPrediction& prediction,
                         const JointSimulator& simulator, const std::vector<double>& values,
                         const std::vector<double>& covariance, const std::vector<bool>& fitted,
                         const std::vector<RivalFit>& rivals = {});

} // namespace sonicsim
