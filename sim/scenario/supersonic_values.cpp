// SuperSONIC's values file (sim/scenario/supersonic_values.hpp): the entry point, the key checks, and the
// parts both versions share or 0.3.1 alone has. Release 0.3.1's meaning comes from its files:
// helm/supersonic/values.yaml (the defaults), templates/keda/so.yaml (the ScaledObject: pollingInterval 30
// and cooldownPeriod 120 are fixed there, min, max and the HPA behaviour come through `default`),
// templates/_helpers/_scaling-metric.tpl (the default query), and templates/envoy/configmaps.yaml with
// cfg/envoy-filter.lua (the proxy and its rate limiters).
#include "sim/scenario/supersonic_values.hpp"
#include "sim/scenario/supersonic_values_reader.hpp"
#include "sim/text/input_file.hpp"

#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/schema.hpp"
#include "sim/scenario/supersonic_query.hpp"
#include "sim/scenario/yaml_cursor.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

namespace sonicsim::detail {

void ValuesReader::check_keys(const Cursor& c, const std::vector<std::string>& known) {
  if (!c.present() || c.node().IsNull()) return;
  if (!c.node().IsMap()) c.fail_value("a map of the chart's keys");
  for (const auto& entry : c.node()) {
    const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : "?";
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    const Cursor at_key = c.key_cursor(entry.first);
    if (!first_unknown_) first_unknown_.emplace(at_key);
    unknown_.push_back({line_of(at_key), c.path() + "." + key, schema::suggestion(key, known)});
  }
}

void ValuesReader::report_unknown_keys() const {
  if (unknown_.empty()) return;
  std::string list;
  for (const auto& u : unknown_)
    list += (list.empty() ? "" : "; ") + u.path + " (line " + std::to_string(u.line) + ")" + u.suggestion;
  first_unknown_->fail(std::to_string(unknown_.size()) + " key" + (unknown_.size() == 1 ? " is" : "s are") +
                       " not of chart " + supersonic_chart_name(out_.chart) + "'s values (" +
                       out_.chart_evidence +
                       "), which Helm would ignore, keeping the chart's defaults: " + list);
}

double ValuesReader::number(const Cursor& c, const std::string& expected) const {
  const std::string text = c.scalar(expected);
  try {
    std::size_t used = 0;
    const double value = std::stod(text, &used);
    if (used == text.size() && std::isfinite(value)) return value;
  } catch (const std::exception&) {
  }
  c.fail_value(expected);
}

double ValuesReader::probe_seconds(const Cursor& c, const std::string& example) const {
  const std::string expected = "seconds in 0..86400, e.g. " + example;
  const double value = number(c, expected);
  if (!(value >= 0 && value <= 86400)) c.fail_value(expected);
  return value;
}

bool ValuesReader::flag(const Cursor& c) const {
  std::string text = c.scalar("true or false");
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char ch) { return std::tolower(ch); });
  // Helm reads values as YAML 1.1 (go-yaml v2 through sigs.k8s.io/yaml), whose booleans include yes/no
  // and on/off.
  if (text == "true" || text == "yes" || text == "on" || text == "y") return true;
  if (text == "false" || text == "no" || text == "off" || text == "n") return false;
  c.fail_value("true or false");
}

double ValuesReader::helm_default(const std::vector<std::string>& path, double chart_value,
                                  double template_value, const std::string& meaning, double minimum,
                                  double maximum) {
  const Cursor c = at(path);
  const std::string key = path_text(path);
  if (!c.present()) {
    record(c, key, text_of(chart_value), meaning + " (the chart's default)");
    return chart_value;
  }
  const double value = number(c, "a number between " + text_of(minimum) + " and " + text_of(maximum));
  if (value == 0.0 && template_value != 0.0) {
    record(c, key, "0 -> " + text_of(template_value),
           meaning + "; the chart's template writes " + text_of(template_value) +
               " for 0 (Helm's `default` takes 0 as unset)");
    return template_value;
  }
  if (value < minimum || value > maximum || std::floor(value) != value)
    c.fail_value("a whole number between " + text_of(minimum) + " and " + text_of(maximum));
  record(c, key, text_of(value), meaning);
  return value;
}

