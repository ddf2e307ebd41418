// Exact MVA against the simulator on a network where MVA is exact: exponential think and service times.
//
// The scenario makes the simulator a product-form closed network:
// - think time: one cpu module with an exponential duration (mean 10 s); a delay station is insensitive to
// the
//   distribution anyway;
// - GPU service: a GPU batch takes batch / throughput(batch), deterministic for a given batch. Service per
// event
//   is made exponential by sending each event's inferences as one request (one group, max_batch larger than
//   any draw) with an exponential inference count (mean 1,000) on a flat throughput curve (1,000/s at every
//   batch): service = count / 1,000 s, exponential with mean 1 s (up to rounding the count to an integer);
// - two GPUs in one pod, one Triton queue, no dynamic batching: an FCFS 2-server station (M/M/2 in the closed
//   network), which load-dependent MVA solves exactly; one pod, so no random pod assignment;
// - network: 4 bytes per inference and a 0.1 ms RTT, microseconds per event, negligible.
// Knee: N_GPU (Z + D) / D = 2 x 11 / 1 = 22 jobs; the checks cover 1x to 2x the knee (22, 33, 44 jobs) and
// half.
#include "simulate.hpp"

#include "sim/sweep/sweep_csv.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

namespace {

constexpr const char* exponential_network_yaml = R"(name: mva_exponential
description: closed network with exponential think and service times (test of MVA against the simulator)
seed: 7
platform:
  jobs_per_node: 1
  nic_mix: [{bandwidth: "10Gbps", fraction: 1.0}]
  cpu_mix: [{name: reference, fraction: 1.0, speed: 1.0}]
  site_switch: {bandwidth: "100Gbps", background: "0Gbps"}
  wan: {rtt: "0.1ms", bandwidth: "400Gbps"}
  server_groups: {pair: {pods: 1, devices: {type: T4, count: 2}, nic_bandwidth: "16Gbps"}}
  network: {tcp_window: "3MB"}
models:
  flat:
    input_bytes_per_inference: "4B"
    output_bytes_per_inference: "4B"
    throughput:
      T4: {points: [[1, 1000], [1000000, 1000]], overhead: "0ms"}
    triton: {max_batch_size: 1000000, instance_group: [{count: 1, kind: GPU}]}
workload:
  jobs: 22
  events_per_job: 4000
  warmup_events: 50
  start_spread: "0s"
  pipeline:
    - {name: think, type: cpu, duration: {dist: exponential, mean: "10s"}}
    - name: infer
      type: remote_inference
      model: flat
      preprocess: "0s"
      inferences: {dist: exponential, mean: 1000}
      groups: 1
      group_spread: 0
      max_batch: 1000000
)";

} // namespace

TEST_CASE("MVA matches the simulator within 3 % with exponential service and think times") {
  const auto dir = std::filesystem::temp_directory_path() / "sonicsim_mva_exponential";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto scenario = dir / "exponential_network.yaml";
  std::ofstream(scenario) << exponential_network_yaml;
  // 4,000 events per job: the standard error of the mean module time near the knee is then ~1 % (the queueing
  // time is strongly autocorrelated); with 300 events it was ~4 %.
  const auto result = sonicsim::testing::run_sonicsim("sweep " + scenario.string() +
                                                      " --vary workload.jobs=11,22,33,44 -j 2 --out " +
                                                      (dir / "sweep").string());
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  const auto table = sonicsim::read_csv_file((dir / "sweep" / "sweep.csv").string());
  REQUIRE(table.rows.size() == 4);
  const auto jobs = table.numbers("jobs");
  const auto event_s = table.numbers("event_mean_s"), mva_event_s = table.numbers("mva_event_s");
  const auto module_s = table.numbers("module_mean_s"), mva_module_s = table.numbers("mva_module_s");
  const auto events_per_s = table.numbers("events_per_s"),
             mva_events_per_s = table.numbers("mva_events_per_s");
  const auto gpu = table.numbers("gpu_utilisation"), mva_gpu = table.numbers("mva_gpu_utilisation");
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    CAPTURE(jobs[i]);
    CHECK(event_s[i] == doctest::Approx(mva_event_s[i]).epsilon(0.03));
    CHECK(module_s[i] == doctest::Approx(mva_module_s[i]).epsilon(0.03));
    CHECK(events_per_s[i] == doctest::Approx(mva_events_per_s[i]).epsilon(0.03));
    CHECK(gpu[i] == doctest::Approx(mva_gpu[i]).epsilon(0.03));
  }
  // The piecewise SONIC model has a corner at the knee where MVA (and the simulator) queue: at the knee (22
  // jobs) the simulated module time is well above the piecewise value, which MVA captures.
  const auto analytic_module_s = table.numbers("analytic_module_s");
  CHECK(module_s[1] > 1.5 * analytic_module_s[1]);
}
