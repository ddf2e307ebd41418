// Client nodes whose threads share physical cores (platform.client_node), simulated against hand-computed
// event times: the thread speed the node's load gives (sim/policy/node_sharing.hpp), and a gain over direct
// inference above the inference share of the event, which a node without sharing cannot give.
#include "simulate.hpp"

#include "sim/analysis/analytic_curve.hpp"
#include "sim/analysis/scenario_parameters.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <doctest/doctest.h>

#include <string>

using sonicsim::RunSummary;
using sonicsim::testing::simulate_text;

namespace {

// One 4-thread job per node on 2 physical cores of 2 hardware threads (a 4-vCPU cloud VM), a second thread
// adding 25 % to its core. Each event: 900 ms of CPU work on average (a lognormal spread keeps the threads
// out of step) and one call of 10 inferences to a fast T4
// (100 ms of direct inference on the thread's own core instead).
std::string scenario(const std::string& node, const std::string& inference,
                     const std::string& rtt = "0.1ms") {
  return R"(
name: client_node
seed: 5
platform:
  jobs_per_node: 1
  node_cores: 4
)" + node +
         R"(
  nic_mix: [{bandwidth: "10Gbps", fraction: 1.0}]
  wan: {rtt: ")" +
         rtt + R"("}
  server_groups:
    t4: {pods: 1, devices: {type: T4, count: 1}}
models:
  m:
    input_bytes_per_inference: "4B"
    output_bytes_per_inference: "4B"
    throughput: {T4: {points: [[1, 100000], [1000, 100000]]}}
    triton: {max_batch_size: 1000}
    deploy: {groups: [t4]}
workload:
  jobs: 4
  threads: 4
  events_per_job: 400
  warmup_events: 8
  start_spread: "1s"
  inference: )" +
         inference + R"(
  pipeline:
    - {name: work, type: cpu, duration: {dist: lognormal, mean: "900ms", sd: "270ms"}}
    - {name: call, type: remote_inference, model: m, inferences: 10, max_batch: 10, direct: "100ms"}
output: {precision: off}
)";
}

const std::string vm = "  client_node: {physical_cores: 2, threads_per_core: 2, hyperthread_yield: 0.25}";

} // namespace

TEST_CASE("four threads on two hyper-threaded cores run at 1.25 / 2 of a core; direct inference alike") {
  // Direct: all 4 threads compute all the time, each at (2 + 0.25 x 2) / 4 = 0.625 of a core. The same
  // draws (same seed) stretched by 1 / 0.625: 0.625 of the events/s per job of the same job on a node
  // without sharing, which does about 4 (1 s per event, 4 threads).
  const RunSummary direct = simulate_text(scenario(vm, "direct"), "direct.yaml");
  const RunSummary alone = simulate_text(scenario("", "direct"), "alone.yaml");
  CHECK(alone.events_per_s_per_job == doctest::Approx(4.0).epsilon(0.03)); // the lognormal's sampling
  CHECK(direct.events_per_s_per_job / alone.events_per_s_per_job == doctest::Approx(0.625).epsilon(0.005));
}

TEST_CASE("served remotely, the inference leaves its core to the sibling thread: a gain above its share") {
  // A 100 ms round trip, as long as the direct inference: without node sharing, serving gains nothing
  // (900 ms of work + 100 ms of waiting against 1,000 ms of work).
  const RunSummary plain = simulate_text(scenario("", "service", "100ms"), "plain.yaml");
  const RunSummary plain_direct = simulate_text(scenario("", "direct", "100ms"), "plain_direct.yaml");
  CHECK(plain.events_per_s_per_job / plain_direct.events_per_s_per_job - 1.0 ==
        doctest::Approx(0.0).epsilon(0.01));
  // On the shared node the wait is not slowed by the sibling, so even if every piece of work ran at 0.625
  // an event would take 0.9 / 0.625 + 0.1 = 1.54 s against 1.6 s: a gain of 3.9 %. A thread that starts its
  // work while another waits runs faster than 0.625: the gain is above that. Every piece at full speed
  // would give 1.0 s per event, +60 %: the bound above.
  const RunSummary shared = simulate_text(scenario(vm, "service", "100ms"), "shared.yaml");
  const RunSummary shared_direct = simulate_text(scenario(vm, "direct", "100ms"), "shared_direct.yaml");
  const double gain = shared.events_per_s_per_job / shared_direct.events_per_s_per_job - 1.0;
  MESSAGE("gain on the shared node: " << gain);
  CHECK(gain > 1.6 / 1.54 - 1.0 + 0.01);
  CHECK(gain < 0.6);
}

// The analytic models take the node's sharing as a mean field (sim/analysis/client_node_sharing.hpp).
// Before they did, they took every thread at a core of its own: 0.9 s of CPU work per event here where the
// run has 1.3-1.5 s, and 0.57 s on the shipped CMS config where its run has 1.00 s. The mean field is within
// 3 % of a low-load run on both (measured: 1.491 against 1.487 s and 1.001 against 1.004 s, 0.3 % each); 3 %
// is the documented gap (docs/model.md, "Client nodes"), above the runs' own +-1 % (95 %, 3,000 events or
// more).
TEST_CASE("the analytic event time on a shared client node agrees with a low-load run") {
  const auto check = [](const sonicsim::Scenario& scenario, const RunSummary& run) {
    const auto parameters = sonicsim::analysis::derive_parameters(scenario);
    const auto mva = sonicsim::analysis::analytic_curve(parameters, {scenario.workload.jobs}).front();
    MESSAGE(scenario.name << ": MVA event " << mva.mva_event_s << " s, run " << run.event.mean_s << " s");
    CHECK(mva.mva_event_s == doctest::Approx(run.event.mean_s).epsilon(0.03));
  };
  const std::string text = scenario(vm, "service", "100ms");
  check(sonicsim::load_scenario_text(text, "shared.yaml", {}), simulate_text(text, "shared.yaml"));
  const std::vector<std::string> low_load{"workload.jobs=10"};
  check(sonicsim::load_scenario_file(sonicsim::testing::config_path("cms_miniaod_2024_one_model_per_t4.yaml"),
                                     low_load),
        sonicsim::testing::simulate("cms_miniaod_2024_one_model_per_t4.yaml", low_load));
}
