// SuperSONIC's values file as the chart's main branch means it (sim/scenario/supersonic_values.hpp), and
// which of the two versions a file is written for. The main branch's meaning comes from its
// docs/configuration-guide.rst and templates/_helpers/_scaling-metric.tpl: `triton` renamed
// `inferenceServer` (with `type: triton | nereid`); the default metric is the occupancy form "replicas
// needed" (AverageValue, threshold 1.5, a 30 s rate() window) and the Envoy rate limiter compares it per
// healthy replica with serverAdmissionThreshold (3); KEDA's pollingInterval (10 s) and cooldownPeriod
// (300 s) are values; scale from zero is the top-level scaleFromZero (a hold of new clients at Envoy).
#include "sim/scenario/supersonic_query.hpp"
#include "sim/scenario/supersonic_values_reader.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace sonicsim::detail {
namespace {

// A key path and where it is written, when it is.
struct Marker {
  std::vector<std::string> path;
  int line = 0;
};

std::string marker_text(const std::vector<Marker>& found) {
  std::string text;
  for (const auto& m : found) {
    std::string key;
    for (const auto& part : m.path)
      key += (key.empty() ? "" : ".") + part;
    text += (text.empty() ? "" : ", ") + key + " (line " + std::to_string(m.line) + ")";
  }
  return text;
}

} // namespace

void ValuesReader::detect_chart(std::optional<SupersonicChart> forced) {
  // Keys that only one version has. Release 0.3.1's `triton` section is the main branch's
  // `inferenceServer`; the rest of the main branch's keys are new.
  static const std::vector<std::vector<std::string>> main_only{
      {"inferenceServer"},          {"scaleFromZero"},         {"serverLoadRateInterval"},
      {"serverAdmissionThreshold"}, {"keda", "metricType"},    {"keda", "activationThreshold"},
      {"keda", "pollingInterval"},  {"keda", "cooldownPeriod"}};
  static const std::vector<std::vector<std::string>> release_only{{"triton"}};
  const auto found = [this](const std::vector<std::vector<std::string>>& paths) {
    std::vector<Marker> markers;
    for (const auto& path : paths)
      if (const Cursor c = at(path); c.present()) markers.push_back({path, line_of(c)});
    return markers;
  };
  const std::vector<Marker> newer = found(main_only), older = found(release_only);
  if (!newer.empty() && !older.empty())
    at(release_only.front())
        .fail("the file mixes chart 0.3.1's keys (" + marker_text(older) + ") with the main branch's (" +
              marker_text(newer) +
              "): no chart reads both, and Helm would ignore one half; rename triton to inferenceServer "
              "(main) or remove the main branch's keys (0.3.1)");
  if (forced) {
    out_.chart = *forced;
    out_.chart_evidence = "chosen by the user";
    const auto& against = *forced == SupersonicChart::main ? older : newer;
    if (!against.empty())
      at(against.front().path)
          .fail(std::string("chart ") + supersonic_chart_name(*forced) + " was asked for, but the file has " +
                "the other version's keys: " + marker_text(against));
    return;
  }
  if (!newer.empty()) {
    out_.chart = SupersonicChart::main;
    out_.chart_evidence = "its keys " + marker_text(newer);
  } else if (!older.empty()) {
    out_.chart = SupersonicChart::release_0_3_1;
    out_.chart_evidence = "its key " + marker_text(older);
  } else {
    out_.chart = SupersonicChart::release_0_3_1;
    out_.chart_evidence = "no key only one version has: the last release";
    out_.notes.push_back("the file has no key only one chart version has (triton for 0.3.1; inferenceServer, "
                         "scaleFromZero, serverLoadRateInterval, serverAdmissionThreshold or keda's "
                         "metricType, activationThreshold, pollingInterval, cooldownPeriod for the main "
                         "branch): read as release 0.3.1, whose defaults differ (queue-time metric, "
                         "threshold 100 ms); name the version to read it as the main branch");
  }
}

