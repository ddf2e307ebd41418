// One run of one scenario on a SimGrid engine. SimGrid allows one engine per process: a caller that needs
// several runs (sweep, bench, validate) runs each in its own process (sim/execution/process_pool.hpp).
#pragma once

#include "sim/metrics/run_recorder.hpp"
#include "sim/scenario/scenario.hpp"

#include <filesystem>
#include <functional>
#include <optional>

namespace sonicsim {

// How far a run is, for a progress line: the simulated clock and, when the run's end is known ahead (a fixed
// number of events, or a campaign window), the fraction done.
struct RunProgress {
  double simulated_s = 0.0;
  std::optional<double> fraction_done;
};

struct RunOptions {
  // Where to write summary.json, events.csv and timeseries.csv; none: keep results in memory only.
  std::optional<std::filesystem::path> output_dir;
  // The same scenario's run with direct inference: the summary then compares the two.
  std::optional<RunSummary> direct_baseline;
  // Also write metrics.om: Triton's metrics in the OpenMetrics format, stamped from this time (seconds since
  // the Unix epoch). None: not recorded (nothing is paid for them).
  std::optional<double> openmetrics_start_epoch_s;
  double openmetrics_interval_s = 5.0; // metrics.om's samples: SuperSONIC's Prometheus scrapes every 5 s
  // Called about once per wall-clock second while the engine runs (never changes the simulation).
  std::function<void(const RunProgress&)> on_progress;
};

struct RunResult {
  RunSummary summary;
  double wall_clock_s = 0.0;
};

RunResult run_simulation(const Scenario& scenario, const RunOptions& options);

} // namespace sonicsim
