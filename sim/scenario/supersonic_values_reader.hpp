// The reader of a SuperSONIC values file (sim/scenario/supersonic_values.hpp), shared by its source files:
// supersonic_values.cpp (0.3.1's query, KEDA, the entry point), supersonic_values_main.cpp (the version's
// detection, the main branch's metric and scaleFromZero) and supersonic_values_servers.cpp (the inference
// servers, Envoy, Prometheus). Internal to the scenario floor.
#pragma once

#include "sim/scenario/supersonic_values.hpp"
#include "sim/scenario/yaml_cursor.hpp"

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim::detail {

// The chart's defaults for what the import reads (helm/supersonic/values.yaml, release 0.3.1).
inline constexpr double chart_threshold_ms = 100;
inline constexpr int chart_min_pods = 1, chart_max_pods = 2;
inline constexpr double chart_scale_up_window_s = 60, chart_scale_up_period_s = 60;
inline constexpr double chart_scale_down_window_s = 600, chart_scale_down_period_s = 120;
inline constexpr int chart_step = 1;
inline constexpr double chart_scrape_interval_s = 5; // prometheus.server.global.scrape_interval
// What templates/keda/so.yaml writes when a value is 0 or missing (Helm's `default`).
inline constexpr int template_min_pods = 1, template_max_pods = 14;
inline constexpr double template_window_s = 120, template_period_s = 30;
// Fixed in templates/keda/so.yaml, not values.
inline constexpr double keda_polling_interval_s = 30; // cooldownPeriod (120 s) acts on idle replicas only
// The chart's default query (templates/_helpers/_scaling-metric.tpl): a 30 s rate() window.
inline constexpr double chart_query_window_s = 30;
// The Kubernetes HPA's default tolerance (kube-controller-manager's --horizontal-pod-autoscaler-tolerance).
inline constexpr double hpa_tolerance = 0.1;
// The HPA's sync period (--horizontal-pod-autoscaler-sync-period): how often it reads the metric through
// KEDA's metrics server and decides between 1 and max; no values file holds it.
inline constexpr double hpa_sync_period_s = 15;

// The main branch's defaults (docs/configuration-guide.rst and templates/_helpers/_scaling-metric.tpl on
// SuperSONIC's main branch): the occupancy metric with its threshold and window, the admission threshold,
// KEDA's polling and cooldown, the HPA behaviour, scaleFromZero's timers.
inline constexpr double main_threshold = 1.5;         // replicas needed per replica (AverageValue)
inline constexpr double main_admission_threshold = 3; // per healthy replica
inline constexpr double main_rate_window_s = 30;      // serverLoadRateInterval
inline constexpr double main_polling_interval_s = 10; // keda.pollingInterval
inline constexpr double main_cooldown_s = 300;        // keda.cooldownPeriod
inline constexpr double main_scale_up_window_s = 0, main_scale_up_period_s = 15;
inline constexpr double main_scale_down_window_s = 90, main_scale_down_period_s = 15;
inline constexpr int main_step = 2;
inline constexpr double main_ready_timeout_s = 300, main_hold_min_s = 300; // scaleFromZero
// An occupancy threshold above this is a queue time in ms left from 0.3.1 (its default 100): the chart's
// guide says such a leftover pins the group at its minimum, and `helm install` warns.
inline constexpr double main_threshold_leftover = 10;

inline std::string text_of(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

class ValuesReader {
public:
  ValuesReader(const SourceInfo& source, const YAML::Node& root, SupersonicValues& out)
      : root_(source, root), out_(out) {}

  void read();
  // The version: `forced` when given, else from the keys only one version has; a file with both is refused.
  void detect_chart(std::optional<SupersonicChart> forced);

private:
  bool main() const { return out_.chart == SupersonicChart::main; }
  // The inference servers' section: `triton` (0.3.1) or `inferenceServer` (main).
  const char* server_section() const { return main() ? "inferenceServer" : "triton"; }
  // The node at a key path; not present when any part is missing.
  // (Built by recursion, not by assigning cursors: assigning a YAML::Node writes into the tree it refers to.)
  Cursor at(const std::vector<std::string>& path) const { return at_from(root_, path, 0); }
  static Cursor at_from(const Cursor& c, const std::vector<std::string>& path, std::size_t i) {
    return i == path.size() ? c : at_from(c[path[i]], path, i + 1);
  }
  static std::string path_text(const std::vector<std::string>& path) {
    std::string text;
    for (const auto& key : path)
      text += (text.empty() ? "" : ".") + key;
    return text;
  }
  int line_of(const Cursor& c) const { return c.present() ? c.mark().line + 1 : 0; }
  void record(const Cursor& c, const std::string& key, const std::string& value, const std::string& meaning) {
    out_.read.push_back({key, line_of(c), value, meaning});
  }
  // A map's keys, each either one the import reads or one it names as not simulated; any other is an
  // error with a suggestion (a misspelt key would leave the chart's default in force unnoticed).
  // Every unknown key of the file is collected and told in one error at the end (report_unknown_keys).
  void check_keys(const Cursor& c, const std::vector<std::string>& known);
  void report_unknown_keys() const;
  // Every section's keys against the version's (supersonic_values_keys.cpp), before any is read.
  void check_section_keys();
  // A probe's seconds: a finite number in 0..86400 (the scenario's bound on autoscaler.readiness_probe).
  double probe_seconds(const Cursor& c, const std::string& example) const;
  double number(const Cursor& c, const std::string& expected) const;
  // A main-branch timer in whole seconds, minimum..86400 (a day); the chart's value when not written.
  double whole_seconds(const Cursor& c, double chart_value, double minimum) const;
  bool flag(const Cursor& c) const;
  // A number written in the file, or the chart's default; Helm's `default` turns a written 0 into the
  // template's value, which the import applies and says.
  double helm_default(const std::vector<std::string>& path, double chart_value, double template_value,
                      const std::string& meaning, double minimum, double maximum);

  void read_metric();
  void read_metric_main(); // the occupancy metric or a custom query, serverLoadRateInterval, admission
  // keda's keys only the main branch has; scaleFromZero (main) into the autoscaler, `min_written` the
  // file's keda.minReplicaCount (0 allowed only with it).
  void read_keda_main(AutoscalerSettings& a, int min_written);
  void read_scale_from_zero(AutoscalerSettings& a, int min_written, double cooldown_s, double activation);
  void read_triton();
  void read_gpu_affinity(const Cursor& triton, const std::string& section);
  void read_server_type(const Cursor& type);
  void read_envoy();
  void read_keda();
  void read_prometheus();

  Cursor root_;
  SupersonicValues& out_;
  double threshold_s_ = chart_threshold_ms / 1e3; // in the metric's unit (seconds for a queue time)
  LoadMetric metric_ = LoadMetric::queue_time_per_batch;
  std::optional<MetricType> metric_type_; // a custom query's or the occupancy metric's default
  double admission_threshold_ = main_admission_threshold; // the rate limiter's (main)
  struct Unknown {
    int line = 0;
    std::string path, suggestion;
  };
  std::vector<Unknown> unknown_;
  std::optional<Cursor> first_unknown_;
  MetricAggregation aggregation_ = MetricAggregation::ratio_of_sums;
  double window_s_ = chart_query_window_s;
  double scrape_interval_s_ = chart_scrape_interval_s;
  AutoscalerSettings::ReadinessProbe readiness_probe_; // triton.readinessProbe (read_triton)
};

} // namespace sonicsim::detail
