// Envoy's limits on scenarios small enough to follow by hand (sim/scenario/operations.hpp): the circuit
// breaker (proxy.max_requests x proxy.replicas requests in flight, the excess failed at once) and a removed
// pod's pre-stop period (autoscaler.drain_period, then the requests it still holds reset), on the operations
// tests' unit model (unit_model_scenario.hpp).
#include "simulate.hpp"
#include "unit_model_scenario.hpp"

#include <doctest/doctest.h>

#include <string>

using sonicsim::testing::simulate_text;

namespace {

using sonicsim::testing::check_outcomes_add_up;

// The operations tests' unit model on one T4 group, `gpu`, whose operations keys are `group` (lines indented
// under it).
std::string scenario(const std::string& group, const std::string& workload) {
  return sonicsim::testing::scenario(
      "  server_groups:\n    gpu:\n      devices: {type: T4, count: 1}\n" + group, workload);
}

} // namespace

TEST_CASE("envoy: the circuit breaker fails the requests beyond max_requests x replicas at once") {
  // One pod, four jobs of three events from 0 s, no retry. Envoy admits two requests in flight (max_requests
  // 1 per replica, 2 replicas): two jobs' requests go to the pod (served 0-1 s and 1-2 s); the other two
  // jobs' requests overflow at once, their events fail, and their next events overflow again at 0 s, all
  // three of each: 6 overflows, 6 failed events. The two admitted jobs always find at most one other request
  // in flight (the pod answers one, the job sends its next): their 6 events complete.
  const auto tight =
      simulate_text(scenario("      proxy: {balancing: round_robin, max_requests: 1, replicas: 2}\n",
                             "  jobs: 4\n  events_per_job: 3\n  client: {retries: 0}\n"),
                    "envoy_circuit_breaker");
  const auto& ops = *tight.operations;
  CHECK(ops.requests_overflowed == 6);
  CHECK(ops.requests_refused == 6); // the overflows are the refusals: no rate limit, a pod always serves
  CHECK(ops.events.failed_rejected == 6);
  CHECK(ops.events.completed == 6);
  check_outcomes_add_up(tight);
  // Room for all four (the default 1,024): nothing overflows and every event completes.
  const auto roomy = simulate_text(scenario("      proxy: {balancing: round_robin}\n",
                                            "  jobs: 4\n  events_per_job: 3\n  client: {retries: 0}\n"),
                                   "envoy_circuit_breaker_default");
  CHECK(roomy.operations->requests_overflowed == 0);
  CHECK(roomy.operations->events.completed == 12);
}

TEST_CASE(
    "envoy: a removed pod serves through its pre-stop period, then its requests reset and are retried") {
  // operations' scale-down case (test_operations.cpp): two jobs of 40 events, a second pod from 10.3 s, and
  // at 41.2 s pod 1 removed with its job's batch of 41-42 s in it. With a 0.5 s pre-stop period the pod is
  // stopped at 41.7 s, before that batch ends: its request is reset, the client hears it at once (RTT 0)
  // and retries on pod 0 at once (backoff 0), behind the other job's batch of 41-42 s. Nothing is lost and
  // all 80 events complete: 79 at their first try, one after the retry.
  const std::string group =
      R"(      autoscaler: {min: 1, max: 2, threshold: "0.5s", sync_period: "10.3s", startup_delay: "0s",
                   scale_down_window: "30s", metric_window: "10.3s", step_period: "10.3s",
                   drain_period: "0.5s"}
)";
  const auto summary = simulate_text(
      scenario(group, "  jobs: 2\n  events_per_job: 40\n  client: {retries: 1, retry_backoff: \"0s\"}\n"),
      "envoy_drain");
  const auto& ops = *summary.operations;
  CHECK(ops.pools.front().pods_removed == 1);
  CHECK(ops.requests_reset == 1);
  CHECK(ops.requests_lost == 0);
  CHECK(ops.events.completed == 79); // at the first try
  CHECK(ops.events.completed_after_retry == 1);
  check_outcomes_add_up(summary);
  // The same with the chart's 60 s: the batch ends at 42 s, well within it; nothing is reset.
  std::string chart_drain = group;
  chart_drain.replace(chart_drain.find("0.5s\"}"), 6, "60s\"}");
  const auto within = simulate_text(
      scenario(chart_drain,
               "  jobs: 2\n  events_per_job: 40\n  client: {retries: 1, retry_backoff: \"0s\"}\n"),
      "envoy_drain_60s");
  CHECK(within.operations->requests_reset == 0);
  CHECK(within.operations->events.completed_after_retry == 0);
}
