// Operations (sim/scenario/operations.hpp) on scenarios small enough to follow by hand: one model whose batch
// of one inference takes exactly 1 s on a T4 (throughput 1/s at batch 1), one request per event, no network
// time to speak of (RTT 0, 1-byte requests: transfers of nanoseconds), so every time below is a sum of whole
// seconds, HPA sync periods, poll intervals and configured delays.
#include "simulate.hpp"
#include "unit_model_scenario.hpp"

#include "sim/text/csv.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using sonicsim::testing::check_outcomes_add_up;
using sonicsim::testing::read_text;
using sonicsim::testing::run_sonicsim;
using sonicsim::testing::scenario;
using sonicsim::testing::simulate_text;
using sonicsim::testing::unit_model;

namespace {

const char* const step_workload = R"(  jobs: 4
  events_per_job: 1000
  campaign:
    max_concurrent: [{from: "0s", jobs: 1}, {from: "100s", jobs: 4}]
    window: "400s"
)";

} // namespace

TEST_CASE("operations: a step in load raises the pods at the first HPA sync above the threshold, serving "
          "after the start-up delay; KEDA's 1 s polling interval does not make it faster") {
  // One job until 100 s, four from then on (campaign cap). HPA syncs every 30.5 s (KEDA polls every 1 s,
  // which acts only on activation from zero, and this group never idles at zero); threshold 1 s of queue time
  // per batch. Before 100 s nothing waits: the metric is 0. The sync at 122 s reads [91.5, 122]: ~8 batches
  // that waited nothing, then the four jobs queue behind each other on the one pod (waits 0, 1, 2, then 3 s
  // per batch): ~60 s of waiting over ~30 batches, 2 s per batch, twice the threshold: one pod more (one step
  // per sync), asked for at 122 s and serving 60 s (startup_delay) later, at 182 s. At 152.5 s the four jobs
  // still wait 3 s per batch: the third pod, and no more (max 3).
  const std::string yaml = scenario(R"(  server_groups:
    gpu:
      devices: {type: T4, count: 1}
      autoscaler: {min: 1, max: 3, threshold: "1s", sync_period: "30.5s", poll_interval: "1s",
                   startup_delay: "60s"}
)",
                                    step_workload);
  const auto summary = simulate_text(yaml, "ops_step");
  REQUIRE(summary.operations.has_value());
  REQUIRE(summary.operations->pools.size() == 1);
  const auto& pool = summary.operations->pools.front();
  REQUIRE(pool.first_scale_up_decided_s.has_value());
  CHECK(*pool.first_scale_up_decided_s == doctest::Approx(122.0));
  CHECK(*pool.first_scale_up_serving_s == doctest::Approx(182.0));
  CHECK(pool.pods_added == 2);
  CHECK(pool.peak_pods == 3);
  check_outcomes_add_up(summary);
  // Without sync_period, the HPA's default 15 s: the syncs at 105 s ([75, 105]: 25 batches unqueued, then
  // waits 0, 1, 2, 3, 3 s: 9 s over 30 batches, 0.3 s) and then 120 s ([90, 120]: 10 batches unqueued, 20
  // waiting ~3 s, 1.8 s per batch, 1.8 x the threshold) decide: the first pod is asked for at 120 s, a
  // multiple of the sync period, though KEDA polled every second.
  const auto default_sync = simulate_text(scenario(R"(  server_groups:
    gpu:
      devices: {type: T4, count: 1}
      autoscaler: {min: 1, max: 3, threshold: "1s", poll_interval: "1s", startup_delay: "60s"}
)",
                                                   step_workload),
                                          "ops_step_default_sync");
  const auto& synced = default_sync.operations->pools.front();
  REQUIRE(synced.first_scale_up_decided_s.has_value());
  CHECK(*synced.first_scale_up_decided_s == doctest::Approx(120.0));
  check_outcomes_add_up(default_sync);
}

