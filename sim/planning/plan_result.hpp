// What `sonicsim plan` found and how: the analytic bracket, every confirming simulation, the answer and the
// figures around it. Filled by the planner (sim/planning/planner.hpp), printed and written as JSON by
// plan_report.
#pragma once

#include "sim/planning/capacity_analysis.hpp"
#include "sim/planning/pod_layout.hpp"
#include "sim/planning/run_figures.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sonicsim::planning {

struct PlanRun {
  std::string role; // "reference" (low load) or "candidate"
  PodLayout layout;
  int jobs = 0;
  bool ok = false;
  std::string error;
  double module_s = 0.0; // accelerated module(s), mean
  double event_s = 0.0;
  double events_per_s = 0.0;
  double gpu_utilisation = 0.0;
  double gpu_s_per_event = 0.0;
  std::string bottleneck;
  double bottleneck_utilisation = 0.0;
  double module_over_reference = 0.0; // module_s / the reference's module_s
  bool within_tolerance = false;
  double wall_clock_s = 0.0;
};

struct Plan {
  enum class Mode { fewest_gpus, most_jobs };
  Mode mode = Mode::fewest_gpus;
  std::string scenario;
  std::string variant; // empty: the scenario itself
  double tolerance = 0.1;
  int max_gpus_per_pod = 8;
  std::string layout_rule;
  int requested = 0; // jobs (fewest_gpus) or GPUs (most_jobs)

  // Analytic bracket: MVA module time within tolerance of its one-job value.
  double analytic_module_low_load_s = 0.0;
  PodLayout analytic_layout;
  int analytic_jobs = 0;
  int job_step = 1; // most_jobs: the resolution of the job search

  PlanRun reference;
  std::vector<PlanRun> runs; // the confirming runs, in the order they ran
  int batches = 0;

  bool found = false;
  std::string not_found_reason;
  PodLayout layout;                     // the answer (fewest_gpus) or the given GPUs (most_jobs)
  int jobs = 0;                         // the given jobs (fewest_gpus) or the answer (most_jobs)
  LayoutAnalysis analysis;              // of the answer's layout
  std::optional<PlanRun> answer_run;    // the confirming run at the answer
  std::optional<PlanRun> first_failing; // the neighbour that failed: what saturated
  double ratio_simulated = 0.0;
  // Sizing at the knee instead of within tolerance: jobs / ratio GPUs (fewest_gpus) or ratio x GPUs jobs
  // (most_jobs), from the simulated ratio. At the knee the module is already well above its unsaturated time.
  double knee_sizing = 0.0;
  std::optional<CostPerEvent> cost;
};

} // namespace sonicsim::planning
