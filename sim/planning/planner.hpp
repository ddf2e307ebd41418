// The search behind `sonicsim plan`: the fewest devices (and pods) that meet the user's targets at N jobs,
// the most jobs G devices serve so, or (multi-model deployments) the devices each group needs. The analytic
// models (MVA of the closed network, the network limits) bracket the answer; replicated simulations with
// common random numbers confirm it, a batch at a time, and decide with confidence (confident_search.hpp):
// undecided candidates get more replications up to a budget, after which the answer is a range. The search
// space is the GPU count x pods (equal pods of at most max_gpus_per_pod) x device type x pod NIC; device
// types and NICs are separate searches whose answers are compared by cost per event (or devices). The
// simulations are passed in as a function, so the search is pure code, unit-tested with a stand-in for
// SimGrid.
#pragma once

#include "sim/metrics/run_summary.hpp"
#include "sim/planning/plan_result.hpp"
#include "sim/planning/plan_runs.hpp"
#include "sim/scenario/scenario.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim::planning {

// Below this many jobs a reference run has too few events to be a stable yardstick.
constexpr int min_reference_jobs = 20;
// A reference at a tenth of the knee sees essentially no queueing (MVA: < 0.5 % above one job).
constexpr double reference_load_fraction = 0.1;
// The analytic bracket skips layouts whose first resource saturates below 80 % of the target jobs: past its
// knee the MVA module time rises by (jobs / knee - 1) x t_GPU-scale steps, far beyond any tolerance a plan
// uses (up to 25 %), so they cannot be the bracket and evaluating their MVA curve is wasted.
constexpr double bracket_min_capacity_fraction = 0.8;
// --gpus: the job search works on a grid of 2 % of the analytic estimate. Replications of short runs scatter
// the module time by about 1-2 % (seed to seed), so a finer grid would resolve noise, not the answer.
constexpr double job_grid_fraction = 0.02;
// --gpus: the search looks up to 3 x the analytic estimate when the MVA predicts the figure of every target
// (module, event, GPU utilisation, events per job): the estimate is conservative (dynamic batching can only
// add capacity), and no shipped scenario simulates beyond 1.5 x it; 3 x leaves room for what the MVA does not
// model. A target the MVA does not predict (the gain over direct inference, a count, a percentile) has only
// the module estimate to start from, so the search looks up to 10 x it. The search gallops upward (its steps
// double), so a far ceiling costs a few batches, and only when nothing fails below it. --max-jobs sets it.
constexpr double job_search_ceiling = 3.0;
constexpr double job_search_ceiling_unpredicted = 10.0;
// --gpus: the MVA curve is evaluated up to twice the first resource's knee: beyond it every module time is
// far above tolerance (the saturated branch grows linearly with the jobs).
constexpr double mva_curve_extent = 2.0;
// The NIC a plan compares the pod NIC with to say whether the NIC decided the answer: ten times faster.
constexpr double fast_nic_factor = 10.0;
// The precision rule of a plan's simulations, as a multiple of the scenario's output.precision (2 % -> 8 %).
// A plan decides on the interval over its replications, and that interval narrows little with longer runs:
// seed-to-seed scatter dominates it (default scenario with the a100 variant, 14 A100 at 2,000 jobs, 3
// replications: module time 12.64 +- 0.55 s with runs to 8 % in 7.9 CPU-s, 12.73 +- 0.37 s to 2 % in 54.8
// CPU-s). More replications of shorter runs narrow it for less.
constexpr double plan_precision_factor = 4.0;
// Multi-model plans: passes over the groups (each searched with the others at their latest counts) before
// the counts must have settled.
constexpr int max_group_passes = 3;

struct PlannerSettings {
  std::string variant;             // empty: the scenario itself (reported in the plan)
  std::vector<PlanTarget> targets; // all must hold; default: module_time<=1.10x
  int max_gpus_per_pod = 8;        // GPUs in one pod before another pod is added
  int max_gpus = 256;              // largest number of GPUs the search tries
  int max_jobs = 0;                // --gpus: largest number of jobs the search tries; 0: from the estimate
  // The highest load the plan allows a link the pods cannot relieve (site switch, WAN): a plan needing more
  // is refused before any simulation. 1: the link's capacity, past which no target holds; below 1, a margin.
  double max_link_load = 1.0;
  int parallel = 1;           // runs per batch
  int replications = 3;       // per candidate at first
  int max_replications = 10;  // per candidate, for undecided ones
  double indifference = 0.01; // fraction of a target's limit below which a difference is not resolved
  // The precision rule every simulation of the plan is held to (output.precision for its runs); none:
  // plan_precision_factor x the scenario's (capped at 50 %), and off when the scenario's is off.
  std::optional<double> run_precision;
  std::vector<std::string> device_types; // searched; empty: the group's own
  std::vector<double> nics_bps;          // pod NICs searched; empty: the group's own
  // --jobs with several options (device types x NICs): size every option, even one whose fewest possible
  // devices already cost more per event than the best option found (by default it is left unsized).
  bool size_every_option = false;
  // Where the search stands before each batch, for the command's progress: about how many simulations it
  // expects after that batch (none: unknown) and the range still open, in words. May be empty.
  std::function<void(std::optional<std::size_t> later, const std::string& open)> outlook;
};

class Planner {
public:
  Planner(PlannerSettings settings, Scenario scenario, SimulateBatch simulate);
  ~Planner();
  Plan fewest_gpus(int jobs);
  Plan most_jobs(int gpus);
  // Multi-model deployments (several server groups): the devices of each group for N jobs.
  Plan per_group(int jobs);

private:
  class Search;
  std::unique_ptr<Search> search_;
};

} // namespace sonicsim::planning
