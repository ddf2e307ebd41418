#include "sim/metrics/run_figures.hpp"

#include <algorithm>

namespace sonicsim {

double gpu_seconds_per_event(const RunSummary& summary, double inferences_per_event) {
  if (summary.inferences_per_s <= 0.0) return 0.0;
  return summary.gpu_utilisation * summary.gpus / summary.inferences_per_s * inferences_per_event;
}

double cpu_gpu_ratio(double unsaturated_event_s, double gpu_s_per_event) {
  return gpu_s_per_event > 0.0 ? unsaturated_event_s / gpu_s_per_event : 0.0;
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

std::optional<CostPerEvent> cost_per_event(const Scenario& scenario, double events_per_s) {
  if (!missing_prices(scenario).empty() || !(events_per_s > 0.0)) return std::nullopt;
  CostPerEvent cost;
  double device_usd_per_hour = 0.0;
  for (const auto& group : scenario.platform.server_groups) {
    if (group.devices() == 0) continue;
    cost.device_hours += group.devices() / (events_per_s * 3600.0);
    device_usd_per_hour += group.devices() * scenario.costs->device_hour_usd.at(group.device_type);
  }
  cost.cpu_hours = scenario.workload.jobs / (events_per_s * 3600.0);
  cost.usd = (device_usd_per_hour + scenario.workload.jobs * *scenario.costs->cpu_hour_usd) /
             (events_per_s * 3600.0);
  return cost;
}

} // namespace sonicsim
