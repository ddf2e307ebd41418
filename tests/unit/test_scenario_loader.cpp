// A full scenario text parses into the expected typed values (in SI units), and omitted keys take the
// defaults documented in scenario.hpp and docs/scenario_reference.md.
#include <doctest/doctest.h>

#include "sim/scenario/scenario_loader.hpp"

using namespace sonicsim;

namespace {

// Every key of the schema is written, each with a value that differs from its default, so that a key the
// loader forgot to read shows up as a default value below.
const char* const full_scenario = R"(
name: full
description: "every key"
seed: 42
platform:
  jobs_per_node: 2
  nic_mix:
    - {bandwidth: "10Gbps", fraction: 0.64}
    - {bandwidth: "1Gbps", fraction: 0.36}
  cpu_mix:
    - {name: fast, fraction: 0.25, speed: 1.5}
    - {name: slow, fraction: 0.75, speed: 0.8}
  site_switch: {bandwidth: "40Gbps", background: "5Gbps"}
  wan: {rtt: "20ms", bandwidth: "100Gb/s"}
  server_groups:
    v100s: {pods: 4, devices: {type: V100, count: 2}, host_cores: 8, nic_bandwidth: "32Gbps"}
    cpus: {pods: 2, devices: {count: 0}, host_cores: 64, nic_bandwidth: "10Gbps"}
  network: {tcp_window: "4MiB", small_reply_max: "16kB"}
models:
  emtrkmichelid:
    input_bytes_per_inference: "9216B"
    output_bytes_per_inference: "16B"
    throughput:
      T4:
        points: [[1, 600], [64, 9000], [16384, 32000]]
      V100:
        points: [[1, 900], [1024, 50000]]
        overhead: "2ms"
      CPU:
        points: [[1, 50], [64, 400]]
    triton:
      max_batch_size: 1024
      instance_group: [{count: 2, kind: GPU, gpus: [1]}, {count: 3, kind: CPU}]
      dynamic_batching:
        enabled: true
        preferred_batch_size: [256, 512]
        max_queue_delay: "100us"
        default_queue_policy: {max_queue_size: 50, timeout: "5s"}
    deploy: {groups: [v100s], load_balancer: least_connections}
    compute_input: {per_request: "50us", per_byte: "0.25ns"}
    compute_output: {per_request: "20us", per_byte: "1ns"}
workload:
  jobs: 300
  events_per_job: 10
  warmup_events: 2
  start_spread: "2min"
  client: {retries: 5, retry_backoff: "500ms", mode: async, max_in_flight: 4}
  pipeline:
    - {name: non_ml, type: cpu, duration: {dist: lognormal, mean: "110s", sd: "20s"}}
    - name: EmTrkMichelId
      type: remote_inference
      model: emtrkmichelid
      preprocess: {dist: uniform, min: "5s", max: "9s"}
      inferences: {dist: normal, mean: 55000, sd: 5500}
      groups: 3
      group_spread: 0.5
      max_batch: 1000
    - {name: local, type: local_inference, preprocess: "7s", inferences: 55000, time_per_inference: "3.873ms"}
    - {name: tail, type: cpu, duration: {dist: exponential, mean: "1s"}}
output:
  timeseries_interval: "30s"
)";

} // namespace