TEST_CASE("operations: scale-down waits for its stabilisation window and drains without losing a request") {
  // Two jobs of 40 events on one pod: at the sync at 10.3 s the batches at 0..10 s waited 0, 1, 1, ... s
  // (10 s over 11 batches, 0.91 s per batch against 0.5 s): a second pod, serving at once (startup 0).
  // Least request then gives each job its own pod and nothing waits: the raw recommendation is 1 at 20.6,
  // 30.9 and 41.2 s, but the scale-down window (30 s) holds the 2 of 10.3 s until 41.2 s (window [11.2,
  // 41.2]). At 41.2 s pod 1 stops taking requests with its job's batch of 41-42 s in it: it is held until
  // that batch is answered at 42 s, then leaves. Nothing is lost: all 80 events complete. The metric is read
  // over the last sync and a step is allowed per sync (metric_window and step_period set to the sync; their
  // 30 s defaults are tested in the autoscaler's unit tests and the fast-sync reproducer).
  const std::string yaml = scenario(R"(  server_groups:
    gpu:
      devices: {type: T4, count: 1}
      autoscaler: {min: 1, max: 2, threshold: "0.5s", sync_period: "10.3s", startup_delay: "0s",
                   scale_down_window: "30s", metric_window: "10.3s", step_period: "10.3s"}
)",
                                    "  jobs: 2\n  events_per_job: 40\n");
  // In a folder of its own under the system's temporary directory: a test writes nothing in the work tree.
  const std::filesystem::path scratch = std::filesystem::temp_directory_path() / "sonicsim_test_operations";
  std::filesystem::create_directories(scratch);
  const std::string dir = (scratch / "scale_down").string();
  const std::string file = dir + ".yaml";
  std::ofstream(file) << yaml;
  const auto result = run_sonicsim("run " + file + " -q --out " + dir);
  REQUIRE(result.exit_code == 0);
  const auto summary = sonicsim::testing::simulate_text(yaml, "ops_scale_down");
  const auto& pool = summary.operations->pools.front();
  CHECK(*pool.first_scale_up_decided_s == doctest::Approx(10.3));
  CHECK(*pool.first_scale_up_serving_s == doctest::Approx(10.3));
  CHECK(pool.pods_added == 1);
  CHECK(pool.pods_removed == 1);
  CHECK(summary.operations->events.completed == 80);
  CHECK(summary.operations->requests_lost == 0);
  check_outcomes_add_up(summary);
  // The time series, 1 s rows: serving falls within [41, 42) (2 for 0.2 s, 1 for 0.8 s: 1.2 on average);
  // held stays 2 until the draining pod's batch ends at 42 s.
  std::istringstream csv(read_text(dir + "/timeseries.csv"));
  std::string line;
  std::getline(csv, line);
  const auto header = sonicsim::split_csv_line(line);
  const auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  const std::size_t serving = column("gpu_pods_serving"), held = column("gpu_pods_held");
  REQUIRE(held < header.size());
  std::map<double, std::pair<double, double>> pods_at; // time -> (serving, held)
  while (std::getline(csv, line)) {
    const auto fields = sonicsim::split_csv_line(line);
    pods_at[std::stod(fields.at(0))] = {std::stod(fields.at(serving)), std::stod(fields.at(held))};
  }
  CHECK(pods_at.at(40.0).first == doctest::Approx(2.0));
  CHECK(pods_at.at(41.0).first == doctest::Approx(1.2));
  CHECK(pods_at.at(41.0).second == doctest::Approx(2.0));
  CHECK(pods_at.at(42.0).first == doctest::Approx(1.0));
  CHECK(pods_at.at(42.0).second == doctest::Approx(1.0).epsilon(1e-6));
}

