// The coverage of the interval as it is quoted, checked where the answer is known: each released series is
// left out in turn (model_form: leave_one_series_out), and each of its points is predicted as an answer is
// (sim/calibration/joint_prediction.hpp): by the fit that left its series out, with the seeds' part, that
// fit's calibration part, each parameter the calibration holds at its bounds (and each the other series do
// not place: that fit did not move it, or its 95 % half-width exceeds its range), and the model misfit the
// other series' held-out points show (1.96 x their relative RMS: a point's own error never widens its own
// interval). A point counts as covered when its measurement lies within that interval widened, in
// quadrature, by the measurement's own 1.96 sd. What the points cannot check: the readings and the unknowns
// of the predictions, which act on no released series (their spans only widen the answers' intervals).
#pragma once

#include "sim/calibration/joint_fit.hpp"
#include "sim/calibration/joint_spec.hpp"
#include "sim/calibration/model_form.hpp"

#include <string>
#include <utility>
#include <vector>

namespace sonicsim {

struct CoveredPoint {
  HeldOutPoint point;                 // its measurement
  std::optional<double> value;        // predicted by the fit without its series (replications' mean)
  std::pair<double, double> interval; // 95 %, as quoted (both sides open without a value)
  bool covered = false;
};

struct HeldOutCoverage {
  std::vector<CoveredPoint> points;
  std::size_t covered = 0;
  int replications = 0;
  // How each fit's calibration part was taken: its own covariance, or (a calibration.json from before they
  // were kept) the full fit's, which understates it.
  std::string calibration_part;
};

// `form`: the leave-one-out fits (values, and covariances where kept); `covariance`, `fitted`: the full fit's
// covariance and which parameters it adopted (the others are held at their bounds in each point's interval).
// One batch of runs per held-out point.
HeldOutCoverage held_out_coverage(const JointSpec& spec, const JointSimulator& simulator,
                                  const ModelForm& form, const std::vector<double>& covariance,
                                  const std::vector<bool>& fitted, int replications);

} // namespace sonicsim
