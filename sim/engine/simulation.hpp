// One run of one scenario on a SimGrid engine. SimGrid allows one engine per process: a caller that needs
// several runs (sweep, bench, validate) runs each in its own process (sim/app/process_pool.hpp).
#pragma once

#include "sim/metrics/run_recorder.hpp"
#include "sim/scenario/scenario.hpp"

#include <filesystem>
#include <optional>

namespace sonicsim {

struct RunOptions {
  // Where to write summary.json, events.csv and timeseries.csv; none: keep results in memory only.
  std::optional<std::filesystem::path> output_dir;
  // The same scenario's run with direct inference: the summary then compares the two.
  std::optional<RunSummary> direct_baseline;
  // Also write metrics.om: Triton's metrics in the OpenMetrics format, stamped from this time (seconds since
  // the Unix epoch). None: not recorded (nothing is paid for them).
  std::optional<double> openmetrics_start_epoch_s;
};

struct RunResult {
  RunSummary summary;
  double wall_clock_s = 0.0;
};

RunResult run_simulation(const Scenario& scenario, const RunOptions& options);

} // namespace sonicsim