TEST_CASE("operations: a server failure with a retry on another server loses no event and adds the timeout") {
  // Two pods behind a least-request proxy, two jobs of 10 events: job 0 on pod 0, job 1 on pod 1. Pod 0
  // fails at 5.5 s with job 0's batch of 5-6 s in it: the request is lost; its client gives up at 8 s (3 s
  // timeout), retries at once on the other pod, where job 1's request of 8-9 s is ahead of it or just
  // behind: the event lasts 3 s of timeout plus 1 or 2 s of service, 4 to 5 s instead of 1.
  const std::string platform = R"(  server_groups:
    gpu:
      pods: 2
      devices: {type: T4, count: 1}
      proxy: {balancing: least_request}
      failures: {schedule: [{at: "5.5s", pod: 0}], restart_delay: "100s"}
)";
  const std::string client =
      "  jobs: 2\n  events_per_job: 10\n"
      "  client: {timeout: \"3s\", retries: 1, retry_backoff: \"0s\", retry_on: other}\n";
  const auto summary = simulate_text(scenario(platform, client), "ops_failure");
  const auto& ops = *summary.operations;
  CHECK(ops.pools.front().pod_failures == 1);
  CHECK(ops.requests_lost == 1);
  CHECK(ops.requests_timed_out == 1);
  CHECK(ops.events.started == 20);
  CHECK(ops.events.completed == 19);
  CHECK(ops.events.completed_after_retry == 1);
  CHECK(ops.events.ended() == 20);
  CHECK(summary.event.max_s >= 4.0 - 1e-6);
  CHECK(summary.event.max_s <= 5.0 + 1e-3);
  check_outcomes_add_up(summary);

  // Without a retry the event fails, by its timeout, and the counts still add up.
  auto no_retry = client;
  no_retry.replace(no_retry.find("retries: 1"), 10, "retries: 0");
  no_retry.replace(no_retry.find(", retry_on: other"), 17, "");
  const auto failed = simulate_text(scenario(platform, no_retry), "ops_failure_no_retry");
  CHECK(failed.operations->events.failed_timed_out == 1);
  CHECK(failed.operations->events.completed == 19);
  CHECK(failed.events_failed == 1);
  check_outcomes_add_up(failed);
}

TEST_CASE("operations: a rate limit with a CPU fallback keeps the refused jobs at the fallback's capacity") {
  // One GPU pod (1 s per request) behind a proxy refusing new clients while more than 0.5 requests wait per
  // server (polled every 4.5 s). Two jobs from 0 s keep one request waiting: from the poll at 4.5 s on, the
  // limit refuses. The four jobs that start at 20 s are refused and run every request on their node's
  // fallback server: one CPU instance at 4 s per request, 0.25 events/s per job. In the window (40-220 s):
  // the GPU serves its two jobs 1 event/s, the fallbacks 4 x 0.25 = 1 event/s: 2 events/s.
  const std::string yaml = scenario(R"(  node_cores: 2
  server_groups:
    gpu:
      devices: {type: T4, count: 1}
      proxy: {rate_limit: {metric: queue_length, threshold: 0.5, poll_interval: "4.5s", refuse: new_clients}}
    local:
      on_client_nodes: true
      devices: {count: 0}
      host_cores: 1
)",
                                    R"(  jobs: 6
  events_per_job: 1000
  client: {fallback: local}
  campaign:
    max_concurrent: [{from: "0s", jobs: 2}, {from: "20s", jobs: 6}]
    window: "220s"
    warmup: "40s"
)");
  const auto summary = simulate_text(yaml, "ops_rate_limit");
  const auto& ops = *summary.operations;
  CHECK(ops.clients_refused == 4);
  // 2.0 events/s; the window's edges cut at most one event per job (6 events in 360): 2 %.
  CHECK(summary.events_per_s == doctest::Approx(2.0).epsilon(0.02));
  CHECK(ops.events.completed_with_fallback > 0);
  check_outcomes_add_up(summary);
}

