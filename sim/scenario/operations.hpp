// The operations side of a scenario: how the pool of servers changes in time (an autoscaler, failures), the
// proxy in front of a group's servers (balancing per request, a rate limit), and what the client does when a
// request fails (timeout, retries, fallback). Everything here is off by default: a scenario without these
// keys runs exactly as before. SuperSONIC (arXiv:2506.20657) is the deployment these settings describe:
// Triton servers behind an Envoy proxy, scaled by KEDA on a Prometheus metric.
#pragma once

#include <string_view>

#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

// What the autoscaler and the rate limiter read about a group's servers (their Prometheus query).
enum class LoadMetric {
  // Triton's queue time per executed batch over the poll interval, in seconds: SuperSONIC's default,
  // rate(nv_inference_queue_duration_us) / rate(nv_inference_exec_count), summed over the group's servers.
  queue_time_per_batch,
  device_utilisation, // busy device-seconds / (devices x interval) over the ready servers, a fraction
  queue_length,       // requests waiting, per ready server, at the poll
  // The servers the load needs, by Little's law at the proxy (SuperSONIC's chart after 0.3.1): the serving
  // pods x (request time at the proxy / Triton's service time) over the window, with the request time from
  // arrival to reply and the service time Triton's compute (input, infer, output), both per request. A
  // pod idle or without queueing reads 1 per serving pod; meant for metric_type average_value (threshold 2:
  // a pod per two of it).
  pods_needed,
};

// Every metric, in the order the scenario reference lists them.
inline constexpr LoadMetric all_load_metrics[] = {LoadMetric::queue_time_per_batch,
                                                  LoadMetric::device_utilisation, LoadMetric::queue_length,
                                                  LoadMetric::pods_needed};

// Each metric's name in scenarios (autoscaler.metric, rate_limit.metric) and the unit of its values and
// thresholds, one row per metric (sim/policy/load_metrics.hpp adds the formula each reads). Code that
// depends on the unit reads it here, so that a new metric in another unit cannot be missed in one place.
struct LoadMetricRow {
  LoadMetric metric;
  const char* name;
  const char* unit;
};
inline constexpr LoadMetricRow load_metric_rows[] = {
    {LoadMetric::queue_time_per_batch, "queue_time_per_batch", "s"},
    {LoadMetric::device_utilisation, "device_utilisation", "fraction"},
    {LoadMetric::queue_length, "queue_length", "requests"},
    {LoadMetric::pods_needed, "pods_needed", "pods"},
};
inline const LoadMetricRow& load_metric_row(LoadMetric metric) {
  for (const auto& row : load_metric_rows)
    if (row.metric == metric) return row;
  return load_metric_rows[0];
}
inline const char* load_metric_name(LoadMetric metric) {
  return load_metric_row(metric).name;
}
inline const char* load_metric_unit(LoadMetric metric) {
  return load_metric_row(metric).unit;
}
// A metric in seconds: its threshold is written as a duration ("100ms", as SuperSONIC's queries' ms) and
// echoed as threshold_s.
inline bool load_metric_in_seconds(LoadMetric metric) {
  return std::string_view(load_metric_unit(metric)) == "s";
}

// KEDA's ScaledObject with the Kubernetes HPA's behaviour, as SuperSONIC sets them
// (helm/supersonic/templates/keda/so.yaml): every HPA sync, the desired count from the metric (the trigger's
// metricType: Value, desired = ceil(pods x metric / threshold); AverageValue, desired =
// ceil(metric / threshold)), unchanged while the usage ratio is within 1 +- tolerance; a scale-up takes the
// lowest desired count of its stabilisation window and a scale-down the highest of its own; each direction's
// scaling policy bounds the pods added or removed per period; min..max.
// How KEDA hands the metric to the HPA (the trigger's metricType).
enum class MetricType {
  value,         // the metric is the group's: desired = ceil(pods x metric / threshold)
  average_value, // the metric is a total, the threshold a per-pod share: desired = ceil(metric / threshold)
};

