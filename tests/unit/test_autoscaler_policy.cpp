// The autoscaler's decision on sequences of metric values, each answer computed by hand from the HPA's rule
// (sim/policy/autoscaler.hpp).
#include "sim/policy/autoscaler.hpp"

#include <doctest/doctest.h>

using namespace sonicsim;

namespace {
AutoscalerSettings settings_1_to_10() {
  AutoscalerSettings s;
  s.min_pods = 1;
  s.max_pods = 10;
  s.threshold = 0.020; // 20 ms, Purdue's serverLoadThreshold
  s.sync_period_s = 30;
  s.tolerance = 0.1;
  s.scale_up_policy = s.scale_down_policy = {1, 30};
  s.scale_up_window_s = 0;
  s.scale_down_window_s = 120;
  return s;
}
} // namespace

TEST_CASE("autoscaler: below, within and above the threshold") {
  AutoscalerPolicy policy(settings_1_to_10());
  // 10 ms against 20 ms with 1 pod: ceil(1 x 0.5) = 1, already the minimum.
  CHECK(policy.decide(0, 0.010, 1) == 1);
  // 21 ms: ratio 1.05 is within the 10 % tolerance: no change.
  CHECK(policy.decide(30, 0.021, 1) == 1);
  // 50 ms: ceil(1 x 2.5) = 3, but one step per poll: 2.
  CHECK(policy.decide(60, 0.050, 1) == 2);
  // Still 50 ms with 2: ceil(2 x 2.5) = 5, one step: 3.
  CHECK(policy.decide(90, 0.050, 2) == 3);
  // The raw recommendation itself is the HPA's ceil.
  CHECK(policy.raw_recommendation(0.050, 2) == 5);
  // Never above the maximum: ceil(10 x 2.5) = 25 -> 10.
  CHECK(policy.raw_recommendation(0.050, 10) == 10);
}

TEST_CASE("autoscaler: scale-down waits for its stabilisation window") {
  AutoscalerPolicy policy(settings_1_to_10());
  // Load at 40 ms with 4 pods: raw ceil(4 x 2) = 8, one step: 5.
  CHECK(policy.decide(0, 0.040, 4) == 5);
  // The load stops: raw 1 at each poll, but the highest raw count of the last 120 s is 8 (at t = 0): hold.
  CHECK(policy.decide(30, 0.0, 5) == 5);
  CHECK(policy.decide(60, 0.0, 5) == 5);
  CHECK(policy.decide(90, 0.0, 5) == 5);
  CHECK(policy.decide(120, 0.0, 5) == 5); // t = 0 is still within [0, 120]
  // At 150 s the window [30, 150] holds only 1s: down one step per poll.
  CHECK(policy.decide(150, 0.0, 5) == 4);
  CHECK(policy.decide(180, 0.0, 4) == 3);
  CHECK(policy.decide(210, 0.0, 3) == 2);
  CHECK(policy.decide(240, 0.0, 2) == 1);
  CHECK(policy.decide(270, 0.0, 1) == 1); // the minimum
}

TEST_CASE("autoscaler: a scale-up window takes the lowest recommendation in it") {
  AutoscalerSettings s = settings_1_to_10();
  s.scale_up_window_s = 60;
  s.scale_up_policy.pods = 4;
  AutoscalerPolicy policy(s);
  // 30 ms with 2: raw ceil(2 x 1.5) = 3, alone in the window: 3.
  CHECK(policy.decide(0, 0.030, 2) == 3);
  // 80 ms with 3: raw ceil(3 x 4) = 12 -> 10, but the window [-30, 30] still holds 3: stay at 3.
  CHECK(policy.decide(30, 0.080, 3) == 3);
  CHECK(policy.decide(60, 0.080, 3) == 3); // [0, 60] still holds the 3 of t = 0
  // [30, 90] holds only 10s: rise, at most 4 pods: 7.
  CHECK(policy.decide(90, 0.080, 3) == 7);
}

TEST_CASE("autoscaler: a metric of zero goes to the minimum, one step at a time once the window allows") {
  AutoscalerSettings s = settings_1_to_10();
  s.min_pods = 2;
  s.scale_down_window_s = 0;
  s.scale_down_policy.pods = 2;
  AutoscalerPolicy policy(s);
  // raw ceil(6 x 0) = 0 -> the minimum 2; two pods per poll: 4, then 2, then 2.
  CHECK(policy.decide(0, 0.0, 6) == 4);
  CHECK(policy.decide(30, 0.0, 4) == 2);
  CHECK(policy.decide(60, 0.0, 2) == 2);
}