TEST_CASE("operations: a reply into a WAN that is down is lost; the timeout and a retry recover the event") {
  // One job of 10 one-second events on one pod; the WAN is down from 4.5 s to 6.5 s. The request of the
  // fifth event is sent at 4 s (up), its reply leaves at 5 s (down): lost. The client gives up at 7 s (3 s
  // timeout) and retries at once over a WAN that is up again: served 7-8 s. That event lasts 4 s; the run
  // ends at 13 s.
  const std::string yaml = scenario(R"(  server_groups:
    gpu:
      devices: {type: T4, count: 1}
)",
                                    "  jobs: 1\n  events_per_job: 10\n"
                                    "  client: {timeout: \"3s\", retries: 1, retry_backoff: \"0s\"}\n");
  std::string with_window = yaml;
  const std::string plain_wan = "wan: {rtt: \"0s\"}";
  with_window.replace(with_window.find(plain_wan), plain_wan.size(),
                      "wan: {rtt: \"0s\", down: [{from: \"4.5s\", to: \"6.5s\"}]}");
  const auto summary = simulate_text(with_window, "ops_wan_down");
  const auto& ops = *summary.operations;
  CHECK(ops.requests_lost == 1);
  CHECK(ops.requests_timed_out == 1);
  CHECK(ops.events.completed == 9);
  CHECK(ops.events.completed_after_retry == 1);
  CHECK(summary.event.max_s == doctest::Approx(4.0).epsilon(1e-4));
  CHECK(summary.simulated_end_s == doctest::Approx(13.0).epsilon(1e-4));
  check_outcomes_add_up(summary);
}

TEST_CASE(
    "operations: preempted jobs lose their events in progress, and resubmitted ones finish every event") {
  // One job of 20 one-second events, one thread, preempted after exponential times of mean 6 s: each
  // preemption loses exactly the one event in progress (the job is always in an event); resubmitted, the
  // job's unfinished events run again until all 20 complete, so started = 20 + the lost ones.
  const std::string platform = "  server_groups:\n    gpu:\n      devices: {type: T4, count: 1}\n";
  const auto resubmitted = simulate_text(
      scenario(platform,
               "  jobs: 1\n  events_per_job: 20\n  preemption: {mean_time: \"6s\", resubmit: true}\n"),
      "ops_preemption");
  const auto& ops = *resubmitted.operations;
  CHECK(ops.jobs_preempted >= 1);
  CHECK(ops.events.completed == 20);
  CHECK(ops.events.failed_preempted == ops.jobs_preempted);
  CHECK(ops.events.started == 20 + ops.jobs_preempted);
  check_outcomes_add_up(resubmitted);

  // Not resubmitted: the job ends at its first preemption, with the event in progress lost.
  const auto dropped = simulate_text(
      scenario(platform,
               "  jobs: 1\n  events_per_job: 20\n  preemption: {mean_time: \"6s\", resubmit: false}\n"),
      "ops_preemption_dropped");
  const auto& lost = *dropped.operations;
  CHECK(lost.jobs_preempted == 1);
  CHECK(lost.events.failed_preempted == 1);
  CHECK(lost.events.completed + 1 == lost.events.started);
  CHECK(lost.events.completed < 20);
  CHECK(lost.events_resubmitted == 0);
  check_outcomes_add_up(dropped);
}