// How a per-server query is summed over the group's series (queue_time_per_batch only).
enum class MetricAggregation {
  ratio_of_sums, // SuperSONIC's chart: sum(rate(queue time)) / sum(rate(executions))
  sum_of_ratios, // Purdue's serverLoadMetric: sum over the series of rate(queue time) / rate(executions)
};

struct AutoscalerSettings {
  int min_pods = 1;
  int max_pods = 1;
  LoadMetric metric = LoadMetric::queue_time_per_batch;
  MetricType metric_type = MetricType::value;
  MetricAggregation aggregation = MetricAggregation::ratio_of_sums;
  double threshold = 0.1; // in the metric's unit; default 100 ms (SuperSONIC's serverLoadThreshold)
  // Two clocks, as in Kubernetes: the HPA reads the metric (through KEDA's metrics server) and decides
  // between min and max every sync period (kube-controller-manager's --horizontal-pod-autoscaler-sync-period,
  // 15 s by default); KEDA's own pollingInterval governs only activation, from 0 pods to min and back to 0
  // (scale_to_zero), and does nothing for a group that never idles at zero.
  double sync_period_s = 15;   // the HPA's sync period
  double poll_interval_s = 30; // KEDA's pollingInterval (its default; chart 0.3.1 fixes 30, main's 10)
  // The query's rate() window: each sync reads the metric over the last max(sync_period, metric_window),
  // as Prometheus would, so a sync faster than the batches still sees some (default 30 s).
  double metric_window_s = 30;
  // Prometheus's scrape interval: with one, the counters are sampled at its ticks and a poll reads the
  // rate between the first and the last sample of its window (as rate() does), so the value it sees is up
  // to a scrape old; without one (the default), it reads the counters at the poll itself.
  std::optional<double> scrape_interval_s;
  double tolerance = 0.1; // the HPA's default
  // The HPA's scaling policy of one direction (type Pods): at most `pods` added (removed) within any
  // `period_s` (its periodSeconds; at least a sync period). SuperSONIC's keda.scaleUp/scaleDown.stepsize and
  // periodSeconds; the YAML's `step` and `step_period` set both directions.
  struct ScalingPolicy {
    int pods = 1;
    double period_s = 30;
    bool operator==(const ScalingPolicy& other) const {
      return pods == other.pods && period_s == other.period_s;
    }
  };
  ScalingPolicy scale_up_policy;
  ScalingPolicy scale_down_policy;
  double scale_up_window_s = 0; // stabilisation windows
  double scale_down_window_s = 120;
  double startup_delay_s = 240; // from the decision to serving: node start and model load (240-300 s seen)
  // Scale to zero and back (SuperSONIC's chart after 0.3.1): with no activity for `idle_period_s` (KEDA's
  // cooldownPeriod: the trigger inactive, its metric at 0 and no client held) the group goes to 0 pods
  // (KEDA's idleReplicaCount 0); a new client's first call (Triton's RepositoryIndex) is held at the proxy
  // while no pod serves, for at most `hold_timeout_s`, and a held client activates the group again (to
  // `min` pods). A hold that times out refuses the client, as a rate limit does. None: `min` pods always.
  struct ScaleToZero {
    double idle_period_s = 300; // KEDA's default cooldownPeriod
    double hold_timeout_s = 300;
    // KEDA's activationThreshold: the trigger is active while its metric is above it (0: any load).
    double activation_threshold = 0;
    // SuperSONIC's scaleFromZero.holdMinReplicasSeconds: after an activation from zero the group keeps its
    // pods for at least this long (the ScaledObject's minimum is held at 1), whatever the load; 0: none.
    double hold_min_s = 0;
  };
  std::optional<ScaleToZero> scale_to_zero;
  // The fewest pods the group has: 0 when it idles at zero, else min (and the count it starts with).
  int lowest_pods() const { return scale_to_zero ? 0 : min_pods; }
  // Kubernetes's readiness probe on a new pod (SuperSONIC's triton.readinessProbe): the proxy routes to it
  // from the first probe that finds it ready, at initial_delay + k x period after it was asked for, so it
  // serves at the first such time at or after startup_delay. None: at startup_delay exactly.
  struct ReadinessProbe {
    double initial_delay_s = 10; // the chart's initialDelaySeconds
    double period_s = 10;        // periodSeconds
  };
  std::optional<ReadinessProbe> readiness_probe;
  // A removed pod's pre-stop period (the pod's terminationGracePeriodSeconds; SuperSONIC's chart: 60 s): the
  // proxy stops routing to it at once, it answers what it holds for at most this long, and the requests
  // still running then fail (their clients learn it at once, from the proxy's reset stream).
  double drain_period_s = 60;
};

