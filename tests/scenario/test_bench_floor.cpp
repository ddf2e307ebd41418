// `sonicsim bench` prints, next to each simulated configuration, the SimGrid floor: the same request flows
// moved by SimGrid alone (sim/engine/flow_floor.hpp). Speeds are not asserted (they depend on the machine);
// the workload the floor derives from a run, and the table's shape, are.
#include "simulate.hpp"

#include "sim/engine/flow_floor.hpp"
#include "sim/execution/process_pool.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

TEST_CASE("flow floor workload: the run's requests, mean size and request rate, per job") {
  sonicsim::Scenario scenario;
  scenario.workload.jobs = 400;
  // 76,800 requests of 15.6 MB over 1,282 simulated seconds: 192 per job, one every 1282 x 400 / 76800 s.
  const auto workload = sonicsim::flow_floor_workload(scenario, 76800, 1282.0, 76800 * 15.6e6);
  CHECK(workload.flows_per_job == 192);
  CHECK(workload.flow_bytes == doctest::Approx(15.6e6));
  CHECK(workload.period_s == doctest::Approx(1282.0 * 400 / 76800));
  // A run that sent nothing has no rate to reproduce.
  CHECK_THROWS(sonicsim::flow_floor_workload(scenario, 0, 1282.0, 0));
}

TEST_CASE("flow floor: every job's flows are moved, each job's next one scheduled by its last") {
  // 20 jobs x 7 flows of 1 MB, one every 0.5 s per job: 140 flows, all delivered. The floor chains each job's
  // flows (about one calendar event per job, as the simulator's jobs keep); scheduled all at once, as it
  // once was, 150,000 pending events at 400 jobs made each event dearer than in any run.
  const auto scenario = sonicsim::load_scenario_file(
      sonicsim::testing::config_path("protodune_2020_large_batch.yaml"), {"workload.jobs=20"});
  const sonicsim::FlowFloorWorkload workload{7, 1e6, 0.5};
  std::uint64_t flows = 0;
  sonicsim::run_in_child_processes(
      1, 1, [&](std::size_t) { return std::to_string(sonicsim::run_flow_floor(scenario, workload).flows); },
      [&](std::size_t, const sonicsim::ChildResult& child) {
        REQUIRE(child.ok);
        flows = std::stoull(child.output);
      });
  CHECK(flows == 140);
}

TEST_CASE("bench prints the simulator's rate and the SimGrid floor for each job count") {
  const auto result = sonicsim::testing::run_sonicsim("bench --jobs 20 --repeat 1");
  REQUIRE(result.exit_code == 0);
  CHECK(result.output.find("SimGrid floor/s") != std::string::npos);
  CHECK(result.output.find("of floor") != std::string::npos);
  const auto row_at = result.output.find("20 jobs x 6 ev");
  REQUIRE(row_at != std::string::npos);
  std::istringstream row(result.output.substr(row_at + std::string("20 jobs x 6 ev").size()));
  std::vector<double> numbers;
  for (double value = 0; numbers.size() < 8 && row >> value;)
    numbers.push_back(value);
  // requests, requests/s, requests/cpu-s, events/s, wall s, peak MB, SimGrid floor/s, % of floor
  REQUIRE(numbers.size() == 8);
  CHECK(numbers[0] >= 20 * 6 * 32); // 32 groups per event, each at least one request
  for (const double value : numbers)
    CHECK(value > 0);
}
