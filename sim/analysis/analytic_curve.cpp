#include "sim/analysis/analytic_curve.hpp"

#include <algorithm>
#include <stdexcept>

namespace sonicsim::analysis {

std::vector<AnalyticPoint> analytic_curve(const ScenarioParameters& parameters,
                                          const std::vector<int>& jobs) {
  std::vector<AnalyticPoint> points;
  if (jobs.empty()) return points;
  // Every thread of a job is a customer of the closed network.
  const int threads = parameters.threads;
  const int max_jobs = *std::max_element(jobs.begin(), jobs.end());
  if (*std::min_element(jobs.begin(), jobs.end()) < 1) throw std::invalid_argument("job counts must be >= 1");
  const auto model = parameters.latency_model();
  const auto solution = models::solve_mva(parameters.closed_network(), max_jobs * threads);
  for (const int job_count : jobs) {
    const int n = job_count * threads;
    AnalyticPoint point;
    point.jobs = job_count;
    point.sonic_module_s = model.t_module_s(n);
    point.sonic_event_s = model.t_sonic_s(n);
    point.saturated = model.saturated(n);
    const auto& population = solution.at(n);
    point.mva_event_s = population.cycle_time_s;
    point.mva_module_s = population.cycle_time_s - parameters.t_other_cpu_s;
    point.mva_events_per_s = population.throughput_per_s;
    // The busiest device pool (the server stations come first in the closed network, in this order).
    point.mva_gpu_utilisation = 0.0;
    for (const auto& station : parameters.server_stations)
      if (station.kind == ScenarioParameters::ServerStation::Kind::devices)
        point.mva_gpu_utilisation = std::max(
            point.mva_gpu_utilisation, population.throughput_per_s * station.device_busy_s / station.devices);
    points.push_back(point);
  }
  return points;
}

} // namespace sonicsim::analysis
