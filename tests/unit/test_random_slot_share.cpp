// workload.campaign.slots_random: the share of grid slots redrawn uniformly in [min, max] after exponential
// holding times. Statistical checks use 4,000 steps; each tolerance is 3 standard errors of the mean.
#include "sim/policy/random_slot_share.hpp"

#include <doctest/doctest.h>

#include "sim/random/random_engine.hpp"
#include <cmath>
#include <random>
#include <vector>

using sonicsim::Campaign;
using sonicsim::RandomSlotShare;

namespace {
Campaign::RandomSlots settings(double min, double max, double mean_hold_s) {
  Campaign::RandomSlots s;
  s.min_fraction = min;
  s.max_fraction = max;
  s.mean_hold_s = mean_hold_s;
  return s;
}
} // namespace

TEST_CASE("random slot share: values in [min, max], uniform mean, exponential holds of the given mean") {
  RandomSlotShare share(settings(0.2, 0.6, 100.0), sonicsim::RandomEngine(7));
  // Walk step by step: a change of value marks a new step (two equal doubles in a row have probability 0).
  double last = share.at(0.0), sum = last, since_s = 0.0, holds_sum_s = 0.0;
  int steps = 1, holds = 0;
  for (double t = 1.0; steps < 4000; t += 1.0) {
    const double v = share.at(t);
    if (v != last) {
      REQUIRE(v >= 0.2);
      REQUIRE(v <= 0.6);
      holds_sum_s += t - since_s;
      ++holds;
      since_s = t;
      sum += v;
      ++steps;
      last = v;
    }
  }
  // Uniform on [0.2, 0.6]: mean 0.4, sd 0.4 / sqrt(12) = 0.115; over 4,000 draws 3 se = 0.0055.
  CHECK(sum / steps == doctest::Approx(0.4).epsilon(0.0055 / 0.4));
  // Exponential, mean 100 s: 3 se over ~4,000 holds = 4.7 %; sampling every 1 s adds < 1 s.
  CHECK(holds_sum_s / holds == doctest::Approx(100.0).epsilon(0.05));
}

TEST_CASE("random slot share: the value at a time does not depend on what was asked before") {
  RandomSlotShare in_order(settings(0.0, 1.0, 60.0), sonicsim::RandomEngine(3));
  RandomSlotShare far_first(settings(0.0, 1.0, 60.0), sonicsim::RandomEngine(3));
  const double far = far_first.at(10000.0);
  std::vector<double> times{0.0, 30.0, 61.0, 500.0, 9999.0};
  for (const double t : times)
    CHECK(in_order.at(t) == far_first.at(t));
  CHECK(in_order.at(10000.0) == far);
}

TEST_CASE("random slot share: min == max is a constant share") {
  RandomSlotShare share(settings(0.5, 0.5, 10.0), sonicsim::RandomEngine(1));
  for (double t = 0; t < 1000; t += 7)
    CHECK(share.at(t) == 0.5);
}
