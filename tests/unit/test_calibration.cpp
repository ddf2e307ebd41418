// The calibration fit on predictors whose answer is known by hand.
#include "models/student_t.hpp"
#include "sim/calibration/calibration.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

using namespace sonicsim::calibration;

TEST_CASE("Student t 97.5 % quantiles") {
  CHECK(sonicsim::models::student_t_975(1) == doctest::Approx(12.706).epsilon(1e-4));
  CHECK(sonicsim::models::student_t_975(10) == doctest::Approx(2.228).epsilon(1e-3)); // A&S Table 26.10
  CHECK(sonicsim::models::student_t_975(30) == doctest::Approx(2.042).epsilon(1e-3));
  CHECK(sonicsim::models::student_t_975(1000) == doctest::Approx(1.962).epsilon(1e-3));
}

TEST_CASE("a straight line's slope is recovered with its confidence interval") {
  // y = 3 + 2 x at x = 1..10, measured with sd 0.5 and an alternating +-0.5 error: the least-squares slope of
  // that data is 2 + 0.5 x (sum of (-1)^i (x_i - 5.5)) / (sum of (x_i - 5.5)^2) = 2 + 0.5 x 5 / 82.5
  // = 2.0303.
  std::vector<DataPoint> data;
  for (int i = 1; i <= 10; ++i)
    data.push_back(DataPoint{static_cast<double>(i), 3.0 + 2.0 * i + (i % 2 ? -0.5 : 0.5), 0.5});
  int calls = 0;
  const Predictor predict = [&](const std::vector<double>& v) {
    ++calls;
    std::vector<double> y;
    for (const auto& point : data)
      y.push_back(v[0] + v[1] * point.x);
    return y;
  };
  const auto result = calibrate({{"intercept", -10, 10, ""}, {"slope", 0, 5, ""}}, {0.0, 1.0}, data, predict);
  CHECK(result.values[1] == doctest::Approx(2.0303).epsilon(1e-3));
  CHECK(result.identifiable[0]);
  CHECK(result.identifiable[1]);
  CHECK_FALSE(result.at_bound[1]);
  // The slope's standard error: sd / sqrt(sum (x - 5.5)^2) = 0.5 / sqrt(82.5) = 0.055, times t_{0.975,8}
  // = 2.306 (the residuals scatter exactly as the sd says: reduced chi-square ~1).
  CHECK(result.ci95_half_width[1] == doctest::Approx(2.306 * 0.5 / std::sqrt(82.5)).epsilon(0.05));
  CHECK(result.after.mape < result.before.mape);
  CHECK(result.after.pearson_r == doctest::Approx(1.0).epsilon(0.01));
  CHECK(result.evaluations == calls);
}

TEST_CASE("the interval carries the seeds' part: a fit at another seed would move the value") {
  // A constant c fitted to 4 points of 5 +- 1: fit part t_{0.975,3} x 1 / sqrt(4) = 3.182 x 0.5. The other
  // two seeds predict c + 0.2 and c - 0.2 at every point, so their fits are 4.8 and 5.2: the answer is the
  // mean 5, its seeds' part t_{0.975,2} x 0.2 / sqrt(3) = 4.303 x 0.11547 (sd of 5, 4.8, 5.2 is 0.2).
  const std::vector<DataPoint> data{{1, 5, 1}, {2, 5, 1}, {3, 5, 1}, {4, 5, 1}};
  const auto at_offset = [](double offset) {
    return Predictor(
        [offset](const std::vector<double>& v) { return std::vector<double>(4, v[0] + offset); });
  };
  const auto result =
      calibrate({{"c", 0, 10, ""}}, {1.0}, data, at_offset(0.0), 40, {at_offset(0.2), at_offset(-0.2)});
  CHECK(result.values[0] == doctest::Approx(5.0).epsilon(1e-6));
  CHECK(result.seeds == 3);
  CHECK(result.ci95_seed_part[0] == doctest::Approx(4.303 * 0.2 / std::sqrt(3.0)).epsilon(1e-3));
  CHECK(result.ci95_half_width[0] ==
        doctest::Approx(std::hypot(3.182 * 0.5, 4.303 * 0.2 / std::sqrt(3.0))).epsilon(1e-3));
  // Without other seeds: the fit's part alone, and no seeds' part.
  const auto one_seed = calibrate({{"c", 0, 10, ""}}, {1.0}, data, at_offset(0.0));
  CHECK(one_seed.ci95_seed_part.empty());
  CHECK(one_seed.ci95_half_width[0] == doctest::Approx(3.182 * 0.5).epsilon(1e-3));
}

