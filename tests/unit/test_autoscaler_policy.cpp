// The autoscaler's decision on sequences of metric values, each answer computed by hand from the HPA's rule
// (sim/policy/autoscaler.hpp).
#include "sim/policy/autoscaler.hpp"

#include <doctest/doctest.h>

using namespace sonicsim;

namespace {
AutoscalerSettings settings_1_to_10() {
  AutoscalerSettings s;
  s.min_replicas = 1;
  s.max_replicas = 10;
  s.threshold = 0.020; // 20 ms, Purdue's serverLoadThreshold
  s.poll_interval_s = 30;
  s.tolerance = 0.1;
  s.step = 1;
  s.scale_up_window_s = 0;
  s.scale_down_window_s = 120;
  return s;
}
} // namespace

TEST_CASE("autoscaler: below, within and above the threshold") {
  AutoscalerPolicy policy(settings_1_to_10());
  // 10 ms against 20 ms with 1 replica: ceil(1 x 0.5) = 1, already the minimum.
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
  // Load at 40 ms with 4 replicas: raw ceil(4 x 2) = 8, one step: 5.
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
  s.step = 4;
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
  s.min_replicas = 2;
  s.scale_down_window_s = 0;
  s.step = 2;
  AutoscalerPolicy policy(s);
  // raw ceil(6 x 0) = 0 -> the minimum 2; two pods per poll: 4, then 2, then 2.
  CHECK(policy.decide(0, 0.0, 6) == 4);
  CHECK(policy.decide(30, 0.0, 4) == 2);
  CHECK(policy.decide(60, 0.0, 2) == 2);
}