// A server pod failing (a crash, or a cloud VM preempted) and restarting after `restart_delay`: requests in
// it are lost and their clients learn it by their timeout. At given times (`at`, on a given pod of the group)
// and/or at random (each serving pod fails after an exponential time of mean `mean_time_between`).
struct PodFailures {
  struct Scheduled {
    double at_s = 0.0;
    int pod = 0; // within the group
  };
  std::vector<Scheduled> scheduled;
  std::optional<double> mean_time_between_s;
  double restart_delay_s = 300; // until it serves again, model load included
};

// Envoy in front of a group's servers (SuperSONIC's proxy): each request goes to a serving pod (not one
// starting, draining or failed) chosen by the policy.
enum class ProxyBalancing {
  round_robin,   // the serving pods in turn
  least_request, // Envoy's: the fewest requests outstanding among `choice_count` pods drawn at random
  random,
};

inline const char* proxy_balancing_name(ProxyBalancing policy) {
  switch (policy) {
  case ProxyBalancing::round_robin:
    return "round_robin";
  case ProxyBalancing::random:
    return "random";
  case ProxyBalancing::least_request:
    break;
  }
  return "least_request";
}

// SuperSONIC's Prometheus-based rate limiter: while the group's metric is above the threshold, the proxy
// refuses new clients (a job starting its connection) or every request.
struct RateLimit {
  enum class Refuse { new_clients, requests };
  LoadMetric metric = LoadMetric::queue_time_per_batch;
  MetricAggregation aggregation = MetricAggregation::ratio_of_sums; // the query's form, as the autoscaler's
  double threshold = 0.1;
  double poll_interval_s = 30; // how often the proxy's query is evaluated
  Refuse refuse = Refuse::new_clients;
};

// Client jobs preempted (a cloud VM reclaimed, a grid slot killed): each job is preempted after an
// exponential time of mean `mean_time` from its start; the events it was processing are lost, and with
// `resubmit` the batch system runs its unfinished events again in a new job (in a campaign: back to the
// campaign's events).
// A job is resubmitted at most `max_resubmissions` times (default 10, as a workload manager's retry limit):
// then its unfinished events are abandoned and counted, so that preemption faster than the events can
// finish ends instead of filling the servers with the requests of killed jobs for ever.
struct JobPreemption {
  double mean_time_s = 0.0;
  bool resubmit = true;
  int max_resubmissions = 10;
};

struct ProxySettings {
  ProxyBalancing balancing = ProxyBalancing::least_request; // SuperSONIC's default
  int choice_count = 2;                                     // least_request only; Envoy's default
  std::optional<RateLimit> rate_limit;
  // Envoy's circuit breaker: each proxy replica holds at most `max_requests` requests in flight to the
  // servers (the cluster's max_requests, 1,024 by default); a request beyond `replicas` x that fails at
  // once (Envoy's 503 overflow), never reaching a server, so no server metric sees it; the client retries
  // or falls back as its settings say.
  int max_requests = 1024;
  int replicas = 1; // Envoy's replicas (SuperSONIC's envoy.replicas): the limit is per replica
  long long request_limit() const { return static_cast<long long>(max_requests) * replicas; }
};

} // namespace sonicsim
