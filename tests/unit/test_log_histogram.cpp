#include "sim/metrics/log_histogram.hpp"
#include "sim/metrics/time_bins.hpp"

#include <doctest/doctest.h>

TEST_CASE("log histogram percentiles are exact to half a bin (0.05 %)") {
  sonicsim::LogHistogram histogram;
  for (int i = 1; i <= 1000; ++i)
    histogram.add(i * 0.1); // 0.1 .. 100 s
  CHECK(histogram.count() == 1000);
  CHECK(histogram.mean() == doctest::Approx(50.05)); // (0.1 + 100) / 2, kept exactly
  // Nearest rank: p50 is the 500th value (50.0 s), p95 the 950th (95.0 s), p99 the 990th (99.0 s).
  CHECK(histogram.quantile(0.50) == doctest::Approx(50.0).epsilon(5e-4));
  CHECK(histogram.quantile(0.95) == doctest::Approx(95.0).epsilon(5e-4));
  CHECK(histogram.quantile(0.99) == doctest::Approx(99.0).epsilon(5e-4));
  CHECK(histogram.quantile(1.0) == doctest::Approx(100.0));
}

TEST_CASE("time bins spread an amount over its interval") {
  sonicsim::TimeBins bins(1.0);
  bins.add_spread(0.5, 2.5, 4.0); // 2 per second: 1 in [0,1), 2 in [1,2), 1 in [2,3)
  CHECK(bins.bin(0) == doctest::Approx(1.0));
  CHECK(bins.bin(1) == doctest::Approx(2.0));
  CHECK(bins.bin(2) == doctest::Approx(1.0));
  CHECK(bins.sum_between(0.0, 3.0) == doctest::Approx(4.0));
  CHECK(bins.sum_between(1.0, 1.5) == doctest::Approx(1.0)); // half of bin 1
}