void ValuesReader::read_metric() {
  if (main()) {
    read_metric_main();
    return;
  }
  const Cursor metric = root_["serverLoadMetric"];
  std::string query = metric.present() && !metric.node().IsNull() ? metric.scalar("a PromQL query") : "";
  if (query.empty()) {
    record(metric, "serverLoadMetric", "\"\" (the chart's query)",
           "queue time per batch, sum(rate(queue time)) / sum(rate(executions)) over 30 s: "
           "metric queue_time_per_batch, aggregation ratio_of_sums, metric_window 30s");
  } else {
    // The forms the chart and the public deployments use, recognised whole; sonicsim does not evaluate
    // arbitrary PromQL, and says so rather than guess.
    const std::optional<QueueTimeQuery> form = recognise_queue_time_query(query);
    if (!form)
      metric.fail("a query sonicsim can read: the chart's queue time per batch, as a ratio of sums "
                  "(templates/_helpers/_scaling-metric.tpl) or a sum of per-series ratios (Purdue's "
                  "values-geddes-cms.yaml); any other query is not evaluated: write the scenario's "
                  "autoscaler (metric, threshold) by hand instead of naming the values file");
    aggregation_ = form->aggregation;
    const auto first = prometheus_duration_s(form->queue_window);
    const auto second = prometheus_duration_s(form->executions_window);
    if (!first || !second || *first != *second)
      metric.fail("the two rate() windows of the query to be equal, got [" + form->queue_window + "] and [" +
                  form->executions_window + "]");
    window_s_ = *first;
    record(metric, "serverLoadMetric", "queue time per batch, " + form->queue_window + " window",
           std::string("metric queue_time_per_batch, aggregation ") +
               (aggregation_ == MetricAggregation::sum_of_ratios
                    ? "sum_of_ratios (each series' ratio, summed: grows with the servers)"
                    : "ratio_of_sums") +
               ", metric_window " + text_of(window_s_) + "s");
  }
  const Cursor threshold = root_["serverLoadThreshold"];
  double threshold_ms = chart_threshold_ms;
  if (threshold.present()) {
    threshold_ms = number(threshold, "a queue time per batch in ms above 0, e.g. 100");
    if (threshold_ms <= 0 || threshold_ms > 3.6e6)
      threshold.fail_value("a queue time per batch in ms above 0 and at most an hour, e.g. 100");
  }
  threshold_s_ = threshold_ms / 1e3;
  record(threshold, "serverLoadThreshold", text_of(threshold_ms),
         "threshold " + text_of(threshold_ms) + "ms (the query is in ms)" +
             (threshold.present() ? "" : " (the chart's default)"));
}

