#include "sim/policy/load_metrics.hpp"

#include <algorithm>
#include <stdexcept>

namespace sonicsim {
namespace {

using M = LoadMetric;

const std::vector<LoadMetricSpec> table{
    {M::queue_time_per_batch,
     "sum(rate(nv_inference_queue_duration_us)) / sum(rate(nv_inference_exec_count)) (or, aggregation "
     "sum_of_ratios, the sum of each pod's ratio): Triton's queue time per executed batch"},
    {M::device_utilisation, "busy device-seconds / (devices per pod x scraped pods x window), at most 1"},
    {M::queue_length, "requests waiting now, per scraped pod"},
    {M::pods_needed,
     "L_proxy x max(R, 1) / max(L_service, R, 1), R the scraped pods, L_proxy and L_service the requests in "
     "flight at the proxy and in Triton's compute, each the rate of its time counter over the window "
     "(Little's law): SuperSONIC's default metric on its main branch (_scaling-metric.tpl)"},
};

} // namespace

const std::vector<LoadMetricSpec>& load_metric_table() {
  return table;
}

const LoadMetricSpec& load_metric_spec(LoadMetric metric) {
  for (const auto& spec : table)
    if (spec.metric == metric) return spec;
  throw std::logic_error("load metric missing from the table");
}

double load_metric(LoadMetric metric, MetricAggregation aggregation, const std::vector<PodWindow>& pods,
                   int devices_per_pod, double interval_s) {
  double queue_wait_s = 0.0, busy_s = 0.0, sum_of_ratios_s = 0.0, request_s = 0.0, service_s = 0.0;
  std::uint64_t batches = 0;
  int queued = 0;
  for (const auto& [before, now] : pods) {
    const double pod_wait_s = now.queue_wait_s - before.queue_wait_s;
    const std::uint64_t pod_batches = now.batches - before.batches;
    queue_wait_s += pod_wait_s;
    batches += pod_batches;
    // Purdue's form: each series' own ratio, a series without executions reading 0 (its + 0.001).
    if (pod_batches > 0) sum_of_ratios_s += pod_wait_s / static_cast<double>(pod_batches);
    busy_s += now.device_busy_s - before.device_busy_s;
    request_s += now.request_time_s - before.request_time_s;
    service_s += now.service_time_s - before.service_time_s;
    queued += now.queued;
  }
  const double reporting = static_cast<double>(pods.size());
  switch (metric) {
  case M::device_utilisation: {
    const double capacity_s = reporting * devices_per_pod * interval_s;
    return capacity_s > 0 ? std::min(1.0, busy_s / capacity_s) : 0.0;
  }
  case M::queue_length:
    return reporting > 0 ? queued / reporting : 0.0;
  case M::pods_needed: {
    // The chart's floors: a healthy pod always executes at least one request, so an underused group reads
    // below 1 per pod and can scale down; and the division stays finite at no pods.
    if (interval_s <= 0) return 0.0;
    const double in_flight = request_s / interval_s, in_service = service_s / interval_s;
    return in_flight * std::max(reporting, 1.0) / std::max({in_service, reporting, 1.0});
  }
  case M::queue_time_per_batch:
    break;
  }
  if (aggregation == MetricAggregation::sum_of_ratios) return sum_of_ratios_s;
  // SuperSONIC's query divides by (batches + 0.001): no batches reads as 0.
  return batches > 0 ? queue_wait_s / static_cast<double>(batches) : 0.0;
}

} // namespace sonicsim
