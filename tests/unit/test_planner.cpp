// The planner's search with a stand-in for the simulations: no SimGrid, a module time known in closed form.
#include "sim/planning/planner.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace sonicsim;

namespace {

// Each GPU serves 70 jobs without queueing; beyond that the module time grows with the load:
// module = 10 s x max(1, jobs / (70 x GPUs)). Within a 10 % tolerance: jobs <= 77 x GPUs.
constexpr double jobs_per_gpu = 70.0;
constexpr double module_alone_s = 10.0;

SimulationOutcome stand_in(const Scenario& scenario) {
  const int gpus = scenario.platform.server_groups.front().devices();
  const double load = scenario.workload.jobs / (jobs_per_gpu * gpus);
  SimulationOutcome outcome;
  outcome.ok = true;
  RunSummary& summary = outcome.summary;
  TimeStatistics module;
  module.count = 100;
  module.mean_s = module_alone_s * std::max(1.0, load);
  summary.modules = {{"non_ml", TimeStatistics{}}, {"EmTrkMichelId", module}};
  summary.event.mean_s = 110.0 + module.mean_s;
  summary.events_completed = 100;
  summary.events_per_s = scenario.workload.jobs / summary.event.mean_s;
  summary.gpu_utilisation = std::min(1.0, load);
  summary.bottleneck = load >= 1.0 ? "GPU pool" : "none";
  return outcome;
}

planning::Planner planner_with(int* runs) {
  const Scenario scenario = load_default_scenario();
  planning::PlannerSettings settings;
  settings.parallel = 2;
  return planning::Planner(settings, scenario, [runs](const std::vector<Scenario>& batch) {
    std::vector<SimulationOutcome> outcomes;
    for (const auto& point : batch)
      outcomes.push_back(stand_in(point));
    *runs += static_cast<int>(batch.size());
    return outcomes;
  });
}

} // namespace

TEST_CASE("plan --jobs 270: the fewest GPUs whose module stays within 10 %") {
  // 270 jobs within tolerance need 270 / 77 = 3.5 -> 4 GPUs; 3 GPUs give 270 / 210 = 1.29 x the module.
  int runs = 0;
  auto planner = planner_with(&runs);
  const planning::Plan plan = planner.fewest_gpus(270);
  REQUIRE(plan.found);
  CHECK(plan.layout.gpus() == 4);
  REQUIRE(plan.first_failing);
  CHECK(plan.first_failing->layout.gpus() == 3);
  CHECK(plan.first_failing->module_over_reference == doctest::Approx(270.0 / 210.0));
  // The analytic bracket (4 T4 at the default scenario's knee of ~270) starts next to the answer: a few runs.
  CHECK(runs <= 6);
}

TEST_CASE("plan --gpus 4: the most jobs within 10 %, on the job grid") {
  // Within tolerance up to 77 x 4 = 308 jobs; the answer is the last grid point at or below it.
  int runs = 0;
  auto planner = planner_with(&runs);
  const planning::Plan plan = planner.most_jobs(4);
  REQUIRE(plan.found);
  CHECK(plan.jobs <= 308);
  CHECK(plan.jobs > 308 - plan.job_step);
  REQUIRE(plan.first_failing);
  CHECK(plan.first_failing->jobs > 308);
}
