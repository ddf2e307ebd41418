#include "sim/planning/capacity_analysis.hpp"

#include "sim/analysis/analytic_curve.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace sonicsim::planning {
namespace {} // namespace

const ResourceLimit& LayoutAnalysis::network_limit() const {
  for (const auto& limit : limits)
    if (limit.network) return limit;
  throw std::logic_error("no network resource in the analysis");
}

LayoutAnalysis analyse_layout(const Scenario& scenario, const PodLayout& layout) {
  const Scenario s = with_layout(scenario, layout);
  const auto parameters = analysis::derive_parameters(s);
  const auto model = parameters.latency_model();
  LayoutAnalysis out;
  out.layout = layout;
  out.t_ideal_s = model.t_ideal_s();
  out.t_gpu_s = parameters.t_gpu_s;
  out.module_low_load_s = model.t_module_s(1.0);
  out.ratio = model.optimal_cpu_per_gpu();
  // The model counts CPU processes (threads with an event in flight); the plan speaks of jobs.
  out.threads = parameters.threads;
  out.job_traffic_bps = out.threads * parameters.input_bytes * 8.0 / out.t_ideal_s;
  out.planned_group = planned_group_index(s);
  out.limits.push_back(ResourceLimit{"GPU pool",
                                     std::to_string(layout.gpus()) + " x " + planned_group(s).device_type +
                                         " in " + std::to_string(layout.pods) + " pod(s)",
                                     model.knee_jobs() / out.threads, false, ResourceKind::device_pool,
                                     out.planned_group});
  for (const auto& link : parameters.outbound_links)
    out.limits.push_back(ResourceLimit{link.resource, link.capacity,
                                       parameters.jobs_filling(link, out.t_ideal_s) / out.threads, true,
                                       link.kind, link.group});
  // A Triton instance held for input handling as well as execution fills before its device does: the
  // queueing network's instance station, at its asymptotic bound (as station_limits gives it).
  for (const auto& limit : station_limits(s))
    if (limit.kind == ResourceKind::instances) out.limits.push_back(limit);
  std::stable_sort(out.limits.begin(), out.limits.end(), [](const ResourceLimit& a, const ResourceLimit& b) {
    return a.jobs_at_saturation < b.jobs_at_saturation;
  });
  return out;
}

std::vector<ResourceLimit> station_limits(const Scenario& scenario) {
  const auto parameters = analysis::derive_parameters(scenario);
  const auto network = parameters.closed_network();
  const double cycle_s = network.total_demand_s() + network.think_time_s;
  const double threads = parameters.threads;
  const auto resources = parameters.closed_network_resources();
  std::vector<ResourceLimit> out;
  for (std::size_t k = 0; k < network.stations.size(); ++k) {
    const auto& station = network.stations[k];
    if (!(station.demand_s > 0.0)) continue;
    const auto& [kind, group] = resources[k];
    const char* unit = kind == ResourceKind::host_cores    ? " cores"
                       : kind == ResourceKind::pod_nics    ? (station.servers == 1 ? " NIC" : " NICs")
                       : kind == ResourceKind::device_pool ? " devices"
                       : kind == ResourceKind::instances   ? " instances"
                                                           : " link";
    const bool network_link = kind != ResourceKind::device_pool && kind != ResourceKind::host_cores &&
                              kind != ResourceKind::instances;
    out.push_back(ResourceLimit{station.name, std::to_string(station.servers) + unit,
                                cycle_s * station.servers / station.demand_s / threads, network_link, kind,
                                group});
  }
  for (const auto& link : parameters.outbound_links)
    if (link.kind == ResourceKind::wan)
      out.push_back(ResourceLimit{link.resource, link.capacity,
                                  parameters.jobs_filling(link, cycle_s) / threads, true, link.kind,
                                  std::nullopt});
  std::stable_sort(out.begin(), out.end(), [](const ResourceLimit& a, const ResourceLimit& b) {
    return a.jobs_at_saturation < b.jobs_at_saturation;
  });
  return out;
}

double mva_module_s(const Scenario& scenario, const PodLayout& layout, int jobs) {
  const auto parameters = analysis::derive_parameters(with_layout(scenario, layout));
  return analysis::analytic_curve(parameters, {std::max(1, jobs)}).front().mva_module_s;
}

int pods_for_network(const LayoutAnalysis& analysis, int jobs, double threshold) {
  // The planned group's pod NICs: those the layout's pods add.
  for (const auto& limit : analysis.limits)
    if (limit.kind == ResourceKind::pod_nics && limit.group == analysis.planned_group) {
      const double jobs_per_pod = limit.jobs_at_saturation / analysis.layout.pods * threshold;
      if (!(jobs_per_pod > 0.0)) return std::numeric_limits<int>::max();
      return std::max(1, static_cast<int>(std::ceil(jobs / jobs_per_pod)));
    }
  return 1;
}

const ResourceLimit& fixed_network_limit(const LayoutAnalysis& analysis) {
  for (const auto& limit : analysis.limits)
    if (limit.network && limit.kind != ResourceKind::pod_nics) return limit;
  throw std::logic_error("no fixed network resource in the analysis");
}

} // namespace sonicsim::planning