TEST_CASE("scenario loader: a full scenario text parses into SI values") {
  const Scenario s = load_scenario_text(full_scenario, "full.yaml");
  CHECK(s.name == "full");
  CHECK(s.description == "every key");
  CHECK(s.source_file == "full.yaml");
  CHECK(s.seed == 42);

  const Platform& p = s.platform;
  CHECK(p.jobs_per_node == 2);
  REQUIRE(p.nic_mix.size() == 2);
  CHECK(p.nic_mix[0].bandwidth_bps == 10e9);
  CHECK(p.nic_mix[0].fraction == 0.64);
  CHECK(p.nic_mix[1].bandwidth_bps == 1e9);
  REQUIRE(p.cpu_mix.size() == 2);
  CHECK(p.cpu_mix[0].name == "fast");
  CHECK(p.cpu_mix[0].speed == 1.5);
  CHECK(p.cpu_mix[1].fraction == 0.75);
  CHECK(p.site_switch.bandwidth_bps == 40e9);
  CHECK(p.site_switch.background.rate_bps == 5e9);
  CHECK(p.wan.rtt_s == doctest::Approx(0.020));
  CHECK(p.wan.bandwidth_bps == 100e9);
  REQUIRE(p.server_groups.size() == 2);
  CHECK(p.server_groups[0].name == "v100s"); // in the order written
  CHECK(p.server_groups[0].pods == 4);
  CHECK(p.server_groups[0].devices_per_pod == 2);
  CHECK(p.server_groups[0].device_type == "V100");
  CHECK(p.server_groups[0].host_cores == 8);
  CHECK(p.server_groups[0].nic_bandwidth_bps == 32e9);
  CHECK(p.server_groups[1].name == "cpus");
  CHECK(p.server_groups[1].devices_per_pod == 0);
  CHECK(p.server_groups[1].host_cores == 64);
  CHECK(p.network.tcp_window_bytes == 4.0 * 1024 * 1024);
  CHECK(p.network.small_reply_max_bytes == 16e3);

  REQUIRE(s.models.count("emtrkmichelid") == 1);
  const Model& m = s.models.at("emtrkmichelid");
  CHECK(m.name == "emtrkmichelid");
  CHECK(m.input_bytes_per_inference == 9216.0);
  CHECK(m.output_bytes_per_inference == 16.0);
  REQUIRE(m.throughput_by_device.size() == 3);
  const ThroughputCurve& t4 = m.throughput_by_device.at("T4");
  REQUIRE(t4.points().size() == 3);
  CHECK(t4.points()[1] == std::pair<double, double>(64, 9000));
  CHECK(t4.overhead_s() == 0.0);
  CHECK(m.throughput_by_device.at("V100").overhead_s() == doctest::Approx(0.002));
  CHECK(m.triton.max_batch_size == 1024);
  REQUIRE(m.triton.instance_groups.size() == 2);
  CHECK(m.triton.instance_groups[0].count == 2);
  CHECK(m.triton.instance_groups[0].kind == InstanceGroup::Kind::gpu);
  CHECK(m.triton.instance_groups[0].devices == std::vector<int>{1});
  CHECK(m.triton.instance_groups[1].count == 3);
  CHECK(m.triton.instance_groups[1].kind == InstanceGroup::Kind::cpu);
  CHECK(m.deploy.groups == std::vector<std::string>{"v100s"});
  CHECK(m.deploy.load_balancer == LoadBalancer::least_connections);
  CHECK(m.compute_input.per_request_s == doctest::Approx(50e-6));
  CHECK(m.compute_input.per_byte_s == doctest::Approx(0.25e-9));
  CHECK(m.compute_output.per_request_s == doctest::Approx(20e-6));
  CHECK(m.compute_output.per_byte_s == doctest::Approx(1e-9));
  CHECK(m.triton.dynamic_batching.enabled);
  CHECK(m.triton.dynamic_batching.preferred_batch_sizes == std::vector<int>{256, 512});
  CHECK(m.triton.dynamic_batching.max_queue_delay_s == doctest::Approx(1e-4));
  CHECK(m.triton.dynamic_batching.queue_policy.max_queue_size == 50);
  CHECK(m.triton.dynamic_batching.queue_policy.timeout_s == 5.0);

  const Workload& w = s.workload;
  CHECK(w.jobs == 300);
  CHECK(w.events_per_job == 10);
  CHECK(w.warmup_events == 2);
  CHECK(w.start_spread_s == 120.0);
  CHECK(w.client.retries == 5);
  CHECK(w.client.retry_backoff_s == 0.5);
  CHECK(w.client.asynchronous);
  CHECK(w.client.max_in_flight == 4);
  REQUIRE(w.pipeline.size() == 4);

  const Module& cpu = w.pipeline[0];
  CHECK(cpu.name == "non_ml");
  CHECK(cpu.type == Module::Type::cpu);
  CHECK(cpu.duration_s.kind == DistributionSpec::Kind::lognormal);
  CHECK(cpu.duration_s.mean == 110.0);
  CHECK(cpu.duration_s.sd == 20.0);

  const Module& remote = w.pipeline[1];
  CHECK(remote.type == Module::Type::remote_inference);
  CHECK(remote.model == "emtrkmichelid");
  CHECK(remote.preprocess_s.kind == DistributionSpec::Kind::uniform);
  CHECK(remote.preprocess_s.min == 5.0);
  CHECK(remote.preprocess_s.max == 9.0);
  CHECK(remote.preprocess_s.expected() == 7.0); // (5 + 9) / 2
  CHECK(remote.inferences.kind == DistributionSpec::Kind::normal);
  CHECK(remote.inferences.mean == 55000.0);
  CHECK(remote.inferences.sd == 5500.0);
  CHECK(remote.groups == 3);
  CHECK(remote.group_spread == 0.5);
  CHECK(remote.max_batch == 1000);

  const Module& local = w.pipeline[2];
  CHECK(local.type == Module::Type::local_inference);
  CHECK(local.preprocess_s.kind == DistributionSpec::Kind::constant);
  CHECK(local.preprocess_s.mean == 7.0);
  CHECK(local.inferences.mean == 55000.0);
  CHECK(local.local_time_per_inference_s == doctest::Approx(0.003873));

  CHECK(w.pipeline[3].duration_s.kind == DistributionSpec::Kind::exponential);
  CHECK(w.pipeline[3].duration_s.mean == 1.0);
  CHECK(s.output.timeseries_interval_s == 30.0);
}

