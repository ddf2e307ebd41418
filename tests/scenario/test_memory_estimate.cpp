// The run's memory estimate (sim/engine/memory_estimate.hpp): each term as measured (job slots, threads,
// modules, pods), and a large run told what it will hold before it starts.

#include "../unit/minimal_scenario.hpp"
#include "sim/engine/memory_estimate.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <doctest/doctest.h>

using namespace sonicsim;

TEST_CASE("memory estimate: each term as measured, and a large run told what it will hold before it starts") {
  // The measured costs (memory_estimate.cpp), in KiB: 41,000 base, 4.9 per job with remote inference, 2.6 per
  // CPU-only job, 1.0 per extra thread, 122 per module, 12 per model, 2.5 per WAN down window, 8 per pod and
  // 0.25 per device.
  constexpr double kib = 1024.0;
  Scenario scenario = load_scenario_text(testing::minimal_scenario_yaml, "minimal");
  scenario.workload.jobs = 1000000;
  const MemoryEstimate e = estimate_run_memory(scenario);
  CHECK(e.jobs_bytes == doctest::Approx(1e6 * 4.9 * kib));
  CHECK(e.modules_bytes == doctest::Approx(2 * 122 * kib)); // reco and EmTrkMichelId
  CHECK(e.models_bytes == doctest::Approx(12 * kib));       // m
  CHECK(e.wan_windows_bytes == doctest::Approx(0.0));
  CHECK(e.total_bytes ==
        doctest::Approx(41e3 * kib + e.jobs_bytes + e.modules_bytes + e.models_bytes + e.pods_bytes));
  // 10^6 jobs: 5.02 GB for the slots, 5.06 GB with the rest.
  const std::string notice = large_run_notice(scenario, MemoryLimit{24e9, "the machine's memory"});
  INFO(notice);
  CHECK(notice.find("1000000 job slots will hold about 5.06 GB (5.0 kB per job, measured)") !=
        std::string::npos);
  CHECK(notice.find("within the 24") != std::string::npos);
  // Four threads per job hold 1 KiB more per extra thread.
  scenario.workload.threads = 4;
  CHECK(estimate_run_memory(scenario).jobs_bytes == doctest::Approx(1e6 * (4.9 + 3.0) * kib));
  // A CPU-only pipeline holds no connections or senders: 2.6 KiB per job (it was estimated at twice that).
  scenario.workload.threads = 1;
  scenario.workload.pipeline.pop_back();
  CHECK(estimate_run_memory(scenario).jobs_bytes == doctest::Approx(1e6 * 2.6 * kib));
  // 5,000 pods of 8 devices: 5,000 x (8 + 8 x 0.25) KiB.
  scenario.platform.server_groups.front().pods = 5000;
  scenario.platform.server_groups.front().devices_per_pod = 8;
  CHECK(estimate_run_memory(scenario).pods_bytes == doctest::Approx(5000 * 10.0 * kib));
  // 10^5 WAN down windows: 10^5 x 2.5 KiB.
  scenario.platform.wan.down.resize(100000);
  CHECK(estimate_run_memory(scenario).wan_windows_bytes == doctest::Approx(1e5 * 2.5 * kib));
  scenario.platform.wan.down.clear();
  // 400 jobs (~44 MB) start without a word.
  scenario.workload.jobs = 400;
  CHECK(large_run_notice(scenario, std::nullopt).empty());
}
