// Peak detection on per-event time histograms (sim/metrics/histogram_peaks.hpp).
#include <doctest/doctest.h>

#include <cmath>

#include "sim/metrics/histogram_peaks.hpp"

using namespace sonicsim;

namespace {
std::vector<double> two_bumps(double second_height, double second_at) {
  std::vector<double> counts(120, 0.0);
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const double x = static_cast<double>(i);
    counts[i] = 100.0 * std::exp(-0.5 * std::pow((x - 25.0) / 4.0, 2)) +
                second_height * std::exp(-0.5 * std::pow((x - second_at) / 6.0, 2));
  }
  return counts;
}
} // namespace

TEST_CASE("campaign peaks: two separated bumps are two peaks, a shoulder or a small bump is not") {
  auto peaks = find_peaks(two_bumps(60.0, 55.0), 1.0);
  REQUIRE(peaks.size() == 2);
  CHECK(peaks[0].position_s == doctest::Approx(25.5).epsilon(0.05));
  CHECK(peaks[1].position_s == doctest::Approx(55.5).epsilon(0.05));
  CHECK(find_peaks(two_bumps(60.0, 33.0), 1.0).size() == 1); // overlapping: no deep valley
  CHECK(find_peaks(two_bumps(5.0, 70.0), 1.0).size() == 1);  // below 10 % of the highest
  CHECK(find_peaks(std::vector<double>(10, 0.0), 1.0).empty());
}
