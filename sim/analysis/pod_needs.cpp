#include "sim/analysis/pod_needs.hpp"

#include "sim/analysis/analytic_curve.hpp"
#include "sim/analysis/scenario_parameters.hpp"

#include <algorithm>
#include <cmath>

namespace sonicsim::analysis {
namespace {

// The metric of `point` in the autoscaler's unit; none for one the MVA does not give.
std::optional<double> metric_of(const PodPoint& point, LoadMetric metric) {
  switch (metric) {
  case LoadMetric::queue_time_per_batch:
    return point.queue_wait_per_request_s;
  case LoadMetric::device_utilisation:
    return point.mva_gpu_utilisation;
  case LoadMetric::queue_length:
  case LoadMetric::pods_needed:
    break;
  }
  return std::nullopt;
}

} // namespace

std::optional<PodNeeds> pod_needs(const Scenario& scenario, int jobs) {
  const auto& groups = scenario.platform.server_groups;
  const auto group = std::find_if(groups.begin(), groups.end(), [](const auto& g) { return g.autoscaler; });
  if (group == groups.end()) return std::nullopt;
  PodNeeds needs;
  needs.group = group->name;
  needs.jobs = jobs;
  needs.autoscaler = *group->autoscaler;
  const AutoscalerSettings& a = needs.autoscaler;
  const int last = std::min(a.max_pods, a.min_pods + max_pod_points - 1);
  for (int r = a.min_pods; r <= last; ++r) {
    // The same scenario with r pods, fixed.
    Scenario fixed = scenario;
    for (auto& g : fixed.platform.server_groups)
      if (g.name == group->name) {
        g.pods = r;
        g.autoscaler.reset();
      }
    const ScenarioParameters parameters = derive_parameters(fixed);
    const auto curve = analytic_curve(parameters, {1, jobs});
    PodPoint point;
    point.pods = r;
    point.mva_event_s = curve[1].mva_event_s;
    point.mva_events_per_s = curve[1].mva_events_per_s;
    point.mva_gpu_utilisation = curve[1].mva_gpu_utilisation;
    point.queue_wait_per_request_s =
        parameters.requests > 0
            ? std::max(0.0, curve[1].mva_module_s - curve[0].mva_module_s) / parameters.requests
            : 0.0;
    needs.points.push_back(point);
  }
  for (const auto& point : needs.points) {
    const auto metric = metric_of(point, a.metric);
    if (!metric) {
      needs.note = std::string("the MVA gives no ") +
                   (a.metric == LoadMetric::queue_length ? "queue length per server"
                                                         : "request time at the proxy per service time") +
                   "; use metric queue_time_per_batch or device_utilisation for an analytic answer";
      return needs;
    }
    // What the query reads with this many pods: Purdue's sum of per-server ratios adds every pod's; and the
    // target the HPA compares it with: per pod with AverageValue.
    double reading = *metric;
    if (a.metric == LoadMetric::queue_time_per_batch && a.aggregation == MetricAggregation::sum_of_ratios)
      reading *= point.pods;
    const double target = a.metric_type == MetricType::average_value ? a.threshold * point.pods : a.threshold;
    if (reading <= target * (1.0 + a.tolerance)) {
      needs.needed = point.pods;
      break;
    }
  }
  if (!needs.needed) {
    needs.note = "even " + std::to_string(last) + " pods leave the metric above the threshold at " +
                 std::to_string(jobs) + " jobs";
    return needs;
  }
  const int step = a.scale_up_policy.pods;
  const int steps = (*needs.needed - a.min_pods + step - 1) / step;
  // Each step takes the scale-up policy's period (at least an HPA sync); the first rise waits until the
  // scale-up window holds only high recommendations.
  const double step_s = std::max(a.sync_period_s, a.scale_up_policy.period_s);
  needs.reach_s = steps == 0
                      ? 0.0
                      : steps * step_s + std::ceil(a.scale_up_window_s / a.sync_period_s) * a.sync_period_s +
                            a.startup_delay_s;
  needs.note = "MVA at " + std::to_string(jobs) +
               " jobs; the queue time is the MVA's added module time per request, as Triton's per batch when "
               "batches are single requests";
  return needs;
}

} // namespace sonicsim::analysis
