#include "sim/metrics/run_figures.hpp"

#include "sim/metrics/number_text.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace sonicsim {

double gpu_seconds_per_event(const RunSummary& summary, double inferences_per_event) {
  if (summary.inferences_per_s <= 0.0) return 0.0;
  return summary.gpu_utilisation * summary.gpus / summary.inferences_per_s * inferences_per_event;
}

std::optional<double> cpu_gpu_ratio(std::optional<double> unsaturated_event_s,
                                    std::optional<double> gpu_s_per_event) {
  if (!unsaturated_event_s || !gpu_s_per_event || !(*gpu_s_per_event > 0.0)) return std::nullopt;
  return *unsaturated_event_s / *gpu_s_per_event;
}

std::vector<std::string> missing_prices(const Scenario& scenario) {
  std::vector<std::string> missing;
  for (const auto& group : scenario.platform.server_groups) {
    if (group.devices() == 0) continue; // CPU-only servers: their cores are not priced (job slots are)
    const std::string key = "costs.device_hour." + group.device_type;
    if ((!scenario.costs || !scenario.costs->device_hour_usd.count(group.device_type)) &&
        std::find(missing.begin(), missing.end(), key) == missing.end())
      missing.push_back(key);
  }
  if (!scenario.costs || !scenario.costs->cpu_hour_usd) missing.push_back("costs.cpu_hour");
  return missing;
}

std::optional<CostBill> cost_bill(const Scenario& scenario, double events_per_s,
                                  const OperationsSummary* operations, const CampaignSummary* campaign) {
  if (!missing_prices(scenario).empty() || !(events_per_s > 0.0)) return std::nullopt;
  const Costs& costs = *scenario.costs;
  CostBill bill;
  bill.events_per_s = events_per_s;
  const double hours_per_event = 1.0 / (events_per_s * 3600.0);
  const auto add = [&](const std::string& item, const std::string& key, double count, double each,
                       const std::string& held) {
    BillItem line{item, key, count, each, count * each, count * each * hours_per_event, held};
    bill.usd_per_hour += line.usd_per_hour;
    bill.items.push_back(line);
  };
  // Devices by type, in the order the groups first use them.
  std::map<std::string, double> devices;
  std::vector<std::string> types;
  double pods = 0;
  bool pooled = false;
  for (const auto& group : scenario.platform.server_groups) {
    if (group.on_client_nodes) continue; // its pods are the client nodes: their cores are billed below
    double held = group.pods;
    if (operations)
      for (const auto& pool : operations->pools)
        if (pool.group == group.name) {
          held = pool.mean_held_pods;
          pooled = true;
        }
    pods += held;
    if (group.devices() == 0) continue;
    if (!devices.count(group.device_type)) types.push_back(group.device_type);
    devices[group.device_type] += held * group.devices_per_pod;
  }
  for (const auto& type : types) {
    add(type + " devices", "costs.device_hour." + type, devices[type], costs.device_hour_usd.at(type),
        pooled ? "pods held, mean over the run" : "all run");
    bill.device_hours_per_event += devices[type] * hours_per_event;
  }
  if (costs.pod_hour_usd)
    add("server pods' hosts", "costs.pod_hour", pods, *costs.pod_hour_usd,
        pooled ? "pods held, mean over the run" : "all run");
  else if (pods > 0)
    bill.unpriced.push_back(
        (pods == std::floor(pods) ? std::to_string(static_cast<long>(pods)) : significant(pods, 3)) +
        " server pods' hosts (no costs.pod_hour)");
  // A campaign's slots come and go: its running jobs over the window, at the simulated scale (the scale of
  // events_per_s), not the peak it may reach.
  const double jobs =
      campaign ? campaign->mean_running_jobs * campaign->scale : static_cast<double>(scenario.workload.jobs);
  const double cores = jobs * scenario.workload.threads;
  add("job CPU cores", "costs.cpu_hour", cores, *costs.cpu_hour_usd,
      campaign ? "running jobs, mean over the window" : "all run");
  double fallback_cores = 0.0;
  for (const auto& group : scenario.platform.server_groups)
    if (group.on_client_nodes) fallback_cores += static_cast<double>(group.pods) * group.host_cores;
  if (fallback_cores > 0.0)
    add("fallback server cores on the client nodes", "costs.cpu_hour", fallback_cores, *costs.cpu_hour_usd,
        "reserved all run");
  bill.cpu_core_hours_per_event = (cores + fallback_cores) * hours_per_event;
  bill.usd_per_event = bill.usd_per_hour * hours_per_event;
  return bill;
}

std::optional<CostBill> cost_bill(const Scenario& scenario, const RunSummary& summary) {
  return cost_bill(scenario, summary.events_per_s, summary.operations ? &*summary.operations : nullptr,
                   summary.campaign ? &*summary.campaign : nullptr);
}

} // namespace sonicsim
