// The simulations of a joint calibration (sim/calibration/joint_spec.hpp): every measured point of every
// series at given parameter values, and a prediction at given values and seed. Each run that needs the
// direct- inference level is simulated with its baseline (sim/metrics/direct_baseline.hpp). All runs of one
// call go out as one batch, in parallel.
#pragma once

#include "models/crossing.hpp"
#include "sim/calibration/joint_fit.hpp"
#include "sim/calibration/joint_spec.hpp"
#include "sim/execution/run_cache.hpp"
#include "sim/execution/run_or_submit.hpp"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

// One simulated point of a series: its scenario as run, its summary and its observable's value.
struct SeriesPointRun {
  const JointSeries* series = nullptr;
  const calibration::MeasuredPoint* point = nullptr;
  Scenario scenario;
  RunSummary summary;
  double value = 0.0;
};

// Every point of every series simulated at `values`, in spec order (series, then points), at a replication's
// seed (0: the scenarios' own). Runs in `cache` are not made again.
std::vector<SeriesPointRun> simulate_series_runs(const JointSpec& spec, const ExecutionContext& context,
                                                 const std::vector<double>& values, int replication = 0,
                                                 RunCache* cache = nullptr);

// The simulated observable at every point of every series, in spec order (series, then points).
std::vector<double> simulate_series(const JointSpec& spec, const ExecutionContext& context,
                                    const std::vector<double>& values, int replication = 0,
                                    RunCache* cache = nullptr);

// A prediction's value for several parameter vectors and replications at once: values[v] for replication
// r is out[v][r]; none where a crossing is not within the sweep. Runs in `cache` are not made again.
std::vector<std::vector<std::optional<double>>>
simulate_prediction(const JointSpec& spec, const JointPrediction& prediction, const ExecutionContext& context,
                    const std::vector<std::vector<double>>& values, RunCache* cache = nullptr);

// What a prediction's runs at `values` warn of (JointSimulator::warnings): each server group past its own
// saturation point in any of them, with in how many and how far. The runs come from `cache` when there.
std::vector<std::string> prediction_warnings(const JointSpec& spec, const JointPrediction& prediction,
                                             const ExecutionContext& context,
                                             const std::vector<double>& values, RunCache* cache = nullptr);

// The three above, as the pure joint fit asks for its simulations (sim/calibration/joint_fit.hpp). The fit's
// series use `series_cache`, predictions `prediction_cache`, when given (each must outlive the simulator).
JointSimulator joint_simulator(const ExecutionContext& context, RunCache* prediction_cache = nullptr,
                               RunCache* series_cache = nullptr);

} // namespace sonicsim
