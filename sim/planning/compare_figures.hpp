// The figures `sonicsim compare` puts side by side, one column per scenario (the base, then each variant):
// simulated at the compared job count and at low load, next to the analytic knee, ratio and network limit.
// Pure code: the runs are given (sim/app/run/compare_command.cpp simulates them); the table's text and
// compare.json are sim/app/run/compare_table.hpp.
#pragma once

#include "sim/metrics/confidence_interval.hpp"
#include "sim/metrics/figure_table.hpp"
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
  // The one-group layout analysis (ratio, knee, network limit); none for a scenario it does not describe
  // (several server groups, or no device time), `no_analysis` then says why.
  std::optional<planning::LayoutAnalysis> analysis;
  std::string no_analysis;
  // One per replication (replication r with seed replication_seed(seed, r) in every column: common random
  // numbers), at the compared job count and at low load.
  std::vector<SimulationOutcome> loaded;
  std::vector<SimulationOutcome> reference;
};

// The figures of the table each column shows at the compared jobs, in order (sim/metrics/figure_table.hpp);
// the pooled ones only where a column has a group whose pods change in time.
extern const std::vector<Figure> compared_figures;
extern const std::vector<Figure> compared_pool_figures;

// A column. The simulated values are means over the replications that ran, each with its 95 % interval
// (an interval from two replications on); a value some replication does not define is absent.
struct VariantFigures {
  std::string name; // "base" or the variant's name
  std::string description;
  int replications = 0;                           // that ran without failing
  std::map<Figure, ConfidenceInterval> simulated; // compared_figures (and the pool's) at the compared jobs
  std::optional<ConfidenceInterval> module_low_load_s; // module_mean_s of the low-load reference run
  // Low-load event time / GPU-seconds per event at the compared jobs, and the knee it gives (ratio x GPUs /
  // threads per job).
  std::optional<ConfidenceInterval> ratio_simulated, knee_simulated;
  std::string bottleneck; // vote_bottleneck over the replications, as a sentence
  // Runs (loaded or low-load) that missed the precision rule even extended: why; the column is then
  // undecided (its figures are shown, marked, and are not evidence).
  std::string too_short;
  std::vector<Provenance> assumptions; // the assumed values the column's scenario uses
  // The analytic values, none where the one-group analysis does not describe the column (`no_analysis`).
  std::optional<double> ratio_analytic; // t_ideal / t_GPU
  std::optional<double> knee_analytic;  // jobs: ratio x GPUs
  std::optional<double> network_limit_jobs;
  std::string network_link;
  std::string no_analysis;
  bool pooled = false; // a group's pods change in time: device_hours and peak_pods are simulated

  std::optional<ConfidenceInterval> figure(Figure figure) const;
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