TEST_CASE("autoscaler: a poll faster than the step period adds at most `step` pods per period") {
  // 1 s polls, step 1 per 30 s (the HPA scaling policy's periodSeconds), metric 5x the threshold throughout:
  // raw = ceil(pods x 5) each poll, but the pods added within the last 30 s are counted.
  AutoscalerSettings s = settings_1_to_10();
  s.sync_period_s = 1;
  s.scale_up_policy.period_s = 30;
  AutoscalerPolicy policy(s);
  CHECK(policy.decide(0, 0.100, 1) == 2); // nothing added in (-30, 0]: one step
  CHECK(policy.decide(1, 0.100, 2) == 2); // one pod added at 0, within (-29, 1]: no more
  CHECK(policy.decide(29, 0.100, 2) == 2);
  // At 30 the pod added at 0 is a period old: (0, 30] holds no change, so one more.
  CHECK(policy.decide(30, 0.100, 2) == 3);
  CHECK(policy.decide(31, 0.100, 3) == 3);
  // With 30 s polls the same rule is "one step per poll": the change 30 s before is out of the period.
  s.sync_period_s = 30;
  AutoscalerPolicy per_poll(s);
  CHECK(per_poll.decide(0, 0.100, 1) == 2);
  CHECK(per_poll.decide(30, 0.100, 2) == 3);
  CHECK(per_poll.decide(60, 0.100, 3) == 4);
  // A step period shorter than the poll counts as the poll: 60 s polls, 30 s period, one step per poll.
  s.sync_period_s = 60;
  AutoscalerPolicy slow(s);
  CHECK(slow.decide(0, 0.100, 1) == 2);
  CHECK(slow.decide(60, 0.100, 2) == 3);
}

TEST_CASE("autoscaler: AverageValue divides the metric by the threshold, whatever the pods") {
  // The chart after 0.3.1: the metric is the pods needed (a total), the threshold 2 per pod.
  AutoscalerSettings s = settings_1_to_10();
  s.metric_type = MetricType::average_value;
  s.threshold = 2.0;
  s.scale_up_policy = {10, 30};
  s.scale_down_window_s = 0;
  s.scale_down_policy = {10, 30};
  AutoscalerPolicy policy(s);
  // 9 needed with 2 pods: ratio 9 / (2 x 2) = 2.25, outside the tolerance: ceil(9 / 2) = 5.
  CHECK(policy.raw_recommendation(9.0, 2) == 5);
  // 9.2 with 5 pods: ratio 9.2 / 10 = 0.92, within the tolerance: hold 5.
  CHECK(policy.raw_recommendation(9.2, 5) == 5);
  // 8.5 with 5 pods: ratio 0.85, outside: ceil(8.5 / 2) = 5 still (the count the total needs).
  CHECK(policy.raw_recommendation(8.5, 5) == 5);
  // 3 with 5 pods: ratio 0.3: ceil(1.5) = 2. Value would give ceil(5 x 3 / 2) = 8 for the same reading.
  CHECK(policy.decide(0, 3.0, 5) == 2);
  AutoscalerSettings as_value = s;
  as_value.metric_type = MetricType::value;
  CHECK(AutoscalerPolicy(as_value).raw_recommendation(3.0, 5) == 8);
  // 0 pods read as 1 for the ratio (no division by zero): 4 needed -> ceil(4 / 2) = 2.
  CHECK(policy.raw_recommendation(4.0, 0) == 2);
}

TEST_CASE("autoscaler: each direction has its own scaling policy (the chart's scaleUp and scaleDown)") {
  // SuperSONIC 0.3.1's values.yaml: scaleUp 1 pod per 60 s, scaleDown 1 pod per 120 s; 30 s polls
  // (so.yaml's pollingInterval); no stabilisation here, to see the policies alone.
  AutoscalerSettings s = settings_1_to_10();
  s.scale_up_policy = {1, 60};
  s.scale_down_policy = {1, 120};
  s.scale_down_window_s = 0;
  AutoscalerPolicy policy(s);
  // 5x the threshold: up one pod at 0, none at 30 (the pod of t = 0 is within (-30, 30]), one at 60.
  CHECK(policy.decide(0, 0.100, 1) == 2);
  CHECK(policy.decide(30, 0.100, 2) == 2);
  CHECK(policy.decide(60, 0.100, 2) == 3);
  // The load stops: down one pod at 90 (no removal within (-30, 90]); the rise of t = 60 does not count
  // against removals.
  CHECK(policy.decide(90, 0.0, 3) == 2);
  // The removal of t = 90 is within (0, 120], (30, 150], (60, 180]: no more until 210.
  CHECK(policy.decide(120, 0.0, 2) == 2);
  CHECK(policy.decide(180, 0.0, 2) == 2);
  CHECK(policy.decide(210, 0.0, 2) == 1);
}

TEST_CASE("autoscaler: a new pod serves at the readiness probe's first success after its start-up") {
  AutoscalerSettings s;
  s.startup_delay_s = 245;
  CHECK(serving_delay_s(s) == 245); // no probe: at the start-up delay
  s.readiness_probe = AutoscalerSettings::ReadinessProbe{10, 10};
  CHECK(serving_delay_s(s) == doctest::Approx(250)); // probes at 10, 20, ..., 240, 250: the first after 245
  s.startup_delay_s = 240;
  CHECK(serving_delay_s(s) == doctest::Approx(240)); // on a probe: that one
  s.startup_delay_s = 3;
  CHECK(serving_delay_s(s) == doctest::Approx(10)); // before the first probe: the first
  s.readiness_probe = AutoscalerSettings::ReadinessProbe{0, 30};
  s.startup_delay_s = 241;
  CHECK(serving_delay_s(s) == doctest::Approx(270)); // probes every 30 s from 0: 240, 270
}
