#include "sim/metrics/time_bins.hpp"

#include <doctest/doctest.h>

using sonicsim::TimeBins;

TEST_CASE("time bins spread an amount over the bins it lasts") {
  TimeBins bins(1.0);
  // 10 bytes over [0.5 s, 2.5 s): 2.5 in bin 0, 5 in bin 1, 2.5 in bin 2.
  bins.add_spread(0.5, 2.5, 10.0);
  CHECK(bins.bin(0) == doctest::Approx(2.5));
  CHECK(bins.bin(1) == doctest::Approx(5.0));
  CHECK(bins.bin(2) == doctest::Approx(2.5));
  CHECK(bins.sum_between(0.0, 1.5) == doctest::Approx(2.5 + 2.5)); // half of bin 1, pro rata
  CHECK(bins.sum_between(5.0, 6.0) == 0.0);
  CHECK(bins.sum_between(2.0, 1.0) == 0.0);
}

TEST_CASE("time bins coarsen instead of growing without bound") {
  // 1 s bins; an amount at t = 1e7 s would need 10 million bins: the width doubles twice (to 4 s, 2.5 million
  // bins) and everything recorded before stays in the sums.
  TimeBins bins(1.0);
  bins.add_spread(0.0, 1000.0, 100.0);
  bins.add_at(1e7, 5.0);
  CHECK(bins.size() <= TimeBins::max_bins);
  CHECK(bins.bin_width_s() == 4.0);
  CHECK(bins.sum_between(0.0, 2e7) == doctest::Approx(105.0));
  CHECK(bins.sum_between(0.0, 1000.0) == doctest::Approx(100.0)); // 1000 s is a whole number of 4 s bins
  CHECK(bins.horizon_s() == doctest::Approx(1e7 + 4.0));
  // A spread that reaches far ahead coarsens before its start is binned.
  bins.add_spread(0.0, 1e8, 1e8);
  CHECK(bins.size() <= TimeBins::max_bins);
  CHECK(bins.sum_between(0.0, 1e9) == doctest::Approx(105.0 + 1e8));
}
