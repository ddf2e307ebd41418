// Where a curve falls below a level (models/crossing.hpp), hand-computed.
#include "models/crossing.hpp"

#include <doctest/doctest.h>

#include <cmath>

using namespace sonicsim::models;

TEST_CASE("the first fall below a level is interpolated between the two points around it") {
  // The CMS AK4 scan's means at 148 and 180 jobs against 3.88: d0 = 0.090, d1 = -0.107, so
  // x = 148 + 32 x 0.090 / 0.197 = 162.62.
  const auto c = first_fall_below({60, 148, 180}, {3.96, 3.97, 3.773}, {3.88, 3.88, 3.88});
  REQUIRE(c);
  CHECK(c->x == doctest::Approx(148 + 32 * 0.090 / 0.197));
  CHECK(c->lower_x == 148);
  CHECK(c->upper_x == 180);
  CHECK(c->se == 0.0); // no errors given
  // With standard errors 0.0102 and 0.0068 on the two points: dx/dd0 = 32 x 0.107 / 0.197^2 = 88.2,
  // dx/dd1 = 32 x 0.090 / 0.197^2 = 74.2; se = sqrt((88.2 x 0.0102)^2 + (74.2 x 0.0068)^2) = 1.03.
  const auto e = first_fall_below({148, 180}, {3.97, 3.773}, {3.88, 3.88}, {0.0102, 0.0068});
  REQUIRE(e);
  CHECK(e->se == doctest::Approx(std::hypot(32 * 0.107 / (0.197 * 0.197) * 0.0102,
                                            32 * 0.090 / (0.197 * 0.197) * 0.0068)));
  // A level that differs per point (the simulation's own direct level): the difference is interpolated.
  const auto d = first_fall_below({10, 20}, {4.2, 4.0}, {4.1, 4.1});
  REQUIRE(d);
  CHECK(d->x == doctest::Approx(15.0));
}

TEST_CASE("no crossing: never below, or below from the first point") {
  CHECK_FALSE(first_fall_below({1, 2, 3}, {5, 5, 5}, {4, 4, 4}));
  CHECK_FALSE(first_fall_below({1, 2, 3}, {3, 2, 1}, {4, 4, 4}));
  CHECK_THROWS(first_fall_below({1, 1}, {5, 3}, {4, 4})); // x not increasing
  CHECK_THROWS(first_fall_below({1, 2}, {5, 3}, {4}));    // lengths differ
}

TEST_CASE(
    "crossings read in waves: the whole curve's answer, and no point after a curve's first fall asked") {
  // Four curves on one sweep of 6 points, level 1: falls between points 2 and 3, below from the first point,
  // never falls, and falls at point 1 then rises again (the first fall counts, as for the whole curve).
  const std::vector<double> xs{10, 20, 30, 40, 50, 60};
  const std::vector<std::vector<double>> ys{{2.0, 1.8, 1.4, 0.6, 0.2, 0.1},
                                            {0.5, 0.4, 0.3, 0.2, 0.1, 0.0},
                                            {3.0, 2.9, 2.8, 2.7, 2.6, 2.5},
                                            {1.5, 0.5, 1.5, 1.5, 0.5, 0.5}};
  std::vector<std::vector<std::size_t>> asked(ys.size());
  int waves = 0;
  const auto crossings = first_falls_in_waves(xs, ys.size(), [&](const auto& wave) {
    ++waves;
    std::vector<CurvePoint> out;
    for (const auto& [curve, i] : wave) {
      asked[curve].push_back(i);
      out.push_back({ys[curve][i], 1.0});
    }
    return out;
  });
  REQUIRE(crossings.size() == ys.size());
  for (std::size_t c = 0; c < ys.size(); ++c) {
    const auto whole = first_fall_below(xs, ys[c], std::vector<double>(xs.size(), 1.0));
    REQUIRE(crossings[c].has_value() == whole.has_value());
    if (whole) CHECK(crossings[c]->x == doctest::Approx(whole->x));
  }
  CHECK(crossings[0]->x == doctest::Approx(30 + 10 * 0.4 / 0.8)); // 1.4 -> 0.6 across 1: x = 35
  // Points asked, each once and in order: up to the first fall (index 3), the first wave's two for the curve
  // below from the start, all six for the one that never falls, and two for the one falling at point 1.
  CHECK(asked[0] == std::vector<std::size_t>{0, 1, 2, 3});
  CHECK(asked[1] == std::vector<std::size_t>{0, 1});
  CHECK(asked[2] == std::vector<std::size_t>{0, 1, 2, 3, 4, 5});
  CHECK(asked[3] == std::vector<std::size_t>{0, 1});
  CHECK(waves == 5); // two points, then one a wave until the curve that never falls ends the sweep
  // Fewer than two points: no crossing, nothing asked.
  int one_point_asked = 0;
  CHECK_FALSE(first_falls_in_waves({10}, 1, [&](const auto& wave) {
                one_point_asked += static_cast<int>(wave.size());
                return std::vector<CurvePoint>(wave.size());
              }).front());
  CHECK(one_point_asked == 0);
}

TEST_CASE("first_falls_in_waves: sweeps of their own read in the same waves, each as a whole sweep gives") {
  // Two cases of one validation: a short sweep falling at its third point, a long one falling at its fifth.
  const std::vector<std::vector<double>> xs{{60, 100, 130, 150}, {40, 60, 80, 100, 130, 170, 240}};
  const std::vector<std::vector<double>> ys{{4.2, 4.1, 3.5, 3.0}, {2.0, 1.9, 1.8, 1.7, 1.4, 1.2, 1.0}};
  const std::vector<double> levels{3.9, 1.5};
  std::vector<std::vector<std::size_t>> asked(xs.size());
  std::vector<std::size_t> wave_sizes;
  const auto crossings = first_falls_in_waves(xs, [&](const auto& wave) {
    wave_sizes.push_back(wave.size());
    std::vector<CurvePoint> out;
    for (const auto& [curve, i] : wave) {
      asked[curve].push_back(i);
      out.push_back({ys[curve][i], levels[curve]});
    }
    return out;
  });
  REQUIRE(crossings.size() == 2);
  for (std::size_t c = 0; c < xs.size(); ++c) {
    const auto whole = first_fall_below(xs[c], ys[c], std::vector<double>(xs[c].size(), levels[c]));
    REQUIRE(whole);
    REQUIRE(crossings[c]);
    CHECK(crossings[c]->x == doctest::Approx(whole->x));
  }
  CHECK(crossings[0]->x == doctest::Approx(100 + 30 * 0.2 / 0.6)); // 4.1 -> 3.5 across 3.9: 110 jobs
  CHECK(crossings[1]->x == doctest::Approx(100 + 30 * 0.2 / 0.3)); // 1.7 -> 1.4 across 1.5: 120 jobs
  // Each up to its fall (the long sweep's last two points, 170 and 240 jobs, never run); the waves are
  // shared: both curves' first two points, then one more of each while it has not fallen.
  CHECK(asked[0] == std::vector<std::size_t>{0, 1, 2});
  CHECK(asked[1] == std::vector<std::size_t>{0, 1, 2, 3, 4});
  CHECK(wave_sizes == std::vector<std::size_t>{4, 2, 1, 1});
}
