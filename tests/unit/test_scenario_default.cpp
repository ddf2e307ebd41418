// The embedded default scenario (default_scenario.cpp) must stay the same as
// configs/protodune_2020_large_batch.yaml: `sonicsim run` without a file and with that file must simulate the
// same thing. This test compares every field of the two parsed scenarios.
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>

#include "sim/scenario/scenario_loader.hpp"

using namespace sonicsim;

namespace {

std::ostream& operator<<(std::ostream& out, const DistributionSpec& d) {
  return out << "{kind " << static_cast<int>(d.kind) << " mean " << d.mean << " sd " << d.sd << " min "
             << d.min << " max " << d.max << "}";
}

// Every field of a Scenario except source_file, one per line, at full precision.
std::string describe(const Scenario& s) {
  std::ostringstream out;
  out.precision(17);
  out << "name " << s.name << "\ndescription " << s.description << "\nseed " << s.seed << "\n";
  const Platform& p = s.platform;
  out << "jobs_per_node " << p.jobs_per_node << "\n";
  for (const auto& nic : p.nic_mix)
    out << "nic " << nic.bandwidth_bps << " " << nic.fraction << "\n";
  for (const auto& cpu : p.cpu_mix)
    out << "cpu " << cpu.name << " " << cpu.fraction << " " << cpu.speed << "\n";
  out << "switch " << p.site_switch.bandwidth_bps << " " << p.site_switch.background.rate_bps << "\nwan "
      << p.wan.rtt_s << " " << p.wan.bandwidth_bps << "\n";
  for (const auto& g : p.server_groups)
    out << "group " << g.name << " " << g.pods << " " << g.devices_per_pod << " " << g.device_type << " "
        << g.host_cores << " " << g.nic_bandwidth_bps << "\n";
  out << "tcp_window " << p.network.tcp_window_bytes << "\n";
  for (const auto& [name, m] : s.models) {
    out << "model " << name << " " << m.name << " " << m.input_bytes_per_inference << " "
        << m.output_bytes_per_inference << "\n";
    for (const auto& [gpu, curve] : m.throughput_by_device) {
      out << "  curve " << gpu << " overhead " << curve.overhead_s() << ":";
      for (const auto& [batch, rate] : curve.points())
        out << " " << batch << "/" << rate;
      out << "\n";
    }
    const TritonSettings& t = m.triton;
    out << "  deploy " << load_balancer_name(m.deploy.load_balancer);
    for (const auto& g : m.deploy.groups)
      out << " " << g;
    out << "\n  costs " << m.compute_input.per_request_s << " " << m.compute_input.per_byte_s << " "
        << m.compute_output.per_request_s << " " << m.compute_output.per_byte_s << "\n";
    out << "  triton " << t.max_batch_size << " instances";
    for (const auto& i : t.instance_groups) {
      out << " " << i.count << (i.kind == InstanceGroup::Kind::cpu ? "xCPU" : "xGPU");
      for (int d : i.devices)
        out << ":" << d;
    }
    out << " dyn " << t.dynamic_batching.enabled << " " << t.dynamic_batching.max_queue_delay_s << " pref";
    for (int size : t.dynamic_batching.preferred_batch_sizes)
      out << " " << size;
    out << " queue " << t.dynamic_batching.queue_policy.max_queue_size.value_or(-1) << " "
        << t.dynamic_batching.queue_policy.timeout_s.value_or(-1) << "\n";
  }
  const Workload& w = s.workload;
  out << "workload " << w.jobs << " " << w.events_per_job << " " << w.warmup_events << " " << w.start_spread_s
      << "\nclient " << w.client.retries << " " << w.client.retry_backoff_s << " " << w.client.asynchronous
      << " " << w.client.max_in_flight << "\n";
  for (const auto& m : w.pipeline)
    out << "module " << m.name << " " << static_cast<int>(m.type) << " " << m.duration_s << " " << m.model
        << " " << m.preprocess_s << " " << m.inferences << " " << m.groups << " " << m.group_spread << " "
        << m.max_batch << " " << m.local_time_per_inference_s << "\n";
  out << "timeseries_interval " << s.output.timeseries_interval_s << "\n";
  return out.str();
}

} // namespace

TEST_CASE(
    "scenario default: the embedded default parses, and matches configs/protodune_2020_large_batch.yaml") {
  const Scenario embedded = load_default_scenario();
  CHECK(embedded.name == "protodune_2020_large_batch");
  CHECK(embedded.source_file == "<embedded default>");

  const std::filesystem::path config =
      std::filesystem::path(SONICSIM_SOURCE_DIR) / "configs" / "protodune_2020_large_batch.yaml";
  REQUIRE_MESSAGE(
      std::filesystem::exists(config),
      config.string() << " is missing; the embedded default in sim/scenario/default_scenario.cpp is "
                         "its copy");
  const Scenario file = load_scenario_file(config.string());
  // On a mismatch, doctest prints both descriptions: copy the config's YAML into default_scenario.cpp.
  CHECK(describe(embedded) == describe(file));
}

TEST_CASE("scenario default: overrides apply to the embedded default too") {
  const Scenario s = load_default_scenario({"workload.jobs=400", "platform.server_groups.gke_4xt4.pods=8"});
  CHECK(s.workload.jobs == 400);
  CHECK(s.platform.server_groups.front().pods == 8);
  try {
    load_default_scenario({"workload.jobs=0"});
    FAIL("expected a ScenarioError");
  } catch (const ScenarioError& e) {
    CHECK(e.file == "--set workload.jobs=0");
  }
}
