// Every key of the scenario language is read and echoed in summary.json's resolved scenario: a key the loader
// accepted but the echo forgot would make a run's record incomplete. The schema (the one list of keys) is
// walked and each key path looked up in scenario_to_json of shipped configs that, together, use every key.
#include "sim/metrics/summary_json.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "sim/scenario/schema.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace sonicsim;
using json = nlohmann::ordered_json;

namespace {

// Key paths of the schema, "[]" standing for a list element or a user-chosen dict key.
void collect_paths(const schema::Node& node, std::vector<std::string> prefix,
                   std::vector<std::vector<std::string>>& paths) {
  for (const auto& [key, child] : node.fields) {
    auto path = prefix;
    path.push_back(key);
    paths.push_back(path);
    collect_paths(*child, path, paths);
  }
  if (node.element) {
    prefix.push_back("[]");
    collect_paths(*node.element, prefix, paths);
  }
}

// The echo writes a key as the YAML does, or with its SI unit appended (`rtt` -> `rtt_s`, `tcp_window` ->
// `tcp_window_bytes`, `background` -> `background_bps`).
bool echoed(const json& node, const std::vector<std::string>& path, std::size_t i) {
  if (i == path.size()) return true;
  const std::string& key = path[i];
  if (key == "[]") {
    if (node.is_array() || node.is_object())
      for (const auto& element : node)
        if (echoed(element, path, i + 1)) return true;
    return false;
  }
  if (!node.is_object()) return false;
  for (const auto& [name, value] : node.items())
    if ((name == key || name.rfind(key + "_", 0) == 0) && echoed(value, path, i + 1)) return true;
  return false;
}

std::string config(const std::string& name) {
  return std::string(SONICSIM_SOURCE_DIR) + "/configs/" + name;
}

} // namespace

TEST_CASE("every schema key is echoed in summary.json's resolved scenario") {
  // Between them these use every section: CPU-only (local_inference), the 2020 scenarios (variants, costs),
  // the 2022 campaign (schedules), and overrides for what no shipped config sets.
  std::vector<json> echoes;
  for (const char* name :
       {"protodune_2020_large_batch.yaml", "protodune_2020_cpu_only.yaml", "protodune_2022_campaign.yaml",
        "perf_client_t4.yaml", "cms_miniaod_2024_one_model_per_t4.yaml"})
    echoes.push_back(scenario_to_json(load_scenario_file(config(name))));
  echoes.push_back(scenario_to_json(load_scenario_file(
      config("protodune_2022_campaign.yaml"),
      {"workload.campaign.slots=null", "workload.campaign.slots_repeat=null",
       "workload.campaign.slots_random={min: 0.2, max: 0.5, mean_hold: \"1h\"}",
       "platform.site_switch.background_schedule=[{from: \"0s\", rate: \"1Gbps\"}, {from: \"1h\", rate: "
       "\"2Gbps\"}]",
       "platform.site_switch.background_on_off={rate: \"5Gbps\", mean_on: \"10min\", mean_off: \"20min\"}",
       "models.emtrkmichelid.triton.dynamic_batching.default_queue_policy={max_queue_size: 100, timeout: "
       "\"1s\"}",
       "platform.server_groups.gke_t4.devices.model_switch_time=\"0.5ms\"",
       "platform.server_groups.gke_t4.devices.model_switch_slowdown=0.4",
       "output.stop_beyond={events_per_s: {above: 1e6, below: 1}, event_mean_s: {above: 200, below: 1}, "
       "module_mean_s: {above: 20, below: 0.1}, gpu_utilisation: {above: 0.99, below: 0.01}}",
       "output.precision_figures=[events_per_s, module_mean_s]", "output.stop_at_window_end=true",
       "platform.network.event_calendar=false"})));
  // The operations keys: the SuperSONIC config has the autoscaler and the proxy; failures, a rate limit and
  // the client's reaction by overrides.
  echoes.push_back(scenario_to_json(load_scenario_file(
      config("supersonic_autoscaling.yaml"),
      {"platform.server_groups.triton.failures={schedule: [{at: \"1h\", pod: 0}], mean_time_between: "
       "\"24h\", "
       "restart_delay: \"5min\"}",
       "platform.server_groups.triton.proxy.rate_limit={metric: queue_length, threshold: 10, poll_interval: "
       "\"15s\", refuse: requests}",
       "platform.server_groups.triton.proxy.choice_count=3",
       "platform.server_groups.local={on_client_nodes: true, devices: {count: 0}, host_cores: 1}",
       "platform.node_cores=2", "models.emtrkmichelid.deploy={groups: [triton]}",
       "models.emtrkmichelid.throughput.CPU={points: [[1, 100], [16, 400]]}",
       "workload.client={timeout: \"10s\", retry_on: other, fallback: local}",
       "platform.wan.down=[{from: \"60min\", to: \"70min\"}]",
       "workload.preemption={mean_time: \"100h\", resubmit: false}"})));
  // SuperSONIC's chart semantics: both directions' policies, AverageValue, Purdue's sum of ratios, scrapes;
  // and a group read from a values file.
  echoes.push_back(scenario_to_json(load_scenario_file(
      config("supersonic_autoscaling.yaml"),
      {"platform.server_groups.triton.autoscaler.scale_up_step=2",
       "platform.server_groups.triton.autoscaler.scale_up_period=\"15s\"",
       "platform.server_groups.triton.autoscaler.scale_down_step=1",
       "platform.server_groups.triton.autoscaler.scale_down_period=\"45s\"",
       "platform.server_groups.triton.autoscaler.metric_type=average_value",
       "platform.server_groups.triton.autoscaler.aggregation=sum_of_ratios",
       "platform.server_groups.triton.autoscaler.scrape_interval=\"5s\"",
       "platform.server_groups.triton.autoscaler.scale_to_zero={idle_period: \"120s\", hold_timeout: "
       "\"300s\"}",
       "platform.server_groups.triton.proxy.rate_limit={threshold: \"20ms\", aggregation: sum_of_ratios}"})));
  echoes.push_back(
      scenario_to_json(load_variant_file(config("supersonic_autoscaling.yaml"), {"purdue_values"})));
  // The newer chart: pods needed as an AverageValue, idle at 0 servers (scale_to_zero).
  echoes.push_back(
      scenario_to_json(load_variant_file(config("supersonic_autoscaling.yaml"), {"newer_chart"})));
  std::vector<std::vector<std::string>> paths;
  collect_paths(schema::root(), {}, paths);
  CHECK(paths.size() > 90); // the whole tree was walked
  for (const auto& path : paths) {
    bool found = false;
    for (const auto& echo : echoes)
      found = found || echoed(echo, path, 0);
    std::string dotted;
    for (const auto& part : path)
      dotted += (dotted.empty() || part == "[]" ? "" : ".") + part;
    CHECK_MESSAGE(found, "schema key '" << dotted << "' is not echoed in scenario_to_json");
  }
}
