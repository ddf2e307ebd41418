// Server groups, shared devices and host costs, simulated and checked against hand-computed expectations and
// the analytic models (issue "Triton servers as they are deployed").
#include "simulate.hpp"

#include "models/mean_value_analysis.hpp"
#include "sim/analysis/analytic_curve.hpp"
#include "sim/analysis/scenario_parameters.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <doctest/doctest.h>

#include <string>

using sonicsim::RunSummary;
using sonicsim::testing::simulate_text;

namespace {

// Flat curves (the same throughput at every batch size), 4-byte inferences and a 0.1 ms round trip, so that
// the devices and hosts are all that matter: model a runs 1,000 inferences/s on a T4, model b 500/s.
std::string platform_and_models(const std::string& groups, const std::string& deploy_a,
                                const std::string& deploy_b, const std::string& extra_a = "") {
  return R"(
seed: 3
platform:
  nic_mix: [{bandwidth: "10Gbps", fraction: 1.0}]
  wan: {rtt: "0.1ms"}
  server_groups:
)" + groups +
         R"(
models:
  a:
    input_bytes_per_inference: "4B"
    output_bytes_per_inference: "4B"
    throughput: {T4: {points: [[1, 1000], [1000, 1000]]}}
    triton: {max_batch_size: 1000}
    deploy: )" +
         deploy_a + "\n" + extra_a + R"(
  b:
    input_bytes_per_inference: "4B"
    output_bytes_per_inference: "4B"
    throughput: {T4: {points: [[1, 500], [1000, 500]]}}
    triton: {max_batch_size: 1000}
    deploy: )" +
         deploy_b + "\n";
}

std::string call(const std::string& model, int inferences) {
  return "    - {name: call_" + model + ", type: remote_inference, model: " + model +
         ", inferences: " + std::to_string(inferences) + ", max_batch: " + std::to_string(inferences) + "}\n";
}

std::string workload(int jobs, int events, const std::string& think, const std::string& calls) {
  return "workload:\n  jobs: " + std::to_string(jobs) + "\n  events_per_job: " + std::to_string(events) +
         "\n  warmup_events: 10\n  pipeline:\n    - {name: think, type: cpu, duration: \"" + think + "\"}\n" +
         calls;
}

} // namespace

TEST_CASE("two models on one device: each alone follows its curve, together they split the device's time") {
  const std::string one_t4 = "    one_t4: {pods: 1, devices: {type: T4, count: 1}}";
  const std::string head = platform_and_models(one_t4, "{groups: [one_t4]}", "{groups: [one_t4]}");
  // 20 jobs with 1 ms of CPU between requests of 10 inferences keep the device busy all the time (one job
  // alone would use it ~90 %): the device runs at its curve.
  // Alone: a at 1,000 inferences/s, b at 500/s.
  const RunSummary a =
      simulate_text("name: a_alone" + head + workload(20, 300, "1ms", call("a", 10)), "a.yaml");
  const RunSummary b =
      simulate_text("name: b_alone" + head + workload(20, 300, "1ms", call("b", 10)), "b.yaml");
  CHECK(a.inferences_per_s == doctest::Approx(1000.0).epsilon(0.01));
  CHECK(b.inferences_per_s == doctest::Approx(500.0).epsilon(0.01));
  CHECK(a.group_usage.at(0).device_utilisation == doctest::Approx(1.0).epsilon(0.01));
  // Together (each event calls a, then b): an event takes 10 ms of the device for a and 20 ms for b, so
  // 1 / 0.030 = 33.3 events/s and 333 inferences/s of each. The sharing rule:
  // X_a / 1,000 + X_b / 500 = 1/3 + 2/3 = 1.
  const RunSummary both = simulate_text(
      "name: both" + head + workload(20, 300, "1ms", call("a", 10) + call("b", 10)), "both.yaml");
  REQUIRE(both.model_usage.size() == 2);
  const double busy_a_s = both.model_usage[0].busy_device_s, busy_b_s = both.model_usage[1].busy_device_s;
  // Each model's inferences per second in the window: its busy device-seconds times its own curve.
  const double x_a = busy_a_s * 1000.0 / (both.window_end_s - both.window_start_s);
  const double x_b = busy_b_s * 500.0 / (both.window_end_s - both.window_start_s);
  CHECK(x_a == doctest::Approx(1000.0 / 3.0).epsilon(0.01));
  CHECK(x_b == doctest::Approx(1000.0 / 3.0).epsilon(0.01));
  CHECK(x_a / 1000.0 + x_b / 500.0 == doctest::Approx(1.0).epsilon(0.01));
  CHECK(both.inferences_per_s == doctest::Approx(2000.0 / 3.0).epsilon(0.01));
  CHECK(both.group_usage.at(0).device_utilisation == doctest::Approx(1.0).epsilon(0.01));
  CHECK(both.bottleneck.sentence() == "GPU pool");
  // Per device: the one T4 executed every batch of both models.
  REQUIRE(both.group_usage.at(0).device_batches.size() == 1);
  CHECK(both.group_usage[0].device_batches[0] == both.model_usage[0].batches + both.model_usage[1].batches);
  CHECK(both.group_usage[0].device_busy_s[0] ==
        doctest::Approx(static_cast<double>(both.model_usage[0].batches) * 0.010 +
                        static_cast<double>(both.model_usage[1].batches) * 0.020));
}

