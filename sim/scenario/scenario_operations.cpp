// Readers of the operations keys (sim/scenario/operations.hpp): a server group's autoscaler, failures and
// proxy, a job's preemption and client settings (the checks against the rest of the scenario:
// scenario_operations_checks.cpp).
#include "sim/scenario/scenario_sections.hpp"
#include "sim/scenario/supersonic_values.hpp"
#include "sim/scenario/yaml_values.hpp"
#include "sim/text/input_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace sonicsim::detail {
namespace {

LoadMetric read_metric(const Cursor& c) {
  std::vector<std::string> names;
  for (const LoadMetric metric : all_load_metrics)
    names.push_back(load_metric_name(metric));
  names.push_back("replicas_needed"); // pods_needed's former name, read until 0.2.0 (docs/outputs.md)
  const std::string name = read_choice(c, names);
  for (const LoadMetric metric : all_load_metrics)
    if (name == load_metric_name(metric)) return metric;
  return LoadMetric::pods_needed;
}

// A threshold in the metric's unit: a duration for queue time, a fraction for utilisation, requests for
// queue length.
double read_threshold(const Cursor& c, LoadMetric metric) {
  switch (metric) {
  case LoadMetric::device_utilisation: {
    const double f = read_number(c);
    require(c, f > 0.0 && f <= 1.0, "a utilisation above 0 and at most 1, e.g. 0.8");
    return f;
  }
  case LoadMetric::queue_length: {
    const double n = read_number(c);
    require(c, n > 0.0 && n <= 1e6, "requests waiting per server, above 0, e.g. 10");
    return n;
  }
  case LoadMetric::pods_needed: {
    const double n = read_number(c);
    require(c, n > 0.0 && n <= 1e6, "a number above 0, e.g. 2 (the chart's: a pod per 2 of the metric)");
    return n;
  }
  case LoadMetric::queue_time_per_batch:
    break;
  }
  const double s = read_duration_s(c);
  require(c, s > 0.0 && s <= 3600.0, "a queue time above 0 and at most 1h, e.g. \"20ms\"");
  return s;
}

} // namespace

double read_interval_s(const Cursor& c, const std::string& example, double minimum_s) {
  const double s = read_duration_s(c);
  require(c, s >= minimum_s && s <= 86400.0,
          "a duration between " + std::string(minimum_s > 0 ? "1ms" : "0") + " and 24h, e.g. \"" + example +
              "\"");
  return s;
}

namespace {

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", seconds);
  return text;
}

AutoscalerSettings::ReadinessProbe read_readiness_probe(const Cursor& c) {
  require(c, c.node().IsMap(), "a map, e.g. {initial_delay: \"10s\", period: \"10s\"}");
  AutoscalerSettings::ReadinessProbe p;
  if (c["initial_delay"].present()) p.initial_delay_s = read_interval_s(c["initial_delay"], "10s", 0);
  if (c["period"].present()) p.period_s = read_interval_s(c["period"], "10s", 1.0);
  return p;
}