void ValuesReader::read_metric_main() {
  const Cursor metric = root_["serverLoadMetric"];
  const std::string query =
      metric.present() && !metric.node().IsNull() ? metric.scalar("a PromQL query") : "";
  const Cursor window = root_["serverLoadRateInterval"];
  if (window.present()) {
    const auto seconds = prometheus_duration_s(window.scalar("a duration, e.g. 30s"));
    if (!seconds || *seconds <= 0 || *seconds > 86400)
      window.fail_value("a Prometheus duration up to a day, e.g. 30s");
    window_s_ = *seconds;
  } else {
    window_s_ = main_rate_window_s;
  }
  const Cursor threshold = root_["serverLoadThreshold"];
  const Cursor admission = root_["serverAdmissionThreshold"];
  if (query.empty()) {
    metric_ = LoadMetric::pods_needed;
    metric_type_ = MetricType::average_value;
    record(metric, "serverLoadMetric", "\"\" (the chart's query)",
           "replicas needed, L_envoy x max(R, 1) / max(L_service, R, 1) (_scaling-metric.tpl): metric "
           "pods_needed, metric_type average_value");
    threshold_s_ = main_threshold;
    if (threshold.present()) {
      threshold_s_ = number(threshold, "replicas needed per replica above 0, e.g. 1.5");
      if (!(threshold_s_ > 0)) threshold.fail_value("replicas needed per replica above 0, e.g. 1.5");
      if (threshold_s_ > main_threshold_leftover)
        threshold.fail("serverLoadThreshold " + text_of(threshold_s_) +
                       " with the default metric (replicas needed, about 1.2-2 per replica) is a queue "
                       "time in ms left from chart 0.3.1: it pins the group at keda.minReplicaCount (the "
                       "chart's guide; helm install warns). Remove it (default 1.5), or keep it and set "
                       "serverLoadMetric to the old queue-time query and serverAdmissionThreshold to the "
                       "same value");
    }
    record(threshold, "serverLoadThreshold", text_of(threshold_s_),
           "threshold " + text_of(threshold_s_) + " replicas needed per replica" +
               (threshold.present() ? "" : " (the chart's default)"));
  } else {
    // A custom query is used verbatim by KEDA and by the rate limiter; sonicsim reads the queue-time forms.
    const std::optional<QueueTimeQuery> form = recognise_queue_time_query(query);
    if (!form)
      metric.fail("a query sonicsim can read: the old queue time per batch (the chart's guide gives it for "
                  "keeping 0.3.1's behaviour) as a ratio of sums or a sum of per-series ratios; any other "
                  "query is not evaluated: write the scenario's autoscaler by hand");
    const auto first = prometheus_duration_s(form->queue_window);
    const auto second = prometheus_duration_s(form->executions_window);
    if (!first || !second || *first != *second)
      metric.fail("the two rate() windows of the query to be equal, got [" + form->queue_window + "] and [" +
                  form->executions_window + "]");
    metric_ = LoadMetric::queue_time_per_batch;
    aggregation_ = form->aggregation;
    window_s_ = *first;
    metric_type_ = MetricType::value; // the chart's default for a custom metric
    record(metric, "serverLoadMetric", "queue time per batch, " + form->queue_window + " window",
           "metric queue_time_per_batch (a custom query, in ms), metric_window " + text_of(window_s_) + "s");
    const double ms =
        threshold.present() ? number(threshold, "a queue time per batch in ms above 0") : main_threshold;
    if (!(ms > 0) || ms > 3.6e6) threshold.fail_value("a queue time per batch in ms above 0, e.g. 100");
    threshold_s_ = ms / 1e3;
    record(threshold, "serverLoadThreshold", text_of(ms),
           "threshold " + text_of(ms) + "ms (the query's unit)" +
               (threshold.present() ? "" : " (the chart's default, 1.5, read in the query's ms)"));
  }
  if (window.present() || query.empty())
    record(window, "serverLoadRateInterval", text_of(window_s_) + "s",
           "metric_window " + text_of(window_s_) + "s" + (window.present() ? "" : " (the chart's default)"));
  admission_threshold_ = main_admission_threshold;
  if (admission.present()) {
    admission_threshold_ = number(admission, "a value of the metric per replica above 0, e.g. 3");
    if (!(admission_threshold_ > 0))
      admission.fail_value("a value of the metric per replica above 0, e.g. 3");
  }
  if (load_metric_in_seconds(metric_)) admission_threshold_ /= 1e3; // the query's ms
  record(admission, "serverAdmissionThreshold",
         text_of(load_metric_in_seconds(metric_) ? admission_threshold_ * 1e3 : admission_threshold_),
         "proxy.rate_limit.threshold, when envoy.rate_limiter.prometheus_based is on" +
             std::string(admission.present() ? "" : " (the chart's default)"));
}

double ValuesReader::whole_seconds(const Cursor& c, double chart_value, double minimum) const {
  if (!c.present()) return chart_value;
  const std::string expected = "whole seconds from " + text_of(minimum) + " to 86400";
  const double value = number(c, expected);
  if (value < minimum || value > 86400 || std::floor(value) != value) c.fail_value(expected);
  return value;
}

