// The run's memory estimate (sim/engine/memory_estimate.hpp): 40 MB and 4.8 kB per job slot as measured, and
// a large run told what it will hold before it starts.
#include "../unit/minimal_scenario.hpp"
#include "sim/engine/memory_estimate.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <doctest/doctest.h>

using namespace sonicsim;

TEST_CASE("memory estimate: 10^6 single-thread jobs hold about 4.84 GB, and are told so before they start") {
  Scenario scenario = load_scenario_text(testing::minimal_scenario_yaml, "minimal");
  scenario.workload.jobs = 1000000;
  CHECK(estimated_run_bytes(scenario) == doctest::Approx(40e6 + 1e6 * 4.8e3));
  const std::string notice = large_run_notice(scenario, MemoryLimit{24e9, "the machine's memory"});
  CHECK(notice.find("1000000 job slots will hold about 4.84 GB") != std::string::npos);
  INFO(notice);
  CHECK(notice.find("within the 24") != std::string::npos);
  CHECK(notice.find("GB of the machine's memory") != std::string::npos);
  // Four threads per job hold 1 kB more per extra thread: 40 MB + 10^6 x 7.8 kB.
  scenario.workload.threads = 4;
  CHECK(estimated_run_bytes(scenario) == doctest::Approx(40e6 + 1e6 * 7.8e3));
  // 400 jobs (~42 MB) start without a word.
  scenario.workload.jobs = 400;
  scenario.workload.threads = 1;
  CHECK(large_run_notice(scenario, std::nullopt).empty());
}