TEST_CASE("operations: a preempted job's submissions never end more events than the job has, over seeds and "
          "settings") {
  // The lifecycle's invariant: completed + failed for good + abandoned events of a job never exceed its
  // events, and when every job has ended they are its events. Preemption every 60 s on average against ~45 s
  // events (ProtoDUNE-like), two resubmissions: most jobs are preempted, some abandoned. The run keeps its
  // workload as written (the precision rule does not lengthen a run whose jobs can be preempted). Before the
  // lifecycle was one state machine, every seed of this scenario counted 129-174 events of 120.
  const std::string base = R"(seed: 1
platform:
  server_groups:
    triton: {devices: {type: T4, count: 1}, pods: 2, proxy: {balancing: least_request}}
models:
  emtrkmichelid:
    input_bytes_per_inference: "9216B"
    output_bytes_per_inference: "16B"
    throughput: {T4: {points: [[1, 202], [16, 2975], [64, 9448], [235, 20000], [1693, 31250], [16384, 31250]]}}
    triton: {max_batch_size: 16384}
workload:
  jobs: 40
  events_per_job: 3
  client: {retries: 1, retry_backoff: "1s", timeout: "120s"}
  preemption: {mean_time: "60s", resubmit: true, max_resubmissions: 2}
  pipeline:
    - {name: EmTrkMichelId, type: remote_inference, model: emtrkmichelid, preprocess: {dist: lognormal, mean: "45s", sd: "10s"}, inferences: {dist: normal, mean: 55000, sd: 5500}, groups: 1, max_batch: 16384}
output: {timeseries_interval: "60s"}
)";
  const std::vector<std::vector<std::string>> settings{
      {},
      {"workload.threads=2"},
      {"platform.server_groups.triton.failures.mean_time_between=300s",
       "platform.server_groups.triton.failures.restart_delay=60s"},
      {"workload.preemption.max_resubmissions=0"},
  };
  for (const auto& setting : settings)
    for (int seed = 1; seed <= 4; ++seed) {
      std::vector<std::string> overrides = setting;
      overrides.push_back("seed=" + std::to_string(seed));
      const auto summary = simulate_text(base, "ops_preemption_lifecycle", overrides);
      const auto& ops = *summary.operations;
      const auto& e = ops.events;
      const std::uint64_t workload = 40 * 3;
      INFO("seed " << seed << ", settings " << (setting.empty() ? std::string("none") : setting.front()));
      CHECK(e.completed + e.completed_after_retry + e.completed_with_fallback + e.failed_rejected +
                e.failed_timed_out + ops.events_abandoned ==
            workload);
      CHECK(summary.precision.events_per_job == 3);
      check_outcomes_add_up(summary);
    }
}

TEST_CASE("operations: a fallback slower than the client's timeout still completes its events") {
  // The WAN is down for the whole run, so every request to the GPU pod is lost on the way and its 1 s timeout
  // runs out; with no retry, the request goes to the node's fallback (on the node: no WAN), one CPU instance
  // at 4 s per request. Timed out too, as it once was, no event would complete. Not timed out: each event
  // takes 1 s (the lost try) + 4 s (the fallback) = 5 s; one job's 4 events all complete with the fallback.
  const std::string yaml = scenario(R"(  node_cores: 2
  server_groups:
    gpu:
      devices: {type: T4, count: 1}
    local:
      on_client_nodes: true
      devices: {count: 0}
      host_cores: 1
)",
                                    R"(  jobs: 1
  events_per_job: 4
  client: {retries: 0, timeout: "1s", fallback: local}
)");
  const auto summary =
      simulate_text(yaml, "ops_slow_fallback", {"platform.wan.down=[{from: 0s, to: 1000s}]"});
  const auto& ops = *summary.operations;
  CHECK(ops.events.completed_with_fallback == 4);
  CHECK(ops.events.failed_timed_out == 0);
  CHECK(ops.requests_timed_out == 4);
  CHECK(summary.event.mean_s == doctest::Approx(5.0).epsilon(1e-6));
  check_outcomes_add_up(summary);
}

