// A joint calibration's decisions, apart from how its simulations run: the fit from every start (the lowest
// chi-square wins), which fitted values are adopted and why the others are not, each prediction with an
// interval that carries the fit's uncertainty, and the model's own error from leave-one-series-out fits.
// Pure code: the simulations are passed in (JointSimulator), so a test can follow every decision with a
// stand-in whose answers it knows; `sonicsim calibrate --spec` passes the execution floor
// (sim/app/calibrate/joint_runs.hpp).
#pragma once

#include "sim/calibration/calibration.hpp"
#include "sim/calibration/joint_constraints.hpp"
#include "sim/calibration/joint_spec.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

// The simulations a joint calibration asks for. Each call is one batch (it may run in parallel) and must be
// deterministic (common random numbers).
struct JointSimulator {
  // The simulated observable at every point of every series of `spec`, in spec order (series, then points),
  // at a replication's seed (0: the scenarios' own seeds; r: replication_seed(seed, r)).
  std::function<std::vector<double>(const JointSpec& spec, const std::vector<double>& values,
                                    int replication)>
      series;
  // A prediction's value for each parameter vector and replication: out[v][r]; none where a crossing is not
  // within the sweep.
  std::function<std::vector<std::vector<std::optional<double>>>(
      const JointSpec& spec, const JointPrediction& prediction,
      const std::vector<std::vector<double>>& values)>
      prediction;
  // What a prediction's runs at these values warn of that its value rests on: each server group past its own
  // saturation point (sim/metrics/run_summary.hpp, ServerGroupUsage::past_saturation), once per group. Empty
  // when not set (a test's simulator) or for a crossing, whose sweep runs past saturation by design.
  std::function<std::vector<std::string>(const JointSpec& spec, const JointPrediction& prediction,
                                         const std::vector<double>& values)>
      warnings;
};

// One start of the fit and where it ended.
struct FitStart {
  std::vector<double> start, values;
  double chi_square = 0.0;
  int evaluations = 0;
};

struct JointFit {
  calibration::CalibrationResult result; // the start with the lowest chi-square
  std::vector<FitStart> starts;          // the initial values first, then the spec's further starts
};

// The spec's initial values, and its series' points as data (series, then points).
std::vector<double> initial_values(const JointSpec& spec);
std::vector<calibration::DataPoint> series_data(const JointSpec& spec);

// The series at `base` with the values being fitted put at `positions` (values[a] at positions[a]), at a
// replication's seed (0: the scenarios' own): what a fit of some parameters beside others held asks for.
// With no positions the values fitted are the whole vector.
calibration::Predictor series_predictor(const JointSpec& spec, const JointSimulator& simulator,
                                        std::vector<double> base, std::vector<std::size_t> positions,
                                        int replication);

// Fits from the initial values and from each further start at replication 0; `on_start` hears of each start
// as it ends. The uncalibrated prediction (`predicted_before`, `before`) stays the one at the initial values,
// whichever start wins. With spec.seeds > 1 the best start's answer is fitted again at replications 1 ..
// seeds - 1 and the result is the seeds' mean, the seeds' part in its covariance (calibration::add_seeds).
JointFit fit_joint(const JointSpec& spec, const JointSimulator& simulator,
                   const std::function<void(const FitStart&)>& on_start = {});

// Which fitted values a calibration adopts: those the data measure (identifiable, separable from the others,
// not stuck at a bound) and that leave every released fact within contradiction_sd.
struct Adoption {
  std::vector<bool> adopted;
  std::vector<std::string> why_not;    // per parameter: "" when adopted
  std::vector<ConstraintCheck> checks; // each released fact at the start and at the fit
  // Adopted: the fitted value; at its bound (and nothing else against it): that bound; else its assumed one.
  std::vector<double> values;
};

Adoption adopt(const JointSpec& spec, const calibration::CalibrationResult& fit);

} // namespace sonicsim