TEST_CASE("scenario loader: a minimal file takes every documented default") {
  const std::string path = std::string(SONICSIM_TEST_DATA_DIR) + "/scenario_minimal.yaml";
  const Scenario s = load_scenario_file(path);
  CHECK(s.name == "scenario_minimal"); // the file name without extension
  CHECK(s.source_file == path);
  CHECK(s.description.empty());
  CHECK(s.seed == 1);
  CHECK(s.platform.jobs_per_node == 1);
  REQUIRE(s.platform.nic_mix.size() == 1);
  CHECK(s.platform.nic_mix[0].bandwidth_bps == 10e9);
  REQUIRE(s.platform.cpu_mix.size() == 1);
  CHECK(s.platform.cpu_mix[0].speed == 1.0);
  CHECK(s.platform.site_switch.bandwidth_bps == 100e9);
  CHECK(s.platform.site_switch.background.rate_bps == 0.0);
  CHECK(s.platform.wan.rtt_s == 0.012);
  CHECK(s.platform.wan.bandwidth_bps == 400e9);
  // No server_groups: one group "default" of one pod with one T4, 16 host cores, a 16 Gb/s NIC.
  REQUIRE(s.platform.server_groups.size() == 1);
  CHECK(s.platform.server_groups[0].name == "default");
  CHECK(s.platform.server_groups[0].pods == 1);
  CHECK(s.platform.server_groups[0].devices_per_pod == 1);
  CHECK(s.platform.server_groups[0].device_type == "T4");
  CHECK(s.platform.server_groups[0].host_cores == 16);
  CHECK(s.platform.server_groups[0].nic_bandwidth_bps == 16e9);
  CHECK(s.platform.network.tcp_window_bytes == 3e6);
  CHECK(s.platform.network.small_reply_max_bytes == 65536.0);
  CHECK(s.models.empty());
  CHECK(s.workload.jobs == 2);
  CHECK(s.workload.events_per_job == 1);
  CHECK(s.workload.warmup_events == 0);
  CHECK(s.workload.start_spread_s == 0.0);
  CHECK(s.workload.client.retries == 3);
  CHECK(s.workload.client.retry_backoff_s == 1.0);
  CHECK_FALSE(s.workload.client.asynchronous);
  CHECK(s.workload.client.max_in_flight == 1);
  REQUIRE(s.workload.pipeline.size() == 1);
  CHECK(s.workload.pipeline[0].duration_s.mean == 30.0);
  CHECK(s.output.timeseries_interval_s == 60.0);
}

TEST_CASE("scenario loader: queue policy zeros mean unlimited, and an empty preferred list means none") {
  const Scenario s = load_default_scenario();
  const Model& m = s.models.at("emtrkmichelid");
  CHECK_FALSE(m.triton.dynamic_batching.queue_policy.max_queue_size.has_value());
  CHECK_FALSE(m.triton.dynamic_batching.queue_policy.timeout_s.has_value());
  CHECK(m.triton.dynamic_batching.preferred_batch_sizes.empty());
  CHECK(s.source_file == "<embedded default>");
}

TEST_CASE("scenario loader: a curve's scale multiplies its throughputs, within 0.01..100, at its line") {
  // The full scenario's V100 curve with its throughputs times 1.25 (a production server 25 % faster than the
  // benchmark): each point's throughput 1.25 x, the overhead as written.
  std::string text = full_scenario;
  const std::string overhead = "        overhead: \"2ms\"\n";
  REQUIRE(text.find(overhead) != std::string::npos);
  const Scenario plain = load_scenario_text(text, "plain.yaml");
  text.insert(text.find(overhead), "        scale: 1.25\n");
  const Scenario scaled = load_scenario_text(text, "scaled.yaml");
  const auto& before = plain.models.at("emtrkmichelid").throughput_by_device.at("V100");
  const auto& after = scaled.models.at("emtrkmichelid").throughput_by_device.at("V100");
  REQUIRE(before.points().size() == after.points().size());
  for (std::size_t i = 0; i < before.points().size(); ++i) {
    CHECK(after.points()[i].first == before.points()[i].first);
    CHECK(after.points()[i].second == doctest::Approx(1.25 * before.points()[i].second));
  }
  CHECK(after.overhead_s() == before.overhead_s());
  auto bad = text;
  bad.replace(bad.find("scale: 1.25"), 11, "scale: 0   ");
  CHECK_THROWS_WITH_AS(load_scenario_text(bad, "bad.yaml"), doctest::Contains("scale"), ScenarioError);
  CHECK_THROWS_WITH_AS(load_scenario_text(bad, "bad.yaml"), doctest::Contains("between 0.01 and 100"),
                       ScenarioError);
}
