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
