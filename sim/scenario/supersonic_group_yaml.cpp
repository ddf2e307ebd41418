// The server group's YAML for a SuperSONIC values file (sim/scenario/supersonic_values.hpp): what
// `sonicsim import supersonic` prints, each key with the values key it comes from.
#include "sim/scenario/supersonic_values.hpp"
#include "sim/scenario/supersonic_values_reader.hpp"

#include <cstdio>

namespace sonicsim {

using detail::text_of;

std::string supersonic_group_yaml(const SupersonicValues& values) {
  std::string yaml;
  const auto line = [&yaml](const std::string& text) { yaml += text + "\n"; };
  if (values.devices_per_pod) line("devices: {count: " + std::to_string(*values.devices_per_pod) + "}");
  if (const auto& a = values.autoscaler) {
    line("autoscaler:");
    line("  min: " + std::to_string(a->min_pods) + "                  # keda.minReplicaCount");
    line("  max: " + std::to_string(a->max_pods) + "                  # keda.maxReplicaCount");
    line("  metric: queue_time_per_batch   # serverLoadMetric");
    line(std::string("  aggregation: ") +
         (a->aggregation == MetricAggregation::sum_of_ratios ? "sum_of_ratios" : "ratio_of_sums"));
    line("  threshold: \"" + text_of(a->threshold * 1e3) + "ms\"       # serverLoadThreshold");
    line("  metric_window: \"" + text_of(a->metric_window_s) + "s\"   # the query's rate() window");
    line("  scrape_interval: \"" + text_of(*a->scrape_interval_s) + "s\"  # Prometheus's scrape_interval");
    line("  poll_interval: \"" + text_of(a->poll_interval_s) + "s\"   # KEDA pollingInterval (so.yaml)");
    line("  scale_up_window: \"" + text_of(a->scale_up_window_s) +
         "s\"  # keda.scaleUp.stabilizationWindowSeconds");
    line("  scale_up_period: \"" + text_of(a->scale_up_policy.period_s) +
         "s\"  # keda.scaleUp.periodSeconds");
    line("  scale_up_step: " + std::to_string(a->scale_up_policy.pods) +
         "            # keda.scaleUp.stepsize");
    line("  scale_down_window: \"" + text_of(a->scale_down_window_s) +
         "s\"  # keda.scaleDown.stabilizationWindowSeconds");
    line("  scale_down_period: \"" + text_of(a->scale_down_policy.period_s) +
         "s\"  # keda.scaleDown.periodSeconds");
    line("  scale_down_step: " + std::to_string(a->scale_down_policy.pods) +
         "          # keda.scaleDown.stepsize");
    line("  startup_delay: \"240s\"         # not in the values file: node start + model load (measured "
         "240-300 s)");
    if (const auto& probe = a->readiness_probe)
      line("  readiness_probe: {initial_delay: \"" + text_of(probe->initial_delay_s) + "s\", period: \"" +
           text_of(probe->period_s) + "s\"}  # triton.readinessProbe");
  } else {
    line("pods: " + std::to_string(values.pods) + "                   # triton.replicas (keda off)");
  }
  line("proxy:");
  const char* balancing = values.proxy.balancing == ProxyBalancing::round_robin ? "round_robin"
                          : values.proxy.balancing == ProxyBalancing::random    ? "random"
                                                                                : "least_request";
  line(std::string("  balancing: ") + balancing + "     # envoy.loadBalancerPolicy");
  if (const auto& r = values.proxy.rate_limit) {
    line("  rate_limit:                 # envoy.rate_limiter.prometheus_based");
    line("    metric: queue_time_per_batch");
    if (r->aggregation == MetricAggregation::sum_of_ratios) line("    aggregation: sum_of_ratios");
    line("    threshold: \"" + text_of(r->threshold * 1e3) + "ms\"");
    line("    poll_interval: \"" + text_of(r->poll_interval_s) + "s\"");
    line("    refuse: new_clients");
  }
  return yaml;
}

} // namespace sonicsim