void ValuesReader::read_keda() {
  const Cursor keda = root_["keda"];
  const bool enabled = keda["enabled"].present() && flag(keda["enabled"]);
  record(keda["enabled"], "keda.enabled", enabled ? "true" : "false",
         enabled ? "an autoscaler"
                 : std::string("no autoscaler: ") + server_section() + ".replicas servers all day");
  if (!enabled) return;
  if (!main() && keda["zeroIdleReplicas"].present() && flag(keda["zeroIdleReplicas"]))
    keda["zeroIdleReplicas"].fail("no idle replicas at 0 with chart 0.3.1: its query reads Triton's "
                                  "metrics, which a group without servers has none of, so (the chart's own "
                                  "warning) scaling from 0 to 1 never happens; the newer chart's hold of new "
                                  "clients is the scenario's autoscaler.scale_to_zero");
  // Release 0.3.1's templates/keda/so.yaml writes its own value for a 0 (Helm's `default`); the main
  // branch's values are read as written (a 0 window is no window, a minimum of 0 is scale from zero).
  const bool m = main();
  AutoscalerSettings a;
  const int min_written = static_cast<int>(helm_default(
      {"keda", "minReplicaCount"}, chart_min_pods, m ? 0 : template_min_pods, "autoscaler.min", 0, 10'000));
  a.min_pods = std::max(1, min_written);
  a.max_pods = static_cast<int>(helm_default({"keda", "maxReplicaCount"}, chart_max_pods,
                                             m ? 0 : template_max_pods, "autoscaler.max", 1, 10'000));
  for (const char* key : {"minReplicaCount", "maxReplicaCount"})
    if (m && !at({"keda", key}).present())
      out_.notes.push_back(std::string("keda.") + key + " not written: read as release 0.3.1's default (" +
                           (std::string(key) == "minReplicaCount" ? "1" : "2") +
                           "); the main branch's guide gives none of its own");
  if (a.max_pods < a.min_pods)
    at({"keda", "maxReplicaCount"})
        .fail("maxReplicaCount " + std::to_string(a.max_pods) + " below minReplicaCount " +
              std::to_string(a.min_pods) + ": KEDA refuses such a ScaledObject");
  const double window_template_s = m ? 0 : template_window_s, period_template_s = m ? 0 : template_period_s;
  const int step_template = m ? 0 : 1, step = m ? main_step : chart_step;
  a.scale_up_window_s = helm_default({"keda", "scaleUp", "stabilizationWindowSeconds"},
                                     m ? main_scale_up_window_s : chart_scale_up_window_s, window_template_s,
                                     "autoscaler.scale_up_window", 0, 3600);
  a.scale_up_policy.period_s =
      helm_default({"keda", "scaleUp", "periodSeconds"}, m ? main_scale_up_period_s : chart_scale_up_period_s,
                   period_template_s, "autoscaler.scale_up_period", 1, 1800);
  a.scale_up_policy.pods = static_cast<int>(helm_default({"keda", "scaleUp", "stepsize"}, step, step_template,
                                                         "autoscaler.scale_up_step", 1, 10'000));
  a.scale_down_window_s = helm_default({"keda", "scaleDown", "stabilizationWindowSeconds"},
                                       m ? main_scale_down_window_s : chart_scale_down_window_s,
                                       window_template_s, "autoscaler.scale_down_window", 0, 3600);
  a.scale_down_policy.period_s = helm_default({"keda", "scaleDown", "periodSeconds"},
                                              m ? main_scale_down_period_s : chart_scale_down_period_s,
                                              period_template_s, "autoscaler.scale_down_period", 1, 1800);
  a.scale_down_policy.pods = static_cast<int>(helm_default(
      {"keda", "scaleDown", "stepsize"}, step, step_template, "autoscaler.scale_down_step", 1, 10'000));
  a.metric = metric_;
  a.metric_type = metric_type_.value_or(MetricType::value);
  a.aggregation = aggregation_;
  a.threshold = threshold_s_;
  a.metric_window_s = window_s_;
  a.scrape_interval_s = scrape_interval_s_;
  a.sync_period_s = hpa_sync_period_s;
  a.poll_interval_s = keda_polling_interval_s;
  a.tolerance = hpa_tolerance;
  a.readiness_probe = readiness_probe_;
  if (m) {
    read_keda_main(a, min_written);
  } else {
    out_.notes.push_back(
        "KEDA's pollingInterval (30 s) and cooldownPeriod (120 s) are fixed in chart 0.3.1's "
        "templates/keda/so.yaml, not values; the trigger's metricType is Value; "
        "cooldownPeriod acts only on idle replicas, which the chart leaves off");
  }
  out_.notes.push_back("the HPA reads the metric and decides between min and max every 15 s (Kubernetes's "
                       "--horizontal-pod-autoscaler-sync-period, autoscaler.sync_period), whatever KEDA's "
                       "pollingInterval, which acts only on activation from and to zero; its tolerance is "
                       "Kubernetes's default, 0.1; a removed pod drains for 60 s (the pods' "
                       "terminationGracePeriodSeconds in the chart), then the requests it still holds fail");
  out_.autoscaler = a;
}

void ValuesReader::read() {
  // A top-level key the chart does not have is a file's own habit (a key of an older chart, or of an
  // umbrella chart): Helm ignores it and so does the import, saying so. Inside the sections it reads, an
  // unknown key is an error: a misspelt setting would leave the chart's default in force unnoticed.
  std::vector<std::string> top_level{"nameOverride",
                                     "serverLoadMetric",
                                     "serverLoadThreshold",
                                     "envoy",
                                     "keda",
                                     "prometheus",
                                     "grafana",
                                     "tempo",
                                     "opentelemetry-collector",
                                     "metricsCollector"};
  if (main())
    top_level.insert(top_level.end(), {"inferenceServer", "scaleFromZero", "serverLoadRateInterval",
                                       "serverAdmissionThreshold"});
  else
    top_level.push_back("triton");
  if (root_.node().IsMap())
    for (const auto& entry : root_.node()) {
      const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : "?";
      if (std::find(top_level.begin(), top_level.end(), key) == top_level.end())
        out_.notes.push_back(key + " (line " + std::to_string(entry.first.Mark().line + 1) +
                             "): not a key of chart " + supersonic_chart_name(out_.chart) +
                             "'s values; Helm ignores it, and so does the import");
    }
  check_section_keys();
  report_unknown_keys();
  read_metric();
  read_prometheus();
  read_triton();
  read_envoy();
  read_keda();
  // Each key once (Helm refuses a key written twice), each node once however many aliases name it: after the
  // sections are read, so that a problem in them is told at its own line first.
  root_.check_keys();
}

} // namespace sonicsim::detail

namespace sonicsim {

SupersonicValues read_supersonic_values(const std::string& path, std::optional<SupersonicChart> chart) {
  std::string text;
  try {
    text = read_input_file(path);
  } catch (const std::runtime_error& e) {
    throw ScenarioError(path, 0, 0, "", std::string(e.what()) + "; expected a SuperSONIC values file");
  }
  YAML::Node tree;
  try {
    tree = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    const bool known = !e.mark.is_null();
    throw ScenarioError(path, known ? e.mark.line + 1 : 0, known ? e.mark.column + 1 : 0, "",
                        "malformed YAML: " + e.msg);
  }
  if (!tree.IsMap() && !tree.IsNull())
    throw ScenarioError(path, 1, 1, "",
                        "expected a Helm values file: a YAML map (inferenceServer: or triton:, envoy:, "
                        "keda:, ...)");
  SupersonicValues values;
  values.file = path;
  const SourceInfo source{path, {}};
  try {
    detail::ValuesReader reader(source, tree, values);
    reader.detect_chart(chart);
    reader.read();
  } catch (const YAML::Exception& e) {
    throw ScenarioError(path, 0, 0, "", std::string("unexpected YAML structure: ") + e.what());
  }
  return values;
}

} // namespace sonicsim