TEST_CASE("a server whose host saturates first: devices ~60 % busy, as arXiv:2009.04509 section 3.2 saw") {
  // The 2020 server: 4 T4 on a 16-core VM. Model a: requests of 10 inferences, 10 ms on a T4. Input handling
  // of 66.67 ms per request on one core (set here so the host saturates first; the measured cost is not
  // known). An instance is busy for input + execution (76.7 ms), so 8 instances per T4 (32) keep the
  // instances from limiting first: 32 / 0.0767 s = 417 requests/s. Capacities: host 16 / 0.06667 s = 240
  // requests/s; devices 4 / 0.010 s = 400 requests/s. At saturation the devices are 240 / 400 = 60 % busy.
  const std::string gke = "    gke: {pods: 1, devices: {type: T4, count: 4}, host_cores: 16}";
  const std::string yaml = "name: host_limited" +
                           platform_and_models(gke, "{groups: [gke]}", "{groups: [gke]}",
                                               "    compute_input: {per_request: \"66.667ms\"}") +
                           // One job alone: 1 s + 66.7 ms + 10 ms + 0.1 ms = 1.077 s per event, so the knee
                           // is 240 x 1.077 = 258 jobs; 600 jobs are well past it.
                           workload(600, 40, "1s", call("a", 10));
  const std::vector<std::string> instances{"models.a.triton.instance_group=[{count: 8, kind: GPU}]"};
  const RunSummary run = simulate_text(yaml, "host_limited.yaml", instances);
  REQUIRE(run.group_usage.size() == 1);
  CHECK(run.bottleneck.sentence() == "host cores");
  CHECK(run.group_usage[0].limit.busiest == "host cores");
  CHECK(run.group_usage[0].limit.kind == sonicsim::ResourceKind::host_cores);
  CHECK(run.group_usage[0].limit.group == 0);
  CHECK(run.group_usage[0].limit.same_resource(run.bottleneck)); // the run's bottleneck is this group's limit
  CHECK(run.group_usage[0].host_utilisation == doctest::Approx(1.0).epsilon(0.02));
  CHECK(run.group_usage[0].device_utilisation == doctest::Approx(0.60).epsilon(0.03));
  // Throughput by Little's law, jobs / event time (the window's completion count runs ~2 % low when all jobs
  // start together and end within one event of each other).
  const double events_per_s = 600.0 / run.event.mean_s;
  CHECK(events_per_s == doctest::Approx(240.0).epsilon(0.02));
  // The MVA has the host as its own station: it names the same bottleneck and the same throughput (5 %).
  const auto parameters =
      sonicsim::analysis::derive_parameters(sonicsim::load_scenario_text(yaml, "h.yaml", instances));
  const auto bounds = sonicsim::models::asymptotic_bounds(parameters.closed_network(), 600);
  CHECK(bounds.bottleneck == "host cores");
  const auto mva = sonicsim::analysis::analytic_curve(parameters, {600}).front();
  CHECK(mva.mva_events_per_s == doctest::Approx(events_per_s).epsilon(0.05));
  CHECK(mva.mva_gpu_utilisation == doctest::Approx(0.60).epsilon(0.03));
}