TEST_CASE("operations: pods needed with AverageValue holds the count the load needs; with Value it climbs") {
  // Four jobs on the unit model (1 s per request, one request per event), one pod at first, syncs every
  // 30.5 s over the last 30.5 s. On one pod the requests queue behind each other: the answers at 1, 2, 3 s
  // took 1, 2, 3 s, every later one 4 s (three ahead of it); by 30.5 s, 30 answers of 1 + 2 + 3 + 27 x 4 =
  // 114 s for 30 s of service: pods needed = 1 pod x 114 / 30 = 3.8. AverageValue with threshold 2:
  // ceil(3.8 / 2) = 2 pods. Then two jobs per pod (least request), each request waiting one: about 2 s per
  // 1 s of service on 2 pods, 4 needed, ratio 4 / (2 x 2) = 1 within the tolerance: 2 pods hold (the sync
  // at 61 s reads 4.2 with the first pod's queue draining: ratio 1.05). Value reads the same 3.8 against 2 as
  // a group total: ceil(1 x 1.9) = 2, then ceil(2 x 4.2 / 2) = 5, one pod per sync, up to the maximum 4.
  const std::string platform = R"(  server_groups:
    gpu:
      devices: {type: T4, count: 1}
      autoscaler: {min: 1, max: 4, metric: pods_needed, metric_type: METRIC_TYPE, threshold: 2,
                   sync_period: "30.5s", metric_window: "30.5s", step_period: "30.5s", startup_delay: "0s"}
)";
  const auto with_type = [&](const std::string& type) {
    std::string text = platform;
    text.replace(text.find("METRIC_TYPE"), 11, type);
    return scenario(text, "  jobs: 4\n  events_per_job: 50\n");
  };
  const auto average = simulate_text(with_type("average_value"), "ops_pods_needed_average");
  const auto& held = average.operations->pools.front();
  CHECK(*held.first_scale_up_decided_s == doctest::Approx(30.5));
  CHECK(held.peak_pods == 2);
  CHECK(held.pods_added == 1);
  CHECK(held.pods_removed == 0);
  check_outcomes_add_up(average);
  const auto value = simulate_text(with_type("value"), "ops_pods_needed_value");
  const auto& climbed = value.operations->pools.front();
  CHECK(*climbed.first_scale_up_decided_s == doctest::Approx(30.5));
  CHECK(climbed.peak_pods == 4);
  CHECK(climbed.pods_added == 3);
  check_outcomes_add_up(value);
}

TEST_CASE(
    "operations: the chart's ratio of sums and Purdue's sum of ratios read the same load, a factor of the "
    "pods apart") {
  // Three jobs on two pods that stay (min = max = 2), least request: both pods always busy (three requests
  // out, two served at a time), so each executes a batch per second and, at every moment, one request waits.
  // Over a window both pods execute n batches and the waits add to W: the chart's query reads W / (2n),
  // Purdue's W / n + 0 or W_a / n + W_b / n, the same W / n however the waits split: exactly twice. The
  // first sync at 30.5 s: 31 batches started on each pod (at 0, 1, ..., 30 s), and one request waiting 1 s
  // in each of the 30 seconds: W = 30 s, the chart's 30 / 62 = 0.484 s, Purdue's 0.968 s.
  const auto read = [](const std::string& aggregation) {
    const std::string yaml = scenario(R"(  server_groups:
    gpu:
      devices: {type: T4, count: 1}
      autoscaler: {min: 2, max: 2, threshold: "10s", sync_period: "30.5s", metric_window: "30.5s",
                   aggregation: )" + aggregation +
                                          R"(}
)",
                                      "  jobs: 3\n  events_per_job: 40\n");
    const std::filesystem::path scratch = std::filesystem::temp_directory_path() / "sonicsim_test_operations";
    std::filesystem::create_directories(scratch);
    const std::string dir = (scratch / ("aggregation_" + aggregation)).string();
    std::ofstream(dir + ".yaml") << yaml;
    const auto result = run_sonicsim("run " + dir + ".yaml -q --out " + dir);
    REQUIRE(result.exit_code == 0);
    std::istringstream csv(read_text(dir + "/timeseries.csv"));
    std::string line;
    std::getline(csv, line);
    const auto header = sonicsim::split_csv_line(line);
    const auto column = static_cast<std::size_t>(
        std::find(header.begin(), header.end(), "gpu_autoscaler_queue_time_per_batch_s") - header.begin());
    REQUIRE(column < header.size());
    while (std::getline(csv, line)) {
      const auto fields = sonicsim::split_csv_line(line);
      if (std::stod(fields.at(0)) == 30.0)
        return std::stod(fields.at(column)); // the row of the sync at 30.5 s
    }
    return -1.0;
  };
  const double chart = read("ratio_of_sums");
  const double purdue = read("sum_of_ratios");
  CHECK(chart == doctest::Approx(30.0 / 62.0).epsilon(0.02));
  CHECK(purdue == doctest::Approx(2.0 * chart).epsilon(1e-6));
}

