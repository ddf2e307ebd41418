#include "sim/metrics/operations_echo.hpp"

namespace sonicsim {
namespace {

using json = nlohmann::ordered_json;

// A threshold's key carries the unit of its metric: seconds for a queue time.
const char* threshold_key(LoadMetric metric) {
  return load_metric_in_seconds(metric) ? "threshold_s" : "threshold";
}

} // namespace

void add_group_operations(json& group_echo, const ServerGroup& group) {
  if (!group.supersonic_values_file.empty())
    group_echo["supersonic_values"] = {{"file", group.supersonic_values_file},
                                       {"notes", group.supersonic_values_notes}};
  if (!group.supersonic_chart.empty()) group_echo["supersonic_chart"] = group.supersonic_chart;
  if (const auto& a = group.autoscaler) {
    json echo = {{"min", a->min_pods},
                 {"max", a->max_pods},
                 {"metric", load_metric_name(a->metric)},
                 {threshold_key(a->metric), a->threshold},
                 {"sync_period_s", a->sync_period_s},
                 {"poll_interval_s", a->poll_interval_s},
                 {"metric_window_s", a->metric_window_s},
                 {"tolerance", a->tolerance}};
    // One step for both directions is echoed as the YAML's `step` (as before the directions had their own).
    if (a->scale_up_policy == a->scale_down_policy) {
      echo["step"] = a->scale_up_policy.pods;
      echo["step_period_s"] = a->scale_up_policy.period_s;
    } else {
      echo["scale_up_step"] = a->scale_up_policy.pods;
      echo["scale_up_period_s"] = a->scale_up_policy.period_s;
      echo["scale_down_step"] = a->scale_down_policy.pods;
      echo["scale_down_period_s"] = a->scale_down_policy.period_s;
    }
    echo["scale_up_window_s"] = a->scale_up_window_s;
    echo["scale_down_window_s"] = a->scale_down_window_s;
    echo["startup_delay_s"] = a->startup_delay_s;
    echo["drain_period_s"] = a->drain_period_s;
    // The keys added with SuperSONIC's chart semantics, echoed only when they differ from the defaults.
    if (a->metric_type == MetricType::average_value) echo["metric_type"] = "average_value";
    if (a->aggregation == MetricAggregation::sum_of_ratios) echo["aggregation"] = "sum_of_ratios";
    if (a->scrape_interval_s) echo["scrape_interval_s"] = *a->scrape_interval_s;
    if (const auto& probe = a->readiness_probe)
      echo["readiness_probe"] = {{"initial_delay_s", probe->initial_delay_s}, {"period_s", probe->period_s}};
    if (const auto& zero = a->scale_to_zero)
      echo["scale_to_zero"] = {{"idle_period_s", zero->idle_period_s},
                               {"hold_timeout_s", zero->hold_timeout_s},
                               {"hold_min_s", zero->hold_min_s},
                               {"activation_threshold", zero->activation_threshold}};
    group_echo["autoscaler"] = echo;
  }
  if (const auto& f = group.failures) {
    json schedule = json::array();
    for (const auto& s : f->scheduled)
      schedule.push_back({{"at_s", s.at_s}, {"pod", s.pod}});
    group_echo["failures"] = {
        {"schedule", schedule},
        {"mean_time_between_s", f->mean_time_between_s ? json(*f->mean_time_between_s) : json(nullptr)},
        {"restart_delay_s", f->restart_delay_s}};
  }
  if (const auto& p = group.proxy) {
    json proxy{{"balancing", proxy_balancing_name(p->balancing)},
               {"choice_count", p->choice_count},
               {"max_requests", p->max_requests},
               {"replicas", p->replicas}};
    if (const auto& r = p->rate_limit)
      proxy["rate_limit"] = {
          {"metric", load_metric_name(r->metric)},
          {threshold_key(r->metric), r->threshold},
          {"poll_interval_s", r->poll_interval_s},
          {"refuse", r->refuse == RateLimit::Refuse::requests ? "requests" : "new_clients"}};
    if (p->rate_limit && p->rate_limit->aggregation == MetricAggregation::sum_of_ratios)
      proxy["rate_limit"]["aggregation"] = "sum_of_ratios";
    group_echo["proxy"] = proxy;
  }
}

void add_client_operations(json& client_echo, const ClientSettings& client) {
  if (client.timeout_s) client_echo["timeout_s"] = *client.timeout_s;
  if (client.retry_other_server) client_echo["retry_on"] = "other";
  if (!client.fallback_group.empty()) client_echo["fallback"] = client.fallback_group;
}

} // namespace sonicsim