AutoscalerSettings read_autoscaler(const Cursor& c) {
  AutoscalerSettings a;
  require(c, c["max"].present(), "an autoscaler with at least max, e.g. {min: 1, max: 11}");
  if (c["min"].present()) {
    // KEDA's minReplicaCount 0 is its way to idle at zero; here that is scale_to_zero, which says how long
    // idle means and how long a new client is held, and min stays the pods of an active group.
    if (c["min"].node().IsScalar() && c["min"].node().Scalar() == "0")
      c["min"].fail_value("at least 1: for a group that idles at 0 pods add autoscaler.scale_to_zero "
                          "({idle_period: 120s, hold_timeout: 300s}); min is the pods it has while active");
    a.min_pods = read_int(c["min"], 1, 10'000);
  }
  a.max_pods = read_int(c["max"], a.min_pods, 10'000);
  if (c["metric"].present()) a.metric = read_metric(c["metric"]);
  if (c["threshold"].present()) {
    a.threshold = read_threshold(c["threshold"], a.metric);
  } else if (!load_metric_in_seconds(a.metric)) {
    c.fail("missing key 'threshold': the default (100ms) is a queue time; metric " +
           std::string(load_metric_name(a.metric)) + " needs its own");
  }
  if (c["poll_interval"].present()) a.poll_interval_s = read_interval_s(c["poll_interval"], "30s", 0.1);
  if (c["sync_period"].present()) a.sync_period_s = read_interval_s(c["sync_period"], "15s", 0.1);
  if (c["metric_window"].present()) a.metric_window_s = read_interval_s(c["metric_window"], "30s", 0.1);
  if (c["tolerance"].present()) {
    a.tolerance = read_number(c["tolerance"]);
    require(c["tolerance"], a.tolerance >= 0.0 && a.tolerance < 1.0, "a fraction in [0, 1), e.g. 0.1");
  }
  // `step` and `step_period` set both directions; the direction's own keys (the chart's scaleUp and
  // scaleDown) override them.
  if (c["step"].present()) a.scale_up_policy.pods = a.scale_down_policy.pods = read_int(c["step"], 1, 10'000);
  if (c["step_period"].present())
    a.scale_up_policy.period_s = a.scale_down_policy.period_s = read_interval_s(c["step_period"], "30s", 0.1);
  if (c["scale_up_step"].present()) a.scale_up_policy.pods = read_int(c["scale_up_step"], 1, 10'000);
  if (c["scale_down_step"].present()) a.scale_down_policy.pods = read_int(c["scale_down_step"], 1, 10'000);
  if (c["scale_up_period"].present())
    a.scale_up_policy.period_s = read_interval_s(c["scale_up_period"], "60s", 0.1);
  if (c["scale_down_period"].present())
    a.scale_down_policy.period_s = read_interval_s(c["scale_down_period"], "120s", 0.1);
  if (c["metric_type"].present())
    a.metric_type = read_choice(c["metric_type"], {"value", "average_value"}) == "average_value"
                        ? MetricType::average_value
                        : MetricType::value;
  if (c["aggregation"].present()) {
    require(c["aggregation"], a.metric == LoadMetric::queue_time_per_batch,
            "no aggregation with metric " + std::string(load_metric_name(a.metric)) +
                ": it is how queue_time_per_batch sums its per-server ratios");
    a.aggregation = read_choice(c["aggregation"], {"ratio_of_sums", "sum_of_ratios"}) == "sum_of_ratios"
                        ? MetricAggregation::sum_of_ratios
                        : MetricAggregation::ratio_of_sums;
  }
  if (c["scrape_interval"].present()) {
    a.scrape_interval_s = read_interval_s(c["scrape_interval"], "5s", 0.1);
    // rate() needs two samples in its window; at half the window there are always two.
    if (*a.scrape_interval_s > 0.5 * a.metric_window_s)
      c["scrape_interval"].fail_value("a scrape interval at most half the metric window (" +
                                      seconds_text(a.metric_window_s) +
                                      " s): rate() needs two samples in its window, or the query returns "
                                      "nothing");
  }
  if (c["scale_up_window"].present()) a.scale_up_window_s = read_interval_s(c["scale_up_window"], "0s", 0);
  if (c["scale_down_window"].present())
    a.scale_down_window_s = read_interval_s(c["scale_down_window"], "120s", 0);
  if (c["startup_delay"].present()) a.startup_delay_s = read_interval_s(c["startup_delay"], "240s", 0);
  if (c["drain_period"].present()) a.drain_period_s = read_interval_s(c["drain_period"], "60s", 0);
  if (const Cursor zero = c["scale_to_zero"]; zero.present()) {
    require(zero, zero.node().IsMap(), "a map, e.g. {idle_period: \"120s\", hold_timeout: \"300s\"}");
    AutoscalerSettings::ScaleToZero z;
    if (zero["idle_period"].present()) z.idle_period_s = read_interval_s(zero["idle_period"], "120s", 1.0);
    if (zero["hold_timeout"].present()) z.hold_timeout_s = read_interval_s(zero["hold_timeout"], "300s", 0.1);
    if (zero["hold_min"].present()) z.hold_min_s = read_interval_s(zero["hold_min"], "300s", 0);
    if (const Cursor activation = zero["activation_threshold"]; activation.present()) {
      z.activation_threshold = read_number(activation);
      require(activation, z.activation_threshold >= 0 && z.activation_threshold < 1e9,
              "a value of the metric, at least 0, e.g. 0.1");
    }
    a.scale_to_zero = z;
  }
  if (const Cursor probe = c["readiness_probe"]; probe.present())
    a.readiness_probe = read_readiness_probe(probe);
  return a;
}

PodFailures read_failures(const Cursor& c, int pods) {
  PodFailures f;
  if (const Cursor schedule = c["schedule"]; schedule.present()) {
    require(schedule, schedule.node().IsSequence() && schedule.node().size() > 0,
            "a non-empty list of {at: TIME, pod: N}");
    for (std::size_t i = 0; i < schedule.node().size(); ++i) {
      const Cursor entry = schedule[i];
      require(entry, entry["at"].present(), "an entry with at, e.g. {at: 2h, pod: 0}");
      PodFailures::Scheduled s;
      s.at_s = read_duration_s(entry["at"]);
      require(entry["at"], s.at_s >= 0.0, "a time >= 0, e.g. \"2h\"");
      if (entry["pod"].present()) s.pod = read_int(entry["pod"], 0, pods - 1);
      f.scheduled.push_back(s);
    }
    std::stable_sort(f.scheduled.begin(), f.scheduled.end(),
                     [](const auto& a, const auto& b) { return a.at_s < b.at_s; });
  }
  if (c["mean_time_between"].present()) {
    f.mean_time_between_s = read_duration_s(c["mean_time_between"]);
    require(c["mean_time_between"], *f.mean_time_between_s >= 1.0,
            "a mean time of at least 1s, e.g. \"24h\"");
  }
  require(c, !f.scheduled.empty() || f.mean_time_between_s,
          "failures with a schedule, a mean_time_between, or both");
  if (c["restart_delay"].present()) f.restart_delay_s = read_interval_s(c["restart_delay"], "300s", 0);
  return f;
}

ProxySettings read_proxy(const Cursor& c) {
  ProxySettings p;
  if (c["balancing"].present()) {
    const std::string name = read_choice(c["balancing"], {"least_request", "round_robin", "random"});
    p.balancing = name == "round_robin" ? ProxyBalancing::round_robin
                  : name == "random"    ? ProxyBalancing::random
                                        : ProxyBalancing::least_request;
  }
  if (c["choice_count"].present()) {
    require(c["choice_count"], p.balancing == ProxyBalancing::least_request,
            "no choice_count with balancing " + std::string(proxy_balancing_name(p.balancing)) +
                ": it is least_request's number of pods drawn");
    p.choice_count = read_int(c["choice_count"], 2, 10'000);
  }
  if (c["max_requests"].present()) p.max_requests = read_int(c["max_requests"], 1, 100'000'000);
  if (c["replicas"].present()) p.replicas = read_int(c["replicas"], 1, 10'000);
  if (const Cursor limit = c["rate_limit"]; limit.present()) {
    RateLimit r;
    if (limit["metric"].present()) r.metric = read_metric(limit["metric"]);
    require(limit, limit["threshold"].present(), "a rate_limit with a threshold, e.g. {threshold: 20ms}");
    r.threshold = read_threshold(limit["threshold"], r.metric);
    if (limit["aggregation"].present()) {
      require(limit["aggregation"], r.metric == LoadMetric::queue_time_per_batch,
              "no aggregation with metric " + std::string(load_metric_name(r.metric)) +
                  ": it is how queue_time_per_batch sums its per-server ratios");
      r.aggregation = read_choice(limit["aggregation"], {"ratio_of_sums", "sum_of_ratios"}) == "sum_of_ratios"
                          ? MetricAggregation::sum_of_ratios
                          : MetricAggregation::ratio_of_sums;
    }
    if (limit["poll_interval"].present())
      r.poll_interval_s = read_interval_s(limit["poll_interval"], "30s", 0.1);
    if (limit["refuse"].present())
      r.refuse = read_choice(limit["refuse"], {"new_clients", "requests"}) == "requests"
                     ? RateLimit::Refuse::requests
                     : RateLimit::Refuse::new_clients;
    p.rate_limit = r;
  }
  return p;
}

} // namespace

void read_group_operations(const Cursor& c, ServerGroup& g) {
  const bool any = c["autoscaler"].present() || c["failures"].present() || c["proxy"].present() ||
                   c["supersonic_values"].present();
  if (any && g.on_client_nodes)
    c.fail("no autoscaler, failures, proxy or supersonic_values on a group on_client_nodes: its servers are "
           "the jobs' own");
  if (c["supersonic_chart"].present() && !c["supersonic_values"].present())
    c["supersonic_chart"].fail("a chart version for the group's supersonic_values, which it has none of");
  if (c["supersonic_values"].present()) {
    read_supersonic_group(c, g);
    if (c["failures"].present()) g.failures = read_failures(c["failures"], g.pods);
    return;
  }
  if (c["autoscaler"].present()) {
    if (c["pods"].present())
      c["pods"].fail("no pods with an autoscaler: the group has autoscaler.max pods, of which "
                     "autoscaler.min serve at the start");
    g.autoscaler = read_autoscaler(c["autoscaler"]);
    g.pods = g.autoscaler->max_pods;
  }
  if (c["failures"].present()) g.failures = read_failures(c["failures"], g.pods);
  if (c["proxy"].present()) g.proxy = read_proxy(c["proxy"]);
}

JobPreemption read_preemption(const Cursor& c) {
  JobPreemption p;
  require(c, c["mean_time"].present(), "a preemption with a mean_time, e.g. {mean_time: \"100h\"}");
  p.mean_time_s = read_duration_s(c["mean_time"]);
  require(c["mean_time"], p.mean_time_s >= 1.0, "a mean time of at least 1s, e.g. \"100h\"");
  if (c["resubmit"].present()) p.resubmit = read_bool(c["resubmit"]);
  if (c["max_resubmissions"].present()) p.max_resubmissions = read_int(c["max_resubmissions"], 0, 1000);
  return p;
}

ClientSettings read_client_operations(const Cursor& c, ClientSettings client) {
  if (c["timeout"].present()) client.timeout_s = read_interval_s(c["timeout"], "10s");
  if (c["retry_on"].present())
    client.retry_other_server = read_choice(c["retry_on"], {"same", "other"}) == "other";
  if (c["fallback"].present()) client.fallback_group = read_string(c["fallback"]);
  return client;
}

} // namespace sonicsim::detail
