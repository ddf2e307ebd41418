#include "sim/planning/run_figures.hpp"

#include <algorithm>

namespace sonicsim::planning {

double accelerated_module_s(const RunSummary& summary, const std::vector<std::string>& modules) {
  double total_s = 0.0;
  for (const auto& [name, statistics] : summary.modules)
    if (std::find(modules.begin(), modules.end(), name) != modules.end()) total_s += statistics.mean_s;
  return total_s;
}

double gpu_seconds_per_event(const RunSummary& summary, double inferences_per_event) {
  if (summary.inferences_per_s <= 0.0) return 0.0;
  return summary.gpu_utilisation * summary.gpus / summary.inferences_per_s * inferences_per_event;
}

double cpu_gpu_ratio(double unsaturated_event_s, double gpu_s_per_event) {
  return gpu_s_per_event > 0.0 ? unsaturated_event_s / gpu_s_per_event : 0.0;
}

std::vector<std::string> missing_prices(const Scenario& scenario) {
  std::vector<std::string> missing;
  if (!scenario.costs || !scenario.costs->gpu_hour_usd) missing.push_back("costs.gpu_hour");
  if (!scenario.costs || !scenario.costs->cpu_hour_usd) missing.push_back("costs.cpu_hour");
  return missing;
}

std::optional<CostPerEvent> cost_per_event(const Scenario& scenario, int gpus, int jobs,
                                           double events_per_s) {
  if (!missing_prices(scenario).empty() || events_per_s <= 0.0) return std::nullopt;
  CostPerEvent cost;
  cost.gpu_hours = gpus / (events_per_s * 3600.0);
  cost.cpu_hours = jobs / (events_per_s * 3600.0);
  cost.usd = cost.gpu_hours * *scenario.costs->gpu_hour_usd + cost.cpu_hours * *scenario.costs->cpu_hour_usd;
  return cost;
}

} // namespace sonicsim::planning
