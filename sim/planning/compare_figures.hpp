// The figures `sonicsim compare` puts side by side, one column per scenario (the base, then each variant):
// simulated at the compared job count and at low load, next to the analytic knee, ratio and network limit.
// Pure code: the runs are given (sim/app/compare_command.cpp simulates them); the table's text and
// compare.json are sim/app/compare_table.hpp.
#pragma once

#include "sim/metrics/confidence_interval.hpp"
#include "sim/metrics/run_summary.hpp"
#include "sim/planning/capacity_analysis.hpp"
#include "sim/scenario/provenance.hpp"
#include "sim/scenario/scenario.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

struct ComparedScenario {
  std::string name; // empty: the base
  Scenario scenario;
  planning::LayoutAnalysis analysis;
  // One per replication (replication r with seed replication_seed(seed, r) in every column: common random
  // numbers), at the compared job count and at low load.
  std::vector<SimulationOutcome> loaded;
  std::vector<SimulationOutcome> reference;
};

// The simulated figures are means over the replications; `intervals` holds the 95 % interval of each by its
// JSON name when there are two replications or more.
struct VariantFigures {
  std::string name; // "base" or the variant's name
  std::string description;
  int replications = 0; // that ran without failing
  std::map<std::string, ConfidenceInterval> intervals;
  double module_low_load_s = 0.0; // simulated, reference run
  double module_mean_s = 0.0;     // simulated, at the compared jobs
  double event_mean_s = 0.0;
  double events_per_s = 0.0;
  double gpu_utilisation = 0.0;
  double mean_executed_batch = 0.0;
  std::string bottleneck; // vote_bottleneck over the replications, as a sentence
  // Runs (loaded or low-load) that missed the precision rule even extended: why; the column is then
  // undecided (its figures are shown, marked, and are not evidence).
  std::string too_short;
  std::vector<Provenance> assumptions; // the assumed values the column's scenario uses
  double ratio_analytic = 0.0;         // t_ideal / t_GPU
  double ratio_simulated = 0.0;        // low-load event time / GPU-seconds per event at the compared jobs
  double knee_analytic = 0.0;          // jobs: ratio x GPUs
  double knee_simulated = 0.0;
  double network_limit_jobs = 0.0;
  std::string network_link;
  std::optional<double> cost_usd_per_event; // at the compared jobs, from the scenario's prices
  // Operations: device-hours held by the groups whose pods change in time, and the most pods they held at
  // once (summed over those groups); 0 in a column without such groups (`pooled` false).
  bool pooled = false;
  double device_hours = 0.0;
  double peak_pods = 0.0;
};

struct CompareTable {
  int jobs = 0;
  int replications = 1;
  int reference_jobs = 0;
  std::vector<std::string> columns;
  std::vector<VariantFigures> figures; // one per column
};

// The columns' figures: the simulated ones as means over the replications that ran (with their 95 %
// intervals from two on), the analytic ones from each column's layout analysis, the bottleneck by vote.
CompareTable compare_figures(const std::vector<ComparedScenario>& compared, int jobs, int reference_jobs,
                             int replications);

} // namespace sonicsim
