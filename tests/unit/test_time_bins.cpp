#include "sim/metrics/time_bins.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

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

TEST_CASE("time bins: a spread over many bins gives each bin what the bin-by-bin spread gives, in O(1)") {
  // 1 s bins. 1,000 over [0.5 s, 1000.5 s) is 1 per second: 0.5 in bin 0, 1 in each of bins 1-999, 0.5 in
  // bin 1000 (the long path, over 64 bins); beside it a short spread and an amount at a point, and a second
  // long spread overlapping the first: 600 over [200.25 s, 500.25 s), 2 per second.
  TimeBins bins(1.0);
  bins.add_spread(0.5, 1000.5, 1000.0);
  bins.add_spread(10.0, 12.0, 4.0);
  bins.add_at(10.5, 1.0);
  bins.add_spread(200.25, 500.25, 600.0);
  CHECK(bins.bin(0) == doctest::Approx(0.5));
  CHECK(bins.bin(1) == doctest::Approx(1.0));
  CHECK(bins.bin(10) == doctest::Approx(1.0 + 2.0 + 1.0));
  CHECK(bins.bin(200) == doctest::Approx(1.0 + 1.5));
  CHECK(bins.bin(201) == doctest::Approx(1.0 + 2.0));
  CHECK(bins.bin(500) == doctest::Approx(1.0 + 0.5));
  CHECK(bins.bin(999) == doctest::Approx(1.0));
  CHECK(bins.bin(1000) == doctest::Approx(0.5));
  CHECK(bins.bin(1001) == 0.0);
  CHECK(bins.sum_between(0.0, 2000.0) == doctest::Approx(1000.0 + 4.0 + 1.0 + 600.0));
  // Added after a read, and across a coarsening (the width doubles at 2,048 bins): the sums hold.
  TimeBins small(1.0, 2048);
  small.add_spread(0.0, 1500.0, 1500.0);
  CHECK(small.sum_between(0.0, 1500.0) == doctest::Approx(1500.0));
  small.add_spread(100.0, 3000.0, 2900.0);
  CHECK(small.bin_width_s() == 2.0);
  CHECK(small.sum_between(0.0, 3000.0) == doctest::Approx(1500.0 + 2900.0));
  CHECK(small.bin(0) == doctest::Approx(2.0));         // [0, 2 s): the first spread only
  CHECK(small.bin(100) == doctest::Approx(2.0 + 2.0)); // [200, 202 s): both
}

TEST_CASE("time bins: an amount goes to the bin the division gives, at and around every bin's edge") {
  // The bin of a time is floor(time / width) as the division rounds it; the bins look it up from the last
  // bin's exact range of times (no division when the time is in it). At a width of 0.1 s, k x 0.1 and its
  // neighbouring doubles are where a range found by multiplication would be off by one: each amount must
  // land where the division puts it, in increasing order (the range reused) and across the edges.
  const double width_s = 0.1;
  TimeBins bins(width_s);
  std::vector<double> expected;
  for (int k = 0; k < 3000; ++k) {
    const double edge_s = k * width_s;
    for (const double t : {std::nextafter(edge_s, 0.0), edge_s, std::nextafter(edge_s, 1e9), edge_s + 0.05}) {
      if (t < 0.0) continue;
      const auto index = static_cast<std::size_t>(t / width_s);
      if (expected.size() <= index) expected.resize(index + 1, 0.0);
      expected[index] += 1.0;
      bins.add_at(t, 1.0);
    }
  }
  REQUIRE(bins.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    CHECK(bins.bin(i) == expected[i]);
  }
  // A short spread whose start and end sit at edges: its two partial bins as the divisions give them.
  TimeBins spread(width_s);
  const double start_s = std::nextafter(30 * width_s, 0.0), end_s = 31 * width_s;
  spread.add_spread(start_s, end_s, 1.0);
  const auto first = static_cast<std::size_t>(start_s / width_s),
             last = static_cast<std::size_t>(end_s / width_s);
  double total = 0.0;
  for (std::size_t i = first; i <= last; ++i)
    total += spread.bin(i);
  CHECK(total == doctest::Approx(1.0));
  CHECK(spread.bin(first - 1) == 0.0);
  CHECK(spread.bin(last + 1) == 0.0);
}