TEST_CASE(
    "a parameter whose seeds' fits sit on its bound is at its bound, though their mean is just inside") {
  // A constant c in [5, 10] fitted to 4 points of 5.1 +- 0.01: seeds 0 and 2 want 5.1, seed 1 (predicting
  // c + 0.2) 4.9, clamped to the bound 5. The mean 5.067 is inside, but a seed's fit ends on the bound and
  // the interval (seeds' part 4.303 x 0.0333) reaches it.
  const std::vector<DataPoint> data{{1, 5.1, 0.01}, {2, 5.1, 0.01}, {3, 5.1, 0.01}, {4, 5.1, 0.01}};
  const auto at_offset = [](double offset) {
    return Predictor(
        [offset](const std::vector<double>& v) { return std::vector<double>(4, v[0] + offset); });
  };
  const auto result =
      calibrate({{"c", 5, 10, ""}}, {7.0}, data, at_offset(0.0), 40, {at_offset(0.2), at_offset(0.0)});
  CHECK(result.values[0] == doctest::Approx((5.1 + 5.0 + 5.1) / 3.0).epsilon(1e-3));
  CHECK(result.at_bound[0]);
  // Seeds that agree well inside the range: not at a bound.
  const auto inside =
      calibrate({{"c", 0, 10, ""}}, {7.0}, data, at_offset(0.0), 40, {at_offset(-0.1), at_offset(0.1)});
  CHECK_FALSE(inside.at_bound[0]);
}

TEST_CASE("a parameter the data does not depend on is reported as not identifiable") {
  std::vector<DataPoint> data{{1, 2, 0.1}, {2, 4, 0.1}, {3, 6, 0.1}};
  const Predictor predict = [&](const std::vector<double>& v) {
    return std::vector<double>{v[0] * 1, v[0] * 2, v[0] * 3}; // v[1] is ignored
  };
  const auto result = calibrate({{"used", 0, 5, ""}, {"ignored", 0, 1, ""}}, {1.0, 0.5}, data, predict);
  CHECK(result.values[0] == doctest::Approx(2.0).epsilon(1e-3));
  CHECK(result.identifiable[0]);
  CHECK_FALSE(result.identifiable[1]);
  CHECK(std::isinf(result.ci95_half_width[1]));
}

TEST_CASE("two parameters the data see only as a sum are not separable; a line's two are") {
  // y = (a + b) x: every residual depends on a + b alone, so the fitted a and b are correlated -1 and only
  // their sum is measured (3, the data's slope).
  std::vector<DataPoint> data{{1, 3.1, 0.1}, {2, 5.9, 0.1}, {3, 9.05, 0.1}, {4, 12.0, 0.1}};
  const Predictor sum = [&](const std::vector<double>& v) {
    std::vector<double> y;
    for (const auto& point : data)
      y.push_back((v[0] + v[1]) * point.x);
    return y;
  };
  const auto tied = calibrate({{"a", 0, 5, ""}, {"b", 0, 5, ""}}, {1.0, 1.0}, data, sum);
  CHECK(tied.values[0] + tied.values[1] == doctest::Approx(3.0).epsilon(0.01));
  CHECK(tied.correlation[1] == doctest::Approx(-1.0).epsilon(0.01));
  CHECK_FALSE(tied.separable[0]);
  CHECK_FALSE(tied.separable[1]);
  // y = a + b x on x = 1..4: the intercept and slope are correlated -sum(x) / sqrt(n sum(x^2)) = -10 /
  // sqrt(4 x 30) = -0.913 by least squares: below 0.95, both measured.
  const Predictor line = [&](const std::vector<double>& v) {
    std::vector<double> y;
    for (const auto& point : data)
      y.push_back(v[0] + v[1] * point.x);
    return y;
  };
  const auto apart = calibrate({{"a", -5, 5, ""}, {"b", 0, 5, ""}}, {0.0, 1.0}, data, line);
  CHECK(apart.correlation[1] == doctest::Approx(-10.0 / std::sqrt(120.0)).epsilon(0.01));
  CHECK(apart.separable[0]);
  CHECK(apart.separable[1]);
  // The covariance is in the parameters' units: the slope's variance is sd^2 x reduced chi-square /
  // sum (x - 2.5)^2 at most; its square root times t is the half-width.
  CHECK(std::sqrt(apart.covariance[3]) * sonicsim::models::student_t_975(2) ==
        doctest::Approx(apart.ci95_half_width[1]).epsilon(1e-6));
}

TEST_CASE("calibration rejects what it cannot fit") {
  const Predictor predict = [](const std::vector<double>& v) { return std::vector<double>{v[0]}; };
  CHECK_THROWS_AS(calibrate({}, {}, {{1, 1, 1}}, predict), std::invalid_argument);
  CHECK_THROWS_AS(calibrate({{"p", 1, 1, ""}}, {1}, {{1, 1, 1}}, predict), std::invalid_argument);
  CHECK_THROWS_AS(calibrate({{"p", 0, 1, ""}}, {2}, {{1, 1, 1}}, predict), std::invalid_argument);
  CHECK_THROWS_AS(calibrate({{"p", 0, 1, ""}}, {0.5}, {{1, 1, 0}}, predict), std::invalid_argument);
}
