// SuperSONIC values files of both chart versions (sim/scenario/supersonic_values.hpp): the version told from
// the file's own keys, each read with its own defaults, and the files a chart would refuse refused. The two
// operator files (tests/data/supersonic/values-main-operator.yaml and values-0.3.1-operator.yaml) are written
// from each version's documented keys (their headers name the sources); every expected setting below is read
// off them by hand, with the version's defaults for what they leave out.
#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/supersonic_values.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace sonicsim;

namespace {

std::string data_file(const std::string& name) {
  return std::string(SONICSIM_SOURCE_DIR) + "/tests/data/supersonic/" + name;
}

// `text` as a values file in a temporary folder of its own, read (as `chart`, when given); the error's text,
// or "" when it reads.
std::string error_of(const std::string& text, std::optional<SupersonicChart> chart = std::nullopt) {
  const auto folder = std::filesystem::temp_directory_path() /
                      ("sonicsim_chart_" + std::to_string(std::hash<std::string>{}(text)));
  std::filesystem::create_directories(folder);
  const auto file = folder / "values.yaml";
  std::ofstream(file) << text;
  std::string error;
  try {
    read_supersonic_values(file.string(), chart);
  } catch (const ScenarioError& e) {
    error = e.what();
  }
  std::filesystem::remove_all(folder);
  return error;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE(
    "supersonic chart versions: an operator's main-branch file, every setting that decides the answer") {
  const SupersonicValues v = read_supersonic_values(data_file("values-main-operator.yaml"));
  CHECK(v.chart == SupersonicChart::main);
  CHECK(contains(v.chart_evidence, "inferenceServer (line 6)"));
  CHECK(v.server_type == "triton");
  REQUIRE(v.autoscaler);
  const AutoscalerSettings& a = *v.autoscaler;
  // The occupancy metric (serverLoadMetric ""), AverageValue, threshold 1.5 per replica over 30 s.
  CHECK(a.metric == LoadMetric::pods_needed);
  CHECK(a.metric_type == MetricType::average_value);
  CHECK(a.threshold == doctest::Approx(1.5));
  CHECK(a.metric_window_s == 30);
  // minReplicaCount 0 with scaleFromZero: 1 pod while active, idle at 0; maxReplicaCount 10.
  CHECK(a.min_pods == 1);
  CHECK(a.max_pods == 10);
  REQUIRE(a.scale_to_zero);
  CHECK(a.scale_to_zero->idle_period_s == 300);  // keda.cooldownPeriod
  CHECK(a.scale_to_zero->hold_timeout_s == 300); // scaleFromZero.readyTimeoutSeconds
  CHECK(a.scale_to_zero->hold_min_s == 300);     // scaleFromZero.holdMinReplicasSeconds
  CHECK(a.scale_to_zero->activation_threshold == 0);
  // KEDA polls every 10 s for activation; the HPA decides every 15 s (Kubernetes's default).
  CHECK(a.poll_interval_s == 10);
  CHECK(a.sync_period_s == 15);
  // The behaviour as written (the main branch's defaults): up at once, 2 per 15 s; down after 90 s.
  CHECK(a.scale_up_window_s == 0);
  CHECK(a.scale_up_policy.period_s == 15);
  CHECK(a.scale_up_policy.pods == 2);
  CHECK(a.scale_down_window_s == 90);
  CHECK(a.scale_down_policy.pods == 2);
  // The admission threshold 3, per serving replica, on the same metric.
  REQUIRE(v.proxy.rate_limit);
  CHECK(v.proxy.rate_limit->metric == LoadMetric::pods_needed);
  CHECK(v.proxy.rate_limit->threshold == doctest::Approx(3.0));
  CHECK(v.proxy.request_limit() == 1024); // one Envoy replica, its default circuit breaker
  CHECK(v.devices_per_pod == 1);
}

TEST_CASE("supersonic chart versions: the main branch's defaults where the file is silent") {
  const std::string file = "inferenceServer: {replicas: 1}\nkeda: {enabled: true}\n";
  const auto folder = std::filesystem::temp_directory_path() / "sonicsim_chart_defaults";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "values.yaml") << file;
  const SupersonicValues v = read_supersonic_values((folder / "values.yaml").string());
  std::filesystem::remove_all(folder);
  CHECK(v.chart == SupersonicChart::main);
  REQUIRE(v.autoscaler);
  CHECK(v.autoscaler->metric == LoadMetric::pods_needed);
  CHECK(v.autoscaler->threshold == doctest::Approx(1.5));
  CHECK(v.autoscaler->poll_interval_s == 10);
  CHECK(v.autoscaler->scale_down_window_s == 90);
  CHECK(v.autoscaler->scale_up_policy.pods == 2);
  CHECK(!v.autoscaler->scale_to_zero); // minReplicaCount 1: never idle
}

TEST_CASE("supersonic chart versions: an operator's 0.3.1 file keeps 0.3.1's meaning") {
  const SupersonicValues v = read_supersonic_values(data_file("values-0.3.1-operator.yaml"));
  CHECK(v.chart == SupersonicChart::release_0_3_1);
  REQUIRE(v.autoscaler);
  CHECK(v.autoscaler->metric == LoadMetric::queue_time_per_batch);
  CHECK(v.autoscaler->metric_type == MetricType::value);
  CHECK(v.autoscaler->threshold == doctest::Approx(0.050)); // 50, in ms
  CHECK(v.autoscaler->poll_interval_s == 30);               // fixed in so.yaml
  CHECK(v.autoscaler->sync_period_s == 15);
  CHECK(v.autoscaler->scale_down_window_s == 300);
  CHECK(v.autoscaler->max_pods == 10);
}

TEST_CASE("supersonic chart versions: what either chart would refuse is refused, with its reason") {
  // Both versions' keys: no chart reads both.
  const std::string mixed = error_of("triton: {replicas: 1}\ninferenceServer: {replicas: 1}\n");
  CHECK(contains(mixed, "mixes chart 0.3.1's keys (triton (line 1))"));
  CHECK(contains(mixed, "inferenceServer (line 2)"));
  // A queue time in ms left over with the occupancy metric pins the group at its minimum.
  CHECK(contains(error_of("serverLoadThreshold: 100\nkeda: {enabled: true, pollingInterval: 10}\n"),
                 "left from chart 0.3.1"));
  // A hold shorter than the ready timeout.
  CHECK(contains(
      error_of("inferenceServer: {}\nkeda: {enabled: true, minReplicaCount: 0}\n"
               "scaleFromZero: {enabled: true, readyTimeoutSeconds: 300, holdMinReplicasSeconds: 60}\n"),
      "holdMinReplicasSeconds 60 below readyTimeoutSeconds 300"));
  // minReplicaCount 0 without scaleFromZero never comes back.
  CHECK(contains(error_of("inferenceServer: {}\nkeda: {enabled: true, minReplicaCount: 0}\n"),
                 "without scaleFromZero.enabled"));
  // Every unknown key named in one run, with its line and a suggestion.
  const std::string unknown = error_of("inferenceServer: {replicas: 1, typo: 2}\n"
                                       "keda: {enabled: true, metricTyp: Value, scaleUp: {stepsiz: 2}}\n");
  CHECK(contains(unknown, "3 keys are not of chart main's values"));
  CHECK(contains(unknown, "inferenceServer.typo (line 1)"));
  CHECK(contains(unknown, "keda.metricTyp (line 2) (did you mean 'metricType'?)"));
  CHECK(contains(unknown, "keda.scaleUp.stepsiz (line 2)"));
  // A version asked for against the file's own keys.
  CHECK(contains(error_of("triton: {replicas: 1}\n", SupersonicChart::main), "the other version's keys"));
  CHECK(contains(error_of("inferenceServer: {type: kserve}\n"), "triton or nereid"));
}

TEST_CASE("supersonic chart versions: a file of neither version's keys, and Nereid") {
  // Nothing only one version has: read as the release, or as the main branch when asked.
  const std::string plain = "keda: {enabled: true}\n";
  const auto folder = std::filesystem::temp_directory_path() / "sonicsim_chart_plain";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "values.yaml") << plain;
  const std::string file = (folder / "values.yaml").string();
  const SupersonicValues release = read_supersonic_values(file);
  CHECK(release.chart == SupersonicChart::release_0_3_1);
  CHECK(release.autoscaler->threshold == doctest::Approx(0.1)); // 100 ms
  const SupersonicValues main = read_supersonic_values(file, SupersonicChart::main);
  CHECK(main.chart == SupersonicChart::main);
  CHECK(main.autoscaler->metric == LoadMetric::pods_needed);
  std::ofstream(folder / "values.yaml") << "inferenceServer: {type: nereid}\nkeda: {enabled: true}\n";
  const SupersonicValues nereid = read_supersonic_values(file);
  std::filesystem::remove_all(folder);
  CHECK(nereid.server_type == "nereid");
  bool told = false;
  for (const auto& note : nereid.notes)
    told = told || contains(note, "measured on Triton");
  CHECK(told);
}
