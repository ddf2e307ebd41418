// SuperSONIC's public values files (configs/supersonic_values/, copied from fastmachinelearning/SuperSONIC at
// release 0.3.1, commit e578801, folder values/ and helm/supersonic/values.yaml) read as the chart means
// them: each expected setting below is read off the file by hand, with the chart's defaults for what it
// leaves out (helm/supersonic/values.yaml) and the template's `default` for a written 0
// (templates/keda/so.yaml).
#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "sim/scenario/supersonic_values.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using namespace sonicsim;

namespace {

std::string values_file(const std::string& name) {
  return std::string(SONICSIM_SOURCE_DIR) + "/configs/supersonic_values/" + name;
}

// A values file written for one case, in a temporary folder of its own (removed at the end of the case).
struct TempValues {
  std::filesystem::path folder;
  std::filesystem::path file;
  explicit TempValues(const std::string& text, const std::string& name = "values.yaml") {
    folder = std::filesystem::temp_directory_path() /
             ("sonicsim_values_" + std::to_string(std::hash<std::string>{}(text + name)));
    std::filesystem::create_directories(folder);
    file = folder / name;
    std::ofstream(file) << text;
  }
  ~TempValues() { std::filesystem::remove_all(folder); }
};

std::string error_of(const std::string& text) {
  const TempValues values(text);
  try {
    read_supersonic_values(values.file.string());
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

// A scenario whose one server group, triton, has `devices` T4s per pod and then `group` (lines indented
// under it), serving a small model.
std::string scenario_with_group(const std::string& group, int devices = 1) {
  return "name: t\nplatform:\n  server_groups:\n    triton:\n      devices: {type: T4, count: " +
         std::to_string(devices) + "}\n" + group + R"(models:
  m:
    input_bytes_per_inference: "9216B"
    output_bytes_per_inference: "16B"
    throughput:
      T4: {points: [[1, 600], [64, 9000]]}
    triton: {max_batch_size: 64}
workload:
  jobs: 10
  pipeline:
    - {name: ml, type: remote_inference, model: m, inferences: 100, max_batch: 64}
)";
}

} // namespace

TEST_CASE("supersonic values: Purdue's Geddes file, every setting that decides the answer") {
  const SupersonicValues v = read_supersonic_values(values_file("values-geddes-cms.yaml"));
  REQUIRE(v.autoscaler);
  const AutoscalerSettings& a = *v.autoscaler;
  CHECK(a.min_pods == 1);  // keda.minReplicaCount: 1
  CHECK(a.max_pods == 11); // keda.maxReplicaCount: 11
  CHECK(a.scale_up_window_s == 30);
  CHECK(a.scale_up_policy.period_s == 15);
  CHECK(a.scale_up_policy.pods == 1);
  CHECK(a.scale_down_window_s == 45);
  CHECK(a.scale_down_policy.period_s == 45);
  CHECK(a.scale_down_policy.pods == 1);
  // serverLoadThreshold: 20 (ms); serverLoadMetric: sum by (release) of per-series ratios over [30s].
  CHECK(a.threshold == doctest::Approx(0.020));
  CHECK(a.metric == LoadMetric::queue_time_per_batch);
  CHECK(a.aggregation == MetricAggregation::sum_of_ratios);
  CHECK(a.metric_window_s == 30);
  CHECK(a.metric_type == MetricType::value);
  // Fixed by the chart's template, and Prometheus's 5 s (an external Prometheus: the chart's own interval).
  CHECK(a.poll_interval_s == 30);
  REQUIRE(a.scrape_interval_s);
  CHECK(*a.scrape_interval_s == 5);
  CHECK(v.devices_per_pod == 1); // triton.resources.limits: nvidia.com/gpu: 1
  CHECK(v.proxy.balancing == ProxyBalancing::round_robin);
  // envoy.rate_limiter.prometheus_based.enabled: the same query and threshold refuse new clients.
  REQUIRE(v.proxy.rate_limit);
  CHECK(v.proxy.rate_limit->refuse == RateLimit::Refuse::new_clients);
  CHECK(v.proxy.rate_limit->aggregation == MetricAggregation::sum_of_ratios);
  CHECK(v.proxy.rate_limit->threshold == doctest::Approx(0.020));
  // Its top-level `ingress:` is not a chart key: named, not an error.
  bool ingress_named = false;
  for (const auto& note : v.notes)
    ingress_named = ingress_named || note.rfind("ingress (line 76)", 0) == 0;
  CHECK(ingress_named);
}

TEST_CASE("supersonic values: the chart's own defaults and the files without KEDA") {
  const SupersonicValues chart = read_supersonic_values(values_file("chart-values.yaml"));
  CHECK_FALSE(chart.autoscaler); // keda.enabled: false
  CHECK(chart.pods == 1);
  CHECK(chart.proxy.balancing == ProxyBalancing::least_request);
  CHECK_FALSE(chart.proxy.rate_limit);
  const SupersonicValues nautilus = read_supersonic_values(values_file("values-nautilus-cms.yaml"));
  CHECK_FALSE(nautilus.autoscaler); // keda.enabled: false, so its min/max are not read
  CHECK(nautilus.pods == 5);        // triton.replicas: 5
  CHECK(nautilus.devices_per_pod == 1);
  bool timeout_named = false;
  for (const auto& note : nautilus.notes)
    timeout_named = timeout_named || note.rfind("envoy.grpc_route_timeout 5s", 0) == 0;
  CHECK(timeout_named);
  const SupersonicValues atlas = read_supersonic_values(values_file("values-nautilus-atlas.yaml"));
  CHECK(atlas.proxy.balancing == ProxyBalancing::round_robin);
  CHECK(atlas.gpu_products == std::vector<std::string>{"NVIDIA-A10"});
  // Every public file of the folder reads.
  for (const char* name : {"values-anvil-cms.yaml", "values-minimal.yaml", "values-minimal-full.yaml",
                           "values-nautilus-icecube.yaml"})
    CHECK_NOTHROW(read_supersonic_values(values_file(name)));
  // values-minimal-full.yaml enables KEDA with the chart's behaviour: 1-2 servers, up 1 per 60 s after 60 s,
  // down 1 per 120 s after 600 s; its listener-level token bucket is named as not simulated.
  const SupersonicValues full = read_supersonic_values(values_file("values-minimal-full.yaml"));
  REQUIRE(full.autoscaler);
  CHECK(full.autoscaler->max_pods == 2);
  CHECK(full.autoscaler->scale_up_policy.period_s == 60);
  CHECK(full.autoscaler->scale_down_window_s == 600);
  CHECK(full.autoscaler->aggregation == MetricAggregation::ratio_of_sums);
  CHECK(full.autoscaler->threshold == doctest::Approx(0.100));
  bool bucket_named = false;
  for (const auto& note : full.notes)
    bucket_named = bucket_named || note.find("NOT simulated") != std::string::npos;
  CHECK(bucket_named);
}

TEST_CASE("supersonic values: a written 0 is the template's default, as Helm renders it") {
  const TempValues file(R"(keda:
  enabled: true
  minReplicaCount: 0
  maxReplicaCount: 0
  scaleUp: {stabilizationWindowSeconds: 0, periodSeconds: 0, stepsize: 0}
)");
  const SupersonicValues v = read_supersonic_values(file.file.string());
  REQUIRE(v.autoscaler);
  CHECK(v.autoscaler->min_pods == 1);  // default 1
  CHECK(v.autoscaler->max_pods == 14); // default 14
  CHECK(v.autoscaler->scale_up_window_s == 120);
  CHECK(v.autoscaler->scale_up_policy.period_s == 30);
  CHECK(v.autoscaler->scale_up_policy.pods == 1);
  CHECK(v.autoscaler->scale_down_window_s == 600); // not written: values.yaml's 600
}

TEST_CASE("supersonic values: booleans as Helm reads them (YAML 1.1: yes, on, False)") {
  for (const char* written : {"yes", "on", "True", "true"}) {
    const TempValues file(std::string("keda: {enabled: ") + written + "}\n");
    CHECK(read_supersonic_values(file.file.string()).autoscaler.has_value());
  }
  const TempValues off("keda: {enabled: False}\n");
  CHECK_FALSE(read_supersonic_values(off.file.string()).autoscaler.has_value());
  CHECK(error_of("keda: {enabled: maybe}\n").find("expected true or false") != std::string::npos);
}

TEST_CASE("supersonic values: what the import cannot honour names the file, line and key") {
  // A misspelt key inside a section the import reads: Helm would keep the default 2 silently.
  const std::string misspelt = error_of("keda:\n  enabled: true\n  maxReplicaCont: 11\n");
  CHECK(misspelt.find("values.yaml:3:3: key 'keda.maxReplicaCont'") != std::string::npos);
  CHECK(misspelt.find("did you mean 'maxReplicaCount'") != std::string::npos);
  // A query that is neither of the known forms is not guessed at.
  const std::string query = error_of("serverLoadMetric: 'avg(nv_gpu_utilization)'\n");
  CHECK(query.find("values.yaml:1:19: key 'serverLoadMetric'") != std::string::npos);
  CHECK(query.find("write the scenario's autoscaler") != std::string::npos);
  // Idle replicas at 0 never come back with a Triton metric (the chart's own warning).
  CHECK(error_of("keda: {enabled: true, zeroIdleReplicas: true}\n").find("never happens") !=
        std::string::npos);
  CHECK(error_of("keda: {enabled: true, minReplicaCount: 5, maxReplicaCount: 3}\n")
            .find("below minReplicaCount") != std::string::npos);
  CHECK(error_of("envoy: {loadBalancerPolicy: FASTEST}\n").find("ROUND_ROBIN, LEAST_REQUEST") !=
        std::string::npos);
  CHECK(error_of("serverLoadThreshold: -5\n").find("above 0") != std::string::npos);
  CHECK(error_of("envoy: {enabled: false}\n").find("without it the clients reach") != std::string::npos);
  CHECK(error_of("- a list\n").find("a Helm values file") != std::string::npos);
  // The two rate() windows of a query must agree.
  CHECK(error_of("serverLoadMetric: 'sum by (release) (rate(nv_inference_queue_duration_us[30s]) / "
                 "(rate(nv_inference_exec_count[1m]) * 1000 + 0.001))'\n")
            .find("windows of the query to be equal") != std::string::npos);
}

TEST_CASE("supersonic values: a scenario's server group names its values file") {
  const TempValues values(R"(serverLoadThreshold: 20
triton: {resources: {limits: {nvidia.com/gpu: 1}}}
keda: {enabled: true, minReplicaCount: 2, maxReplicaCount: 8}
)",
                          "values.yaml");
  const auto load = [&](const std::string& settings, int devices = 1) {
    const std::string text =
        scenario_with_group("      supersonic_values: values.yaml\n      " + settings + "\n", devices);
    const auto file = values.folder / "scenario.yaml";
    std::ofstream(file) << text;
    return load_scenario_file(file.string());
  };
  const Scenario s = load("autoscaler: {startup_delay: 120s}");
  const ServerGroup& g = s.platform.server_groups.front();
  REQUIRE(g.autoscaler);
  CHECK(g.autoscaler->min_pods == 2);
  CHECK(g.pods == 8); // the pool holds max pods
  CHECK(g.autoscaler->threshold == doctest::Approx(0.020));
  CHECK(g.autoscaler->startup_delay_s == 120); // the one key the scenario adds
  REQUIRE(g.proxy);
  CHECK(g.proxy->balancing == ProxyBalancing::least_request);
  CHECK(g.supersonic_values_file == (values.folder / "values.yaml").string());
  // Written twice: an error at the scenario's key.
  const auto error = [&](const std::string& settings, int devices = 1) {
    try {
      load(settings, devices);
    } catch (const ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(error("autoscaler: {threshold: 50ms}")
            .find("key 'platform.server_groups.triton.autoscaler.threshold'") != std::string::npos);
  CHECK(error("pods: 3").find("come from its supersonic_values") != std::string::npos);
  CHECK(error("proxy: {balancing: random}").find("come from its supersonic_values") != std::string::npos);
  CHECK(error("host_cores: 4", 2).find("the two disagree") != std::string::npos);
}

TEST_CASE("supersonic values: the group YAML the import prints loads to the same settings as the file") {
  // For each public file with KEDA on, and the chart's defaults: the printed YAML under a group, loaded as a
  // scenario, gives the autoscaler and proxy that naming the file gives.
  for (const char* name : {"values-geddes-cms.yaml", "values-minimal-full.yaml", "chart-values.yaml"}) {
    const SupersonicValues values = read_supersonic_values(values_file(name));
    std::string group;
    std::istringstream yaml(supersonic_group_yaml(values));
    for (std::string line; std::getline(yaml, line);)
      if (line.rfind("devices:", 0) != 0) group += "      " + line + "\n";
    const std::string printed = scenario_with_group(group);
    const std::string named = scenario_with_group("      supersonic_values: " + values_file(name) + "\n");
    INFO(name << ":\n" << printed);
    const ServerGroup a = load_scenario_text(printed, "printed.yaml").platform.server_groups.front();
    const ServerGroup b = load_scenario_text(named, "named.yaml").platform.server_groups.front();
    CHECK(a.pods == b.pods);
    REQUIRE(a.autoscaler.has_value() == b.autoscaler.has_value());
    if (a.autoscaler) {
      CHECK(a.autoscaler->min_pods == b.autoscaler->min_pods);
      CHECK(a.autoscaler->max_pods == b.autoscaler->max_pods);
      CHECK(a.autoscaler->threshold == doctest::Approx(b.autoscaler->threshold));
      CHECK(a.autoscaler->aggregation == b.autoscaler->aggregation);
      CHECK(a.autoscaler->metric_window_s == b.autoscaler->metric_window_s);
      CHECK(a.autoscaler->scrape_interval_s == b.autoscaler->scrape_interval_s);
      CHECK(a.autoscaler->poll_interval_s == b.autoscaler->poll_interval_s);
      CHECK(a.autoscaler->scale_up_window_s == b.autoscaler->scale_up_window_s);
      CHECK(a.autoscaler->scale_down_window_s == b.autoscaler->scale_down_window_s);
      CHECK(a.autoscaler->scale_up_policy == b.autoscaler->scale_up_policy);
      CHECK(a.autoscaler->scale_down_policy == b.autoscaler->scale_down_policy);
      CHECK(a.autoscaler->startup_delay_s == b.autoscaler->startup_delay_s);
    }
    REQUIRE(a.proxy);
    CHECK(a.proxy->balancing == b.proxy->balancing);
    CHECK(a.proxy->rate_limit.has_value() == b.proxy->rate_limit.has_value());
  }
}