void ValuesReader::read_keda_main(AutoscalerSettings& a, int min_written) {
  const Cursor keda = root_["keda"];
  if (const Cursor type = keda["metricType"]; type.present()) {
    const std::string name = type.scalar("AverageValue or Value");
    if (name != "AverageValue" && name != "Value") type.fail_value("AverageValue or Value");
    a.metric_type = name == "AverageValue" ? MetricType::average_value : MetricType::value;
  }
  record(keda["metricType"], "keda.metricType",
         a.metric_type == MetricType::average_value ? "AverageValue" : "Value",
         a.metric_type == MetricType::average_value ? "metric_type average_value: desired = ceil(metric / "
                                                      "threshold)"
                                                    : "metric_type value: desired = ceil(pods x metric / "
                                                      "threshold)");
  const auto seconds = [this, &keda](const char* key, double chart_value, double minimum,
                                     const char* meaning) {
    const Cursor c = keda[key];
    const double value = whole_seconds(c, chart_value, minimum);
    record(c, std::string("keda.") + key, text_of(value),
           std::string(meaning) + (c.present() ? "" : " (the chart's default)"));
    return value;
  };
  a.poll_interval_s =
      seconds("pollingInterval", main_polling_interval_s, 1,
              "autoscaler.poll_interval: KEDA's activation check (0 to 1 pods and back) only");
  const double cooldown_s = seconds("cooldownPeriod", main_cooldown_s, 0,
                                    "autoscaler.scale_to_zero.idle_period, with scaleFromZero");
  double activation = 0;
  if (const Cursor c = keda["activationThreshold"]; c.present()) {
    activation = number(c, "a value of the metric, at least 0, e.g. 0.1");
    if (!(activation >= 0) || activation > 1e9) c.fail_value("a value of the metric, at least 0, e.g. 0.1");
  }
  record(keda["activationThreshold"], "keda.activationThreshold", text_of(activation),
         "autoscaler.scale_to_zero.activation_threshold, with scaleFromZero" +
             std::string(keda["activationThreshold"].present() ? "" : " (the chart's default)"));
  if (keda["zeroIdleReplicas"].present() && flag(keda["zeroIdleReplicas"]) && min_written == 0)
    keda["zeroIdleReplicas"].fail("zeroIdleReplicas with minReplicaCount 0: KEDA's idleReplicaCount 0 cannot "
                                  "scale from 0 back to 1 on the servers' own metric (the chart's guide); "
                                  "use scaleFromZero instead");
  read_scale_from_zero(a, min_written, cooldown_s, activation);
}

void ValuesReader::read_scale_from_zero(AutoscalerSettings& a, int min_written, double cooldown_s,
                                        double activation) {
  const Cursor zero = root_["scaleFromZero"];
  const bool enabled = zero["enabled"].present() && flag(zero["enabled"]);
  record(zero["enabled"], "scaleFromZero.enabled", enabled ? "true" : "false",
         enabled ? "new clients held at Envoy until a server is ready" : "no scale from zero");
  if (!enabled) {
    if (min_written == 0)
      at({"keda", "minReplicaCount"})
          .fail("minReplicaCount 0 without scaleFromZero.enabled: at 0 servers the chart's metric reads "
                "nothing, so KEDA never scales back to 1 (the chart's guide); enable scaleFromZero or set 1");
    return;
  }
  const double ready_s = whole_seconds(zero["readyTimeoutSeconds"], main_ready_timeout_s, 1);
  const double hold_s = whole_seconds(zero["holdMinReplicasSeconds"], main_hold_min_s, 1);
  if (hold_s < ready_s)
    (zero["holdMinReplicasSeconds"].present() ? zero["holdMinReplicasSeconds"] : zero["readyTimeoutSeconds"])
        .fail("holdMinReplicasSeconds " + text_of(hold_s) + " below readyTimeoutSeconds " + text_of(ready_s) +
              ": the chart refuses a hold of the minimum shorter than a new client may wait for it");
  record(zero["readyTimeoutSeconds"], "scaleFromZero.readyTimeoutSeconds", text_of(ready_s),
         "autoscaler.scale_to_zero.hold_timeout: a new client waits at most this for a ready server");
  record(zero["holdMinReplicasSeconds"], "scaleFromZero.holdMinReplicasSeconds", text_of(hold_s),
         "autoscaler.scale_to_zero.hold_min: the servers stay this long after the last new client");
  if (min_written == 0)
    out_.notes.push_back("keda.minReplicaCount 0 with scaleFromZero: the group idles at 0 servers and a new "
                         "client's first call wakes it to 1 (autoscaler.min 1 with scale_to_zero)");
  if (min_written >= 1) {
    out_.notes.push_back("scaleFromZero with keda.minReplicaCount " + std::to_string(min_written) +
                         ": the group never idles at zero, so the hold never applies");
    return;
  }
  AutoscalerSettings::ScaleToZero z;
  z.idle_period_s = std::max(cooldown_s, 1.0);
  z.hold_timeout_s = ready_s;
  z.hold_min_s = hold_s;
  z.activation_threshold = activation;
  a.scale_to_zero = z;
}

} // namespace sonicsim::detail
