// Rival fits (sim/calibration/rival_fits.hpp): which starts' ends the data cannot tell from the best, and the
// predictions' span over them (sim/calibration/joint_prediction.hpp).
#include "models/chi_square.hpp"
#include "sim/calibration/joint_prediction.hpp"
#include "sim/calibration/rival_fits.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace sonicsim;

TEST_CASE("rival fits: the chi-square quantile, from the table and by Wilson-Hilferty") {
  CHECK(models::chi_square_95(1) == doctest::Approx(3.841));
  CHECK(models::chi_square_95(5) == doctest::Approx(11.070));
  CHECK(models::chi_square_95(10) == doctest::Approx(18.307));
  // Tables: 31.410 for 20 degrees of freedom, 43.773 for 30; the approximation is within 0.1 %.
  CHECK(models::chi_square_95(20) == doctest::Approx(31.410).epsilon(1e-3));
  CHECK(models::chi_square_95(30) == doctest::Approx(43.773).epsilon(1e-3));
  CHECK_THROWS_AS(models::chi_square_95(0), std::invalid_argument);
  // The 99.9 % quantile a fit restarts beyond (sim/calibration/calibration.cpp): tables 10.828 at 1 degree of
  // freedom (the approximation 11.16, 3 % high, on the side of not restarting) and 45.315 at 20 (45.44).
  CHECK(models::chi_square_999(1) == doctest::Approx(10.828).epsilon(0.035));
  CHECK(models::chi_square_999(1) > 10.828);
  CHECK(models::chi_square_999(20) == doctest::Approx(45.315).epsilon(0.005));
  CHECK(models::chi_square_999(0) == models::chi_square_999(1));
}

TEST_CASE("rival fits: a start within the scaled 95 % margin of the best is a rival, one beyond is not") {
  // The CMS fit's three starts at 12 points and 5 parameters: the best 406.72, a reduced chi-square of
  // 406.72 / 7 = 58.10, so a margin of 11.070 x 58.10 = 643.2: 489.13 is a rival, 1241.27 (834.6 above) not.
  const std::vector<FitStart> starts{
      {{}, {1.0}, 1241.27, 37}, {{}, {2.0}, 489.13, 43}, {{}, {3.0}, 406.72, 46}};
  CHECK(rival_margin(406.72, 12, 5) == doctest::Approx(11.070 * 406.72 / 7.0));
  const auto rivals = rival_fits(starts, 12, 5);
  REQUIRE(rivals.size() == 1);
  CHECK(rivals[0].start == 1);
  CHECK(rivals[0].values == std::vector<double>{2.0});
  CHECK(rivals[0].chi_square == 489.13);
  // A fit that matches its points (reduced chi-square 3 / 11, below 1) is not scaled down: the margin is the
  // quantile itself, 3.841 over one parameter, so 6.5 is a rival of 3 and 7.0 is not.
  const std::vector<FitStart> close{{{}, {0.0}, 3.0, 1}, {{}, {1.0}, 6.5, 1}, {{}, {2.0}, 7.0, 1}};
  const auto few = rival_fits(close, 12, 1);
  REQUIRE(few.size() == 1);
  CHECK(few[0].start == 1);
  // One start: nothing to compare.
  CHECK(rival_fits({starts[0]}, 12, 5).empty());
}

TEST_CASE("rival fits: each prediction is made at each rival's values, and the span covers it") {
  // The prediction is 10 a; a is fitted at 2 (sd 0.1, half-width 1.96); a rival fit put a at 2.5 (beyond
  // its upper bound 2.4, so run at 2.4): predicted 24, so the span runs from 20 - 1.96 to 24 + 1.96.
  JointSpec spec;
  JointParameter a;
  a.fit = {"a", 0.0, 2.4, ""};
  a.initial = a.assumed = 1.0;
  spec.parameters = {a};
  JointPrediction prediction;
  prediction.id = "ten_a";
  prediction.series = {"line"};
  prediction.replications = 1;
  JointSimulator simulator;
  std::vector<std::vector<double>> asked;
  simulator.prediction = [&](const JointSpec&, const JointPrediction&,
                             const std::vector<std::vector<double>>& values) {
    std::vector<std::vector<std::optional<double>>> out;
    for (const auto& v : values) {
      asked.push_back(v);
      out.push_back({10.0 * v[0]});
    }
    return out;
  };
  const auto p = predict(spec, prediction, simulator, {2.0}, {0.01}, {true}, {{1, {2.5}, 480.0}});
  REQUIRE(asked.size() == 3); // the value, one sd up, the rival
  CHECK(asked[2][0] == 2.4);
  REQUIRE(p.value);
  CHECK(*p.value == doctest::Approx(20.0));
  REQUIRE(p.rivals.size() == 1);
  CHECK(p.rivals[0].start == 1);
  CHECK(p.rivals[0].chi_square == 480.0);
  CHECK(*p.rivals[0].prediction == doctest::Approx(24.0));
  CHECK(p.span().first == doctest::Approx(20.0 - 1.96));
  CHECK(p.span().second == doctest::Approx(24.0 + 1.96));
}
