// The search behind `sonicsim plan`: the fewest GPUs (and pods) that keep the accelerated module within a
// tolerance of its unsaturated time at N jobs, or the most jobs G GPUs serve so. The analytic models (MVA of
// the closed network, the network limits) bracket the answer; simulations around the bracket confirm it, a
// batch at a time (boundary_search.hpp). The simulations are passed in as a function, so the search is pure
// code, unit-tested with a stand-in for SimGrid.
#pragma once

#include "sim/metrics/run_summary.hpp"
#include "sim/planning/plan_result.hpp"
#include "sim/scenario/scenario.hpp"

#include <functional>
#include <memory>
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
// --gpus: the search looks up to 3 x the analytic estimate. The estimate is the MVA's, which is conservative
// (dynamic batching can only add capacity), and no shipped scenario simulates beyond 1.5 x it; 3 x leaves
// room for what the MVA does not model before the search says "not found".
constexpr double job_search_ceiling = 3.0;
// --gpus: the MVA curve is evaluated up to twice the first resource's knee: beyond it every module time is
// far above tolerance (the saturated branch grows linearly with the jobs).
constexpr double mva_curve_extent = 2.0;

struct PlannerSettings {
  std::string variant;      // empty: the scenario itself (reported in the plan)
  double tolerance = 0.10;  // allowed rise of the module time over the low-load reference, a fraction
  int max_gpus_per_pod = 8; // GPUs in one pod before another pod is added
  int max_gpus = 256;       // largest number of GPUs the search tries
  int parallel = 1;         // runs per batch
};

// An outcome per scenario, in their order: the simulations the search asked for.
using SimulateBatch = std::function<std::vector<SimulationOutcome>(const std::vector<Scenario>&)>;

class Planner {
public:
  Planner(PlannerSettings settings, Scenario scenario, SimulateBatch simulate);
  ~Planner();
  Plan fewest_gpus(int jobs);
  Plan most_jobs(int gpus);

private:
  class Search;
  std::unique_ptr<Search> search_;
};

} // namespace sonicsim::planning