namespace {

// One job of two events on a group that scales to zero: each event a 1 s inference then 100 s of CPU work.
// Polls every 10 s read pods needed over the last 10 s (the chart's metric after 0.3.1: 1 while a
// request is answered unqueued, 0 with none), a pod serves 25 s after it is asked for.
std::string scale_to_zero_scenario(const std::string& hold_timeout) {
  return R"(seed: 1
platform:
  wan: {rtt: "0s"}
  network: {tcp_window: "0B"}
  server_groups:
    gpu:
      devices: {type: T4, count: 1}
      autoscaler: {min: 1, max: 1, metric: pods_needed, metric_type: average_value, threshold: 2,
                   poll_interval: "10s", metric_window: "10s", startup_delay: "25s",
                   scale_to_zero: {idle_period: "30s", hold_timeout: ")" +
         hold_timeout + R"("}}
)" + unit_model +
         R"(workload:
  jobs: 1
  events_per_job: 2
  client: {retries: 0}
  pipeline:
    - {name: infer, type: remote_inference, model: unit, inferences: 1, max_batch: 1}
    - {name: other, type: cpu, duration: "100s"}
output: {precision: off}
)";
}

} // namespace

TEST_CASE("operations: scale to zero holds the first client until a pod serves, and idles back to zero") {
  // The job starts at 0 s with no pod: its first call is held. The poll at 10 s sees a held client: active,
  // one pod asked for, serving at 35 s, when the client is released (held 35 s). Event 1: inference 35-36 s,
  // CPU 36-136 s. The poll at 40 s reads the answered request (pods needed 1 > 0: active); the polls at
  // 50, 60 and 70 s read none, and at 70 s the group has been inactive for 30 s (idle_period): to 0 pods.
  // Event 2's request at 136 s finds no pod: refused, no retry, the event fails. The pod was held from 10 to
  // 70 s: 60 device-seconds.
  const auto summary = simulate_text(scale_to_zero_scenario("300s"), "ops_scale_to_zero");
  const auto& operations = *summary.operations;
  REQUIRE(operations.client_holds.has_value());
  CHECK(operations.client_holds->released == 1);
  CHECK(operations.client_holds->timed_out == 0);
  CHECK(operations.client_holds->longest_held_s == doctest::Approx(35.0));
  const auto& pool = operations.pools.front();
  CHECK(pool.pods_added == 1);
  CHECK(pool.pods_removed == 1);
  CHECK(*pool.first_scale_up_decided_s == doctest::Approx(10.0));
  CHECK(*pool.first_scale_up_serving_s == doctest::Approx(35.0));
  CHECK(pool.device_hours * 3600.0 == doctest::Approx(60.0));
  CHECK(operations.events.completed == 1);
  CHECK(operations.events.failed_rejected == 1);
  check_outcomes_add_up(summary);
}

TEST_CASE("operations: a held client whose hold times out is refused, as by a rate limit") {
  // The same job held at most 20 s: the pod asked for at 10 s would serve at 35 s, too late. At 20 s the
  // client is refused; without a fallback every request is refused and both events fail.
  const auto summary = simulate_text(scale_to_zero_scenario("20s"), "ops_scale_to_zero_timeout");
  const auto& operations = *summary.operations;
  REQUIRE(operations.client_holds.has_value());
  CHECK(operations.client_holds->released == 0);
  CHECK(operations.client_holds->timed_out == 1);
  CHECK(operations.clients_refused == 1);
  CHECK(operations.events.failed_rejected == 2);
  CHECK(operations.events.completed == 0);
  check_outcomes_add_up(summary);
}