TEST_CASE("each model's own load balancer and group: knees where each group's analytic knee says") {
  // Model a on one pod with one T4, model b on three pods with one T4 each (round robin). Requests of 100
  // inferences: 0.1 s of a T4 for a, 0.2 s for b. A job thinks 1 s, then calls one model.
  // SONIC knee N* = N_GPU t_ideal / t_GPU: a: 1 x 1.1 / 0.1 = 11 jobs; b: 3 x 1.2 / 0.2 = 18 jobs.
  // Simulated knee: where the asymptotes cross, saturated throughput x one job's event time.
  const std::string groups = "    small: {pods: 1, devices: {type: T4, count: 1}}\n"
                             "    large: {pods: 3, devices: {type: T4, count: 1}}";
  const std::string head = platform_and_models(groups, "{groups: [small], load_balancer: random}",
                                               "{groups: [large], load_balancer: round_robin}");
  struct Case {
    std::string model;
    double analytic_knee;
    int saturated_jobs;
  };
  for (const Case& c : {Case{"a", 11.0, 33}, Case{"b", 18.0, 54}}) {
    CAPTURE(c.model);
    const RunSummary alone =
        simulate_text("name: alone" + head + workload(1, 60, "1s", call(c.model, 100)), "alone.yaml");
    const RunSummary loaded = simulate_text(
        "name: loaded" + head + workload(c.saturated_jobs, 60, "1s", call(c.model, 100)), "loaded.yaml");
    const double knee = loaded.events_per_s * alone.event.mean_s;
    CHECK(knee == doctest::Approx(c.analytic_knee).epsilon(0.10));
    const auto parameters = sonicsim::analysis::derive_parameters(
        sonicsim::load_scenario_text("name: k" + head + workload(1, 60, "1s", call(c.model, 100)), "k.yaml"));
    CHECK(parameters.latency_model().knee_jobs() == doctest::Approx(c.analytic_knee).epsilon(0.01));
  }
}

TEST_CASE("CPU instances run on the host's cores with the model's CPU curve (Triton's CPU fallback)") {
  // A CPU-only group: 1 pod, no devices, 4 cores. Model c has a CPU curve of 100 inferences/s per instance:
  // a request of 10 takes 0.1 s of one core. 8 instances on 4 cores: the cores, not the instance count, cap
  // the server at 4 / 0.1 s = 40 requests/s. 60 jobs thinking 0.5 s would ask for ~100/s: saturated.
  const std::string yaml = R"(name: cpu_fallback
seed: 5
platform:
  nic_mix: [{bandwidth: "10Gbps", fraction: 1.0}]
  wan: {rtt: "0.1ms"}
  server_groups: {cpu_pods: {pods: 1, devices: {count: 0}, host_cores: 4}}
models:
  c:
    input_bytes_per_inference: "4B"
    output_bytes_per_inference: "4B"
    throughput: {CPU: {points: [[1, 100], [1000, 100]]}}
    triton: {max_batch_size: 1000, instance_group: [{count: 8, kind: CPU}]}
)" + workload(60, 60, "0.5s", call("c", 10));
  const RunSummary run = simulate_text(yaml, "cpu_fallback.yaml");
  REQUIRE(run.group_usage.size() == 1);
  CHECK(run.group_usage[0].devices == 0);
  CHECK(run.group_usage[0].host_utilisation == doctest::Approx(1.0).epsilon(0.02));
  CHECK(run.bottleneck.sentence() == "host cores");
  CHECK(60.0 / run.event.mean_s == doctest::Approx(40.0).epsilon(0.02)); // Little's law: jobs / event time
  CHECK(run.gpus == 0);
}
