// The server group's YAML for a SuperSONIC values file (sim/scenario/supersonic_values.hpp): what
// `sonicsim import supersonic` prints, each key with the values key it comes from.
#include "sim/scenario/supersonic_values.hpp"
#include "sim/scenario/supersonic_values_reader.hpp"

#include <cstdio>

namespace sonicsim {

using detail::text_of;

namespace {

// A threshold in the scenario's form: a queue time as a duration, any other metric as a number.
std::string threshold_text(LoadMetric metric, double threshold) {
  if (load_metric_in_seconds(metric)) return "\"" + text_of(threshold * 1e3) + "ms\"";
  return text_of(threshold);
}

} // namespace

std::string supersonic_group_yaml(const SupersonicValues& values) {
  std::string yaml;
  const auto line = [&yaml](const std::string& text) { yaml += text + "\n"; };
  const bool main = values.chart == SupersonicChart::main;
  const std::string servers = main ? "inferenceServer" : "triton";
  if (values.devices_per_pod) line("devices: {count: " + std::to_string(*values.devices_per_pod) + "}");
  if (const auto& a = values.autoscaler) {
    line("autoscaler:");
    line("  min: " + std::to_string(a->min_pods) + "                  # keda.minReplicaCount");
    line("  max: " + std::to_string(a->max_pods) + "                  # keda.maxReplicaCount");
    line(std::string("  metric: ") + load_metric_name(a->metric) + "   # serverLoadMetric");
    if (a->metric == LoadMetric::queue_time_per_batch)
      line(std::string("  aggregation: ") +
           (a->aggregation == MetricAggregation::sum_of_ratios ? "sum_of_ratios" : "ratio_of_sums"));
    line(std::string("  metric_type: ") +
         (a->metric_type == MetricType::average_value ? "average_value" : "value") +
         (main ? "   # keda.metricType" : "   # the chart's trigger"));
    line("  threshold: " + threshold_text(a->metric, a->threshold) + "       # serverLoadThreshold");
    line("  metric_window: \"" + text_of(a->metric_window_s) + "s\"   # the query's rate() window" +
         (main ? " (serverLoadRateInterval)" : ""));
    line("  scrape_interval: \"" + text_of(*a->scrape_interval_s) + "s\"  # Prometheus's scrape_interval");
    line("  sync_period: \"" + text_of(a->sync_period_s) +
         "s\"     # the HPA's sync period (Kubernetes's default)");
    line("  poll_interval: \"" + text_of(a->poll_interval_s) +
         "s\"   # KEDA pollingInterval: activation only");
    if (const auto& zero = a->scale_to_zero)
      line("  scale_to_zero: {idle_period: \"" + text_of(zero->idle_period_s) + "s\", hold_timeout: \"" +
           text_of(zero->hold_timeout_s) + "s\", hold_min: \"" + text_of(zero->hold_min_s) +
           "s\", activation_threshold: " + text_of(zero->activation_threshold) +
           "}  # scaleFromZero, keda.cooldownPeriod, activationThreshold");
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
           text_of(probe->period_s) + "s\"}  # " + servers + ".readinessProbe");
  } else {
    line("pods: " + std::to_string(values.pods) + "                   # " + servers + ".replicas (keda off)");
  }
  line("proxy:");
  const char* balancing = values.proxy.balancing == ProxyBalancing::round_robin ? "round_robin"
                          : values.proxy.balancing == ProxyBalancing::random    ? "random"
                                                                                : "least_request";
  line(std::string("  balancing: ") + balancing + "     # envoy.loadBalancerPolicy");
  if (values.proxy.replicas != 1)
    line("  replicas: " + std::to_string(values.proxy.replicas) + "   # envoy.replicas");
  if (const auto& r = values.proxy.rate_limit) {
    line("  rate_limit:                 # envoy.rate_limiter.prometheus_based");
    line(std::string("    metric: ") + load_metric_name(r->metric));
    if (r->metric == LoadMetric::queue_time_per_batch && r->aggregation == MetricAggregation::sum_of_ratios)
      line("    aggregation: sum_of_ratios");
    line("    threshold: " + threshold_text(r->metric, r->threshold) +
         (main ? "   # serverAdmissionThreshold" : ""));
    line("    poll_interval: \"" + text_of(r->poll_interval_s) + "s\"");
    line("    refuse: new_clients");
  }
  return yaml;
}

} // namespace sonicsim
