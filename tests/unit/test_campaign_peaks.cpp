// Peak detection on per-event time histograms (sim/metrics/histogram_peaks.hpp).
#include <doctest/doctest.h>

#include <algorithm>
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

TEST_CASE("campaign peaks: a valley at 60 % of the lower peak separates two peaks when the counts can tell") {
  // Two regimes as in the 2022 campaign (the second the higher), their valley at about 60 % of the lower
  // peak: the rule before (a valley below 50 %) merged them.
  auto regimes = [](double scale) {
    std::vector<double> counts(120, 0.0);
    for (std::size_t i = 0; i < counts.size(); ++i) {
      const double x = static_cast<double>(i);
      counts[i] = scale * (60.0 * std::exp(-0.5 * std::pow((x - 22.0) / 5.0, 2)) +
                           100.0 * std::exp(-0.5 * std::pow((x - 45.0) / 7.0, 2)));
    }
    return counts;
  };
  const auto smoothed = smooth_counts(regimes(10.0), 3.0);
  const double valley = *std::min_element(smoothed.begin() + 22, smoothed.begin() + 46);
  CHECK(valley / smoothed[22] > 0.5);
  CHECK(valley / smoothed[22] < 0.8);
  // ~520 events per bin (smoothed) at the lower peak: the dip (198) is 22 standard errors (9) deep.
  const auto peaks = find_peaks(regimes(10.0), 1.0);
  REQUIRE(peaks.size() == 2);
  CHECK(peaks[0].position_s == doctest::Approx(22.5).epsilon(0.05));
  CHECK(peaks[1].position_s == doctest::Approx(45.5).epsilon(0.05));
  CHECK(find_peaks(regimes(10.0), 1.0, PeakRule{3.0, 0.10, 0.5, 3.0}).size() == 1); // the rule before
  // The same shape with ~0.9 events per bin at the lower peak: the dip (0.34) is within its standard error
  // (0.37), so one peak.
  CHECK(find_peaks(regimes(0.017), 1.0).size() == 1);
}
