// The joint calibration's decisions (sim/calibration/joint_fit.hpp, joint_prediction.hpp, model_form.hpp)
// with a stand-in for the simulations: each series is a closed-form function of the parameters, so every
// fitted value, adoption, interval and held-out error below is computed by hand.
#include "models/student_t.hpp"
#include "sim/calibration/conditional_fit.hpp"
#include "sim/calibration/held_out_coverage.hpp"
#include "sim/calibration/joint_fit.hpp"
#include "sim/calibration/joint_prediction.hpp"
#include "sim/calibration/model_form.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

using namespace sonicsim;

namespace {

JointParameter parameter(const std::string& key, double lower, double upper, double initial,
                         std::vector<std::string> series) {
  JointParameter p;
  p.fit = {key, lower, upper, ""};
  p.initial = initial;
  p.assumed = initial;
  p.series = std::move(series);
  return p;
}

JointSeries series(const std::string& name, const std::vector<std::pair<double, double>>& xy, double sd) {
  JointSeries s;
  s.name = name;
  for (const auto& [x, y] : xy)
    s.points.push_back({x, y, sd});
  return s;
}

// A parameter's value by its key: a leave-one-out fit passes only the parameters acting on the series it
// keeps, so the stand-in must not read them by position.
double value_of(const JointSpec& spec, const std::vector<double>& values, const std::string& key,
                double otherwise = 0.0) {
  for (std::size_t i = 0; i < spec.parameters.size(); ++i)
    if (spec.parameters[i].fit.key == key) return values[i];
  return otherwise;
}

// "line" is a x, "offset" is b + x, "knee" is x max(a, 1) (flat below a = 1); a prediction is 10 a plus a
// fixed scatter per replication (+0.1, -0.1, 0, ...).
JointSimulator stand_in(int* prediction_batches = nullptr) {
  JointSimulator simulator;
  simulator.series = [](const JointSpec& spec, const std::vector<double>& values, int) {
    std::vector<double> out;
    const double a = value_of(spec, values, "a"), b = value_of(spec, values, "b");
    for (const auto& s : spec.series)
      for (const auto& point : s.points)
        out.push_back(s.name == "offset" ? b + point.x
                      : s.name == "knee" ? point.x * std::max(a, 1.0)
                                         : a * point.x);
    return out;
  };
  simulator.prediction = [prediction_batches](const JointSpec& spec, const JointPrediction& prediction,
                                              const std::vector<std::vector<double>>& sets) {
    if (prediction_batches) ++*prediction_batches;
    const double scatter[] = {0.1, -0.1, 0.0};
    std::vector<std::vector<std::optional<double>>> out;
    for (const auto& values : sets) {
      out.emplace_back();
      for (int r = 0; r < prediction.replications; ++r)
        out.back().push_back(10.0 * value_of(spec, values, "a") +
                             (prediction.replications > 1 ? scatter[r % 3] : 0.0));
    }
    return out;
  };
  return simulator;
}

} // namespace

TEST_CASE(
    "joint fit: each series fits its own parameter; what no series moves is not adopted, and says why") {
  // line: y = 2 x at x = 1..5; offset: y = 3 + x at x = 1..3; c acts on a series that is not there.
  JointSpec spec;
  spec.parameters = {parameter("a", 0, 10, 1, {"line"}), parameter("b", 0, 10, 1, {"offset"}),
                     parameter("c", 0, 10, 5, {"ghost"})};
  spec.series = {series("line", {{1, 2}, {2, 4}, {3, 6}, {4, 8}, {5, 10}}, 0.1),
                 series("offset", {{1, 4}, {2, 5}, {3, 6}}, 0.1)};
  const auto fit = fit_joint(spec, stand_in());
  REQUIRE(fit.starts.size() == 1);
  CHECK(fit.result.values[0] == doctest::Approx(2.0).epsilon(1e-4));
  CHECK(fit.result.values[1] == doctest::Approx(3.0).epsilon(1e-4));
  // Before: a = 1 and b = 1 miss line by x (sum x^2 / 0.01 = 5500) and offset by 2 (3 x 4 / 0.01 = 1200).
  CHECK(fit.result.before.chi_square == doctest::Approx(6700.0).epsilon(1e-6));
  CHECK(fit.result.after.chi_square < 1e-6);
  const Adoption adoption = adopt(spec, fit.result);
  CHECK(adoption.adopted == std::vector<bool>{true, true, false});
  CHECK(adoption.why_not[2] == "not identifiable: no series moves with it");
  CHECK(adoption.values[0] == doctest::Approx(2.0).epsilon(1e-4));
  CHECK(adoption.values[2] == 5.0); // kept at its initial value, not at wherever the fit left it
  CHECK(adoption.checks.empty());   // the spec states no released facts
}

TEST_CASE("joint fit: two parameters seen only as their sum are refused as not separable, naming the other") {
  // line: y = (a + b) x, so only a + b = 2 is measured.
  JointSpec spec;
  spec.parameters = {parameter("a", 0, 10, 0.5, {}), parameter("b", 0, 10, 0.5, {})};
  spec.series = {series("line", {{1, 2}, {2, 4}, {3, 6}}, 0.1)};
  JointSimulator simulator = stand_in();
  simulator.series = [](const JointSpec& s, const std::vector<double>& v, int) {
    std::vector<double> out;
    for (const auto& point : s.series.front().points)
      out.push_back((v[0] + v[1]) * point.x);
    return out;
  };
  const auto fit = fit_joint(spec, simulator);
  CHECK(fit.result.values[0] + fit.result.values[1] == doctest::Approx(2.0).epsilon(1e-3));
  const Adoption adoption = adopt(spec, fit.result);
  CHECK(adoption.adopted == std::vector<bool>{false, false});
  CHECK(adoption.why_not[0].rfind("not separable from b (correlation -1", 0) == 0);
  CHECK(adoption.values == std::vector<double>{0.5, 0.5});
}

TEST_CASE("joint fit: a start beyond the knee finds what the initial values cannot, and the 'before' stays "
          "theirs") {
  // knee: y = x max(a, 1), measured 2 x. From a = 0.5 the model is flat (no slope to follow); from the
  // spec's further start a = 1.5 the fit reaches 2.
  JointSpec spec;
  spec.parameters = {parameter("a", 0.1, 5, 0.5, {})};
  spec.series = {series("knee", {{1, 2}, {2, 4}, {3, 6}}, 0.1)};
  spec.starts = {{1.5}};
  std::vector<FitStart> heard;
  const auto fit = fit_joint(spec, stand_in(), [&](const FitStart& s) { heard.push_back(s); });
  REQUIRE(fit.starts.size() == 2);
  CHECK(heard.size() == 2);
  // From 0.5 nothing moves: a stays, chi-square (2x - x)^2 / 0.01 summed = 14 / 0.01 = 1400.
  CHECK(fit.starts[0].chi_square == doctest::Approx(1400.0).epsilon(1e-6));
  CHECK(fit.starts[1].values[0] == doctest::Approx(2.0).epsilon(1e-4));
  CHECK(fit.result.values[0] == doctest::Approx(2.0).epsilon(1e-4));
  CHECK(fit.result.before.chi_square == doctest::Approx(1400.0).epsilon(1e-6));
  CHECK(fit.result.predicted_before == std::vector<double>{1.0, 2.0, 3.0});
}

TEST_CASE(
    "joint prediction: the seeds' part by Student's t, the fit's part through the gradient, in one batch") {
  // line: y = 2 x at x = 1..5, sd 0.1, exact: a's sd is 0.1 / sqrt(sum x^2) = 0.1 / sqrt(55) (the reduced
  // chi-square is below 1, so not inflated). The prediction 10 a + (0.1, -0.1, 0) over three replications:
  // value 20, seed se sqrt(0.02 / 2 / 3), gradient 10.
  JointSpec spec;
  spec.parameters = {parameter("a", 0, 10, 1, {"line"}), parameter("b", 0, 10, 1, {"offset"})};
  spec.series = {series("line", {{1, 2}, {2, 4}, {3, 6}, {4, 8}, {5, 10}}, 0.1),
                 series("offset", {{1, 4}, {2, 5}, {3, 6}}, 0.1)};
  JointPrediction prediction;
  prediction.id = "ten_a";
  prediction.series = {"line"}; // b does not act on it: no run is spent on its gradient
  prediction.replications = 3;
  const auto fit = fit_joint(spec, stand_in());
  const Adoption adoption = adopt(spec, fit.result);
  int batches = 0;
  const auto p =
      predict(spec, prediction, stand_in(&batches), adoption.values, fit.result.covariance, adoption.adopted);
  CHECK(batches == 1);
  REQUIRE(p.value);
  CHECK(*p.value == doctest::Approx(20.0).epsilon(1e-4));
  CHECK(p.gradient[0] == doctest::Approx(10.0).epsilon(1e-6));
  CHECK(p.gradient[1] == 0.0);
  const double sd_a = 0.1 / std::sqrt(55.0), seed_se = std::sqrt(0.02 / 2.0 / 3.0);
  CHECK(p.parameter_se == doctest::Approx(10.0 * sd_a).epsilon(1e-3));
  CHECK(p.seed_se == doctest::Approx(seed_se).epsilon(1e-9));
  CHECK(p.half_width ==
        doctest::Approx(std::hypot(1.96 * 10.0 * sd_a, models::student_t_975(2) * seed_se)).epsilon(1e-3));
}

TEST_CASE(
    "model form: each series predicted by a fit to the other; the prediction's interval carries the spread") {
  // p measures 2 x, q 2.2 x, both a x: a fit without p says a = 2.2 and misses p by +10 %; without q,
  // a = 2.0 misses q by -1/11. The prediction 10 a is then 22 and 20: jackknife se sqrt(1/2 x 2) = 1.
  JointSpec spec;
  spec.parameters = {parameter("a", 0.5, 5, 2.1, {})};
  spec.series = {series("p", {{1, 2.0}, {2, 4.0}}, 0.01), series("q", {{1, 2.2}, {2, 4.4}}, 0.01)};
  std::vector<HeldOutPoint> heard;
  const ModelForm form = leave_one_series_out(spec, stand_in(), {2.1},
                                              [&](const HeldOutPoint& point) { heard.push_back(point); });
  REQUIRE(form.values.size() == 2);
  CHECK(form.left_out == std::vector<std::string>{"p", "q"});
  CHECK(form.values[0][0] == doctest::Approx(2.2).epsilon(1e-4));
  CHECK(form.values[1][0] == doctest::Approx(2.0).epsilon(1e-4));
  REQUIRE(heard.size() == 4);
  CHECK(heard[0].relative_error() == doctest::Approx(0.1).epsilon(1e-3));
  CHECK(heard[2].relative_error() == doctest::Approx(-1.0 / 11.0).epsilon(1e-3));
  CHECK(form.relative_rms == doctest::Approx(std::sqrt((2 * 0.01 + 2.0 / 121.0) / 4.0)).epsilon(1e-3));
  // Each point's own error is 10 % or 9 %, inside 1.96 x the other series' ~9-10 % model error.
  CHECK(form.covered == 4);
  JointPrediction prediction;
  prediction.id = "ten_a";
  prediction.replications = 1;
  PredictionResult result;
  result.value = 21.0;
  result.half_width = 0.5;
  add_model_form(spec, prediction, stand_in(), form, {2.1}, result);
  REQUIRE(result.model_form_values.size() == 2);
  CHECK(result.model_form_values[0] == doctest::Approx(22.0).epsilon(1e-4));
  CHECK(result.model_form_values[1] == doctest::Approx(20.0).epsilon(1e-4));
  CHECK(result.model_form_se == doctest::Approx(1.0).epsilon(1e-3));
  // The misfit: the figure off by 1.96 x the held-out RMS (9.56 %) of itself, 21 x 18.7 % = 3.93.
  CHECK(result.model_error_relative == doctest::Approx(1.96 * form.relative_rms));
  CHECK(result.model_error_half_width == doctest::Approx(1.96 * form.relative_rms * 21.0).epsilon(1e-9));
  CHECK(result.half_width == doctest::Approx(std::hypot(std::hypot(0.5, models::student_t_975(1) * 1.0),
                                                        1.96 * form.relative_rms * 21.0))
                                 .epsilon(1e-3));
}

TEST_CASE("model form: a crossing moves to where the curve off by the held-out error crosses; a gain by its "
          "throughput's share") {
  // Per-job throughput 100 / jobs against a direct level of 2 (times the prediction's level_scale): it
  // crosses at 50 / level_scale jobs. A held-out RMS of 5 % puts the curve 9.8 % higher or lower: it then
  // crosses at 54.9 or 45.1 jobs, so the misfit's half-width is 4.9 jobs (both sides the same here).
  JointSpec spec;
  spec.parameters = {parameter("a", 0.5, 5, 2.0, {})};
  JointSimulator simulator = stand_in();
  simulator.prediction = [](const JointSpec&, const JointPrediction& prediction,
                            const std::vector<std::vector<double>>& sets) {
    std::vector<std::vector<std::optional<double>>> out;
    for (std::size_t v = 0; v < sets.size(); ++v) {
      const double crossing = 50.0 / prediction.level_scale;
      const bool within = crossing >= prediction.sweep.front() && crossing < prediction.sweep.back();
      out.emplace_back(static_cast<std::size_t>(prediction.replications),
                       within ? std::optional<double>(crossing) : std::nullopt);
    }
    return out;
  };
  ModelForm form;
  form.values = {{2.0}, {2.0}}; // the fits without each series did not move
  form.relative_rms = 0.05;
  JointPrediction prediction;
  prediction.observable = "crossing_jobs";
  prediction.sweep = {10, 20, 40, 60};
  prediction.replications = 2;
  PredictionResult result;
  result.value = 50.0;
  result.half_width = 1.0;
  add_model_form(spec, prediction, simulator, form, {2.0}, result);
  CHECK(result.model_form_se == 0.0);
  CHECK(result.model_error_half_width == doctest::Approx(50.0 * 1.96 * 0.05).epsilon(1e-9));
  CHECK(result.half_width == doctest::Approx(std::hypot(1.0, 4.9)).epsilon(1e-9));
  CHECK(result.problem.empty());

  // A curve so far off that it no longer crosses within the sweep: not bounded, and said.
  form.relative_rms = 0.2; // the curve 39 % higher crosses at 69.6 jobs, beyond the sweep
  PredictionResult unbounded;
  unbounded.value = 50.0;
  unbounded.half_width = 1.0; // the bounded parts
  add_model_form(spec, prediction, simulator, form, {2.0}, unbounded);
  CHECK(std::isinf(unbounded.half_width));
  CHECK(
      unbounded.problem.find("higher it stays above direct inference to the sweep's last point (60 jobs)") !=
      std::string::npos);
  REQUIRE(unbounded.crossing_curve_lower);
  CHECK(*unbounded.crossing_curve_lower == doctest::Approx(50.0 * (1.0 - 1.96 * 0.2)));
  CHECK(!unbounded.crossing_curve_higher);
  // Open above only: below, the bounded parts (1 job) and the misfit's 19.6 jobs on that side.
  CHECK(unbounded.bounded_parts_half_width == doctest::Approx(1.0));
  CHECK(unbounded.interval().first == doctest::Approx(50.0 - std::hypot(1.0, 19.6)));
  CHECK(std::isinf(unbounded.interval().second));
  // A rival fit at 45 jobs takes the same lower side; the span stays open above.
  unbounded.rivals.push_back({1, 0.0, 45.0});
  CHECK(unbounded.span().first == doctest::Approx(45.0 - std::hypot(1.0, 19.6)));
  CHECK(std::isinf(unbounded.span().second));

  // DeepMET's case: the curve 39 % lower is below direct inference from the sweep's first point (35 jobs) on,
  // so the released data cannot say it ever beats direct inference; the curve 39 % higher crosses at 69.6.
  prediction.sweep = {35, 60, 100};
  PredictionResult open_below;
  open_below.value = 50.0;
  open_below.half_width = 1.0;
  add_model_form(spec, prediction, simulator, form, {2.0}, open_below);
  CHECK(!open_below.crossing_curve_lower);
  REQUIRE(open_below.crossing_curve_higher);
  CHECK(std::isinf(open_below.interval().first));
  CHECK(open_below.interval().second ==
        doctest::Approx(50.0 + std::hypot(1.0, *open_below.crossing_curve_higher - 50.0)));
  CHECK(open_below.interval().second == doctest::Approx(50.0 + std::hypot(1.0, 19.6)));
  // A rival that does not cross within the sweep opens both sides: the sweep does not bound it.
  open_below.rivals.push_back({1, 0.0, std::nullopt});
  CHECK(std::isinf(open_below.span().first));
  CHECK(std::isinf(open_below.span().second));
  prediction.sweep = {10, 20, 40, 60};

  // A gain g = S / D - 1: S off by 9.8 % moves g by 9.8 % of (1 + g).
  form.relative_rms = 0.05;
  prediction.observable = "direct_inference_gain";
  PredictionResult gain;
  gain.value = 0.2;
  add_model_form(spec, prediction, simulator, form, {2.0}, gain);
  CHECK(gain.model_error_half_width == doctest::Approx(1.96 * 0.05 * 1.2).epsilon(1e-12));
}

TEST_CASE("joint fit at three seeds: the answer is the seeds' mean and its interval carries their spread") {
  // line: y = 2 x measured; replication r simulates a x (1 + e_r), e = 0, +1 %, -2 %, so each seed's fit is
  // a_r = 2 / (1 + e_r): 2, 1.980198, 2.040816. The answer is their mean, the seeds' part t_{2} times their
  // standard error (sd / sqrt 3).
  JointSpec spec;
  spec.parameters = {parameter("a", 0, 10, 1.0, {})};
  spec.series = {series("line", {{1, 2}, {2, 4}, {3, 6}, {4, 8}, {5, 10}}, 0.1)};
  JointSimulator simulator = stand_in();
  int highest_replication = 0;
  simulator.series = [&](const JointSpec& s, const std::vector<double>& v, int replication) {
    highest_replication = std::max(highest_replication, replication);
    const double e[] = {0.0, 0.01, -0.02};
    std::vector<double> out;
    for (const auto& point : s.series.front().points)
      out.push_back(v[0] * point.x * (1.0 + e[replication]));
    return out;
  };
  const std::vector<double> a{2.0, 2.0 / 1.01, 2.0 / 0.98};
  const double mean = (a[0] + a[1] + a[2]) / 3.0;
  double ss = 0.0;
  for (const double x : a)
    ss += (x - mean) * (x - mean);
  const double seed_part = models::student_t_975(2) * std::sqrt(ss / 2.0 / 3.0);

  spec.seeds = 1;
  const auto one = fit_joint(spec, simulator);
  CHECK(highest_replication == 0);
  CHECK(one.result.seeds == 1);
  CHECK(one.result.values[0] == doctest::Approx(2.0).epsilon(1e-4));
  CHECK(one.result.ci95_seed_part.empty());

  spec.seeds = 3;
  const auto three = fit_joint(spec, simulator);
  CHECK(highest_replication == 2);
  CHECK(three.result.seeds == 3);
  CHECK(three.result.values[0] == doctest::Approx(mean).epsilon(1e-4));
  REQUIRE(three.result.ci95_seed_part.size() == 1);
  CHECK(three.result.ci95_seed_part[0] == doctest::Approx(seed_part).epsilon(1e-3));
  // The fit's part is the same linear one (0.037, the data's sd through the Jacobian; reduced chi-square
  // below 1 at both answers); the seeds' part (0.077) joins it in quadrature and is most of the interval.
  CHECK(three.result.ci95_half_width[0] ==
        doctest::Approx(std::hypot(one.result.ci95_half_width[0], seed_part)).epsilon(1e-3));
  CHECK(seed_part > one.result.ci95_half_width[0]);
  // The uncalibrated prediction stays the one at the initial values, at the first seed.
  CHECK(three.result.predicted_before.front() == doctest::Approx(1.0));
}

TEST_CASE("conditional fit: parameters held where they are kept make the others be fitted again with them") {
  // y = a x + b + c measured as 2 x + 1 (x = 1..5): b and c are seen only as their sum, so neither is
  // adopted and both go back to their assumed values, 0.5 and 1. Fitted with b + c = 1.5, a = sum x (y - 1.5)
  // / sum x^2 = 2 - 0.5 x 15 / 55 = 1.86364, not the 2 it took beside b + c = 1.
  JointSpec spec;
  spec.parameters = {parameter("a", 0, 10, 1.0, {}), parameter("b", 0, 5, 2.0, {}),
                     parameter("c", 0, 5, 2.0, {})};
  spec.parameters[1].assumed = 0.5;
  spec.parameters[2].assumed = 1.0;
  spec.series = {series("line", {{1, 3}, {2, 5}, {3, 7}, {4, 9}, {5, 11}}, 0.1)};
  spec.seeds = 1;
  JointSimulator simulator = stand_in();
  simulator.series = [](const JointSpec& s, const std::vector<double>& v, int) {
    std::vector<double> out;
    for (const auto& point : s.series.front().points)
      out.push_back(value_of(s, v, "a") * point.x + value_of(s, v, "b") + value_of(s, v, "c"));
    return out;
  };
  const auto fit = fit_joint(spec, simulator);
  CHECK(fit.result.values[0] == doctest::Approx(2.0).epsilon(1e-3));
  std::vector<std::vector<std::string>> rounds;
  const ConditionalFit conditional =
      fit_conditionally(spec, simulator, fit.result, [&](const auto& held) { rounds.push_back(held); });
  CHECK(conditional.rounds == 1);
  CHECK(rounds == std::vector<std::vector<std::string>>{{"b", "c"}});
  CHECK(conditional.adoption.adopted == std::vector<bool>{true, false, false});
  CHECK(conditional.adoption.why_not[1].find("not separable from c") == 0);
  CHECK(conditional.adoption.values[0] == doctest::Approx(2.0 - 0.5 * 15.0 / 55.0).epsilon(1e-4));
  CHECK(conditional.adoption.values[1] == 0.5);
  CHECK(conditional.adoption.values[2] == 1.0);
  // The series after the fit are those of the scenarios as they will run: a = 1.86364 with b + c = 1.5.
  CHECK(conditional.result.predicted_after[0] ==
        doctest::Approx(2.0 - 0.5 * 15.0 / 55.0 + 1.5).epsilon(1e-4));
  // The held parameters keep what the full fit said of them, and no covariance.
  CHECK(!conditional.result.separable[1]);
  CHECK(conditional.result.covariance[1 * 3 + 1] == 0.0);
  CHECK(conditional.unconditional.values[0] == doctest::Approx(fit.result.values[0]));

  // Everything adopted at once: nothing is fitted again.
  spec.parameters.pop_back();
  spec.series.front().points = {{1, 2.5, 0.1}, {2, 4.5, 0.1}, {3, 6.5, 0.1}, {4, 8.5, 0.1}, {5, 10.5, 0.1}};
  simulator.series = [](const JointSpec& s, const std::vector<double>& v, int) {
    std::vector<double> out;
    for (const auto& point : s.series.front().points)
      out.push_back(value_of(s, v, "a") * point.x + value_of(s, v, "b"));
    return out;
  };
  const auto inside = fit_joint(spec, simulator);
  const ConditionalFit none = fit_conditionally(spec, simulator, inside.result);
  CHECK(none.rounds == 0);
  CHECK(none.unconditional.values.empty());
  CHECK(none.adoption.adopted == std::vector<bool>{true, true});
}

TEST_CASE(
    "conditional fit: a parameter the data push beyond its bound is held at that bound, not its assumed "
    "value") {
  // y = a x + b measured as 2 x - 0.5 (x = 1..5); b's bounds [0, 1] keep it from the -0.5 the data want: the
  // data do say where it is, beyond the range the spec allows, so it is held at the bound they push it to
  // (0), not at its assumed 0.7; a = 2 - 0.5 x 15 / 55 beside it.
  JointSpec spec;
  spec.parameters = {parameter("a", 0, 10, 1.0, {}), parameter("b", 0, 1, 0.5, {})};
  spec.parameters[1].assumed = 0.7;
  spec.series = {series("line", {{1, 1.5}, {2, 3.5}, {3, 5.5}, {4, 7.5}, {5, 9.5}}, 0.1)};
  spec.seeds = 1;
  JointSimulator simulator = stand_in();
  simulator.series = [](const JointSpec& s, const std::vector<double>& v, int) {
    std::vector<double> out;
    for (const auto& point : s.series.front().points)
      out.push_back(value_of(s, v, "a") * point.x + value_of(s, v, "b"));
    return out;
  };
  const auto fit = fit_joint(spec, simulator);
  CHECK(fit.result.at_bound[1]);
  const ConditionalFit conditional = fit_conditionally(spec, simulator, fit.result);
  CHECK(conditional.adoption.adopted == std::vector<bool>{true, false});
  CHECK(conditional.adoption.why_not[1].find("at its bound") == 0);
  CHECK(conditional.adoption.values[1] == 0.0);
  CHECK(conditional.adoption.values[0] == doctest::Approx(2.0 - 0.5 * 15.0 / 55.0).epsilon(1e-4));
}

TEST_CASE("model form: a parameter the calibration holds stays where it is held in the leave-one-out fits") {
  // p and q both measure 2 x + 1 (x = 1..3), both simulated as a x + b. With b free, leaving p out refits b
  // too (a = 2, b = 1); with b held at 0.5, only a moves, to sum x (y - 0.5) / sum x^2 = 31 / 14.
  JointSpec spec;
  spec.parameters = {parameter("a", 0, 10, 2.0, {}), parameter("b", 0, 5, 0.5, {})};
  spec.series = {series("p", {{1, 3.0}, {2, 5.0}, {3, 7.0}}, 0.01),
                 series("q", {{1, 3.0}, {2, 5.0}, {3, 7.0}}, 0.01)};
  JointSimulator simulator = stand_in();
  simulator.series = [](const JointSpec& s, const std::vector<double>& v, int) {
    std::vector<double> out;
    for (const auto& one : s.series)
      for (const auto& point : one.points)
        out.push_back(value_of(s, v, "a") * point.x + value_of(s, v, "b"));
    return out;
  };
  const ModelForm held = leave_one_series_out(spec, simulator, {2.0, 0.5}, {}, {true, false});
  REQUIRE(held.values.size() == 2);
  CHECK(held.values[0][1] == 0.5);
  CHECK(held.values[0][0] == doctest::Approx(31.0 / 14.0).epsilon(1e-4));
  const ModelForm free = leave_one_series_out(spec, simulator, {2.0, 0.5});
  CHECK(free.values[0][0] == doctest::Approx(2.0).epsilon(1e-3));
  CHECK(free.values[0][1] == doctest::Approx(1.0).epsilon(1e-3));
}

TEST_CASE(
    "joint prediction: a held parameter acting on it is run at its two bounds, and the span covers them") {
  // The prediction is 10 a + b; a is fitted (sd 0.1), b is held at 1 (not adopted) within [0, 4]: the
  // value 21, the half-width 1.96 x 10 x 0.1, and b at its bounds gives 20 and 24, so the span is
  // 20 - 1.96 to 24 + 1.96. A held parameter that does not act on the prediction costs no run.
  JointSpec spec;
  spec.parameters = {parameter("a", 0, 10, 2, {}), parameter("b", 0, 4, 1, {}),
                     parameter("c", 0, 1, 0.5, {"elsewhere"})};
  JointPrediction prediction;
  prediction.id = "ten_a_plus_b";
  prediction.series = {"line"};
  prediction.replications = 1;
  JointSimulator simulator = stand_in();
  int sets = 0;
  simulator.prediction = [&](const JointSpec& s, const JointPrediction&,
                             const std::vector<std::vector<double>>& values) {
    std::vector<std::vector<std::optional<double>>> out;
    for (const auto& v : values) {
      ++sets;
      out.push_back({10.0 * value_of(s, v, "a") + value_of(s, v, "b")});
    }
    return out;
  };
  const std::vector<double> covariance{0.01, 0, 0, 0, 0, 0, 0, 0, 0};
  const auto p = predict(spec, prediction, simulator, {2.0, 1.0, 0.5}, covariance, {true, false, false});
  CHECK(sets == 4); // the value, a one sd up, b at 0 and at 4
  REQUIRE(p.value);
  CHECK(*p.value == doctest::Approx(21.0));
  CHECK(p.half_width == doctest::Approx(1.96 * 10.0 * 0.1).epsilon(1e-6));
  REQUIRE(p.held.size() == 2);
  CHECK(p.held[0].key == "b");
  CHECK(p.held[0].value == 0.0);
  CHECK(*p.held[0].prediction == doctest::Approx(20.0));
  CHECK(*p.held[1].prediction == doctest::Approx(24.0));
  CHECK(p.span().first == doctest::Approx(20.0 - 1.96));
  CHECK(p.span().second == doctest::Approx(24.0 + 1.96));

  // Held at its lower bound: that bound is the value's own runs, not run again.
  sets = 0;
  const auto at_bound =
      predict(spec, prediction, simulator, {2.0, 0.0, 0.5}, covariance, {true, false, false});
  CHECK(sets == 3);
  REQUIRE(at_bound.held.size() == 2);
  CHECK(*at_bound.held[0].prediction == doctest::Approx(20.0));
  CHECK(*at_bound.held[1].prediction == doctest::Approx(24.0));
}

TEST_CASE("model form: a crossing's or a gain's misfit is the held-out ratio to the direct level, a figure's "
          "its own") {
  // Two SONIC series, each with its direct reference. Held out: s at 1.02 and 0.99 of measured, its
  // reference d at 1.03; t at 0.98, its reference e at 1.00. The ratios: 1.02/1.03, 0.99/1.03, 0.98/1.00.
  JointSpec spec;
  spec.series = {series("s", {{1, 4.0}, {2, 4.0}}, 0.04), series("d", {{1, 3.8}}, 0.06),
                 series("t", {{5, 5.0}}, 0.05), series("e", {{5, 4.0}}, 0.08)};
  spec.series[0].reference = "d";
  spec.series[2].reference = "e";
  ModelForm form;
  form.held_out = {{"s", 1, 4.0, 0.04, 4.08},
                   {"s", 2, 4.0, 0.04, 3.96},
                   {"d", 1, 3.8, 0.06, 3.8 * 1.03},
                   {"t", 5, 5.0, 0.05, 4.9},
                   {"e", 5, 4.0, 0.08, 4.0}};
  summarise_held_out(spec, form);
  REQUIRE(form.ratios.size() == 3);
  CHECK(form.ratios[0].series == "s");
  CHECK(form.ratios[0].measured == doctest::Approx(4.0 / 3.8));
  CHECK(form.ratios[0].sd == doctest::Approx(4.0 / 3.8 * std::hypot(0.01, 0.06 / 3.8)));
  CHECK(form.ratios[0].relative_error() == doctest::Approx(1.02 / 1.03 - 1.0));
  CHECK(form.ratios[1].relative_error() == doctest::Approx(0.99 / 1.03 - 1.0));
  CHECK(form.ratios[2].relative_error() == doctest::Approx(-0.02));
  const double ratio_rms =
      std::sqrt((std::pow(1.02 / 1.03 - 1.0, 2) + std::pow(0.99 / 1.03 - 1.0, 2) + 0.0004) / 3);
  CHECK(form.ratio_relative_rms == doctest::Approx(ratio_rms));
  const double point_rms = std::sqrt((0.0004 + 0.0001 + 0.0009 + 0.0004 + 0.0) / 5);
  CHECK(form.relative_rms == doctest::Approx(point_rms));
  // s's second ratio is 3.9 % low, within 1.96 x hypot(its sd 1.9 %, t's ratio error 2 %) = 5.4 %; t's is
  // 2 % low, within 1.96 x hypot(its sd 2.2 %, s's ratio RMS 2.8 %) = 7.1 %. All three covered.
  CHECK(form.ratio_covered == 3);

  form.values = {{1.0}, {1.0}};
  JointPrediction prediction;
  prediction.replications = 1;
  prediction.observable = "direct_inference_gain";
  PredictionResult gain;
  gain.value = 0.1;
  add_model_form(spec, prediction, stand_in(), form, {1.0}, gain);
  CHECK(gain.model_error_on_ratio);
  CHECK(gain.model_error_half_width == doctest::Approx(1.96 * ratio_rms * 1.1));
  prediction.observable = "events_per_s_per_job";
  PredictionResult level;
  level.value = 4.0;
  add_model_form(spec, prediction, stand_in(), form, {1.0}, level);
  CHECK(!level.model_error_on_ratio);
  CHECK(level.model_error_half_width == doctest::Approx(1.96 * point_rms * 4.0));
}

TEST_CASE("readings' envelope: from the lowest span to the highest, open where a reading is open") {
  // Two readings with closed intervals: 100 +- 10 with a rival fit at 80 (span 70-110), and 200 +- 20 (no
  // rival, held value: the span is the interval, 180-220). The answer runs from 70 to 220.
  PredictionResult requests;
  requests.value = 100.0;
  requests.half_width = requests.bounded_parts_half_width = 10.0;
  requests.rivals.push_back({1, 0.0, 80.0});
  REQUIRE(requests.span().first == doctest::Approx(70.0));
  PredictionResult inferences;
  inferences.value = 200.0;
  inferences.half_width = inferences.bounded_parts_half_width = 20.0;
  auto envelope = reading_envelope({&requests, &inferences});
  CHECK(envelope.first == doctest::Approx(70.0));
  CHECK(envelope.second == doctest::Approx(220.0));
  // A reading open below (a crossing the model's misfit leaves unbounded there, upper end 130 = 120 +
  // hypot(6, 8)) opens the answer below and keeps the highest upper end.
  PredictionResult open_below;
  open_below.value = 120.0;
  open_below.half_width = std::numeric_limits<double>::infinity();
  open_below.bounded_parts_half_width = 6.0;
  open_below.crossing_curve_higher = 128.0;
  REQUIRE(open_below.interval().second == doctest::Approx(130.0));
  envelope = reading_envelope({&requests, &open_below});
  CHECK(std::isinf(envelope.first));
  CHECK(envelope.second == doctest::Approx(130.0));
  // A reading with no value (no crossing within its sweep) leaves nothing bounded.
  PredictionResult none;
  envelope = reading_envelope({&requests, &inferences, &none});
  CHECK(std::isinf(envelope.first));
  CHECK(std::isinf(envelope.second));
}

TEST_CASE("joint prediction: an unknown no series measures is held at its assumed value, and the prediction "
          "also made at both ends of its range, in the same batch; a prediction it does not name is not") {
  // line: y = 2 x, so a = 2. The prediction is 10 a c, c an unknown of range [0.5, 1.5] assumed 1: 20 at
  // the value, 10 and 30 at the ends; its span holds both.
  JointSpec spec;
  spec.parameters = {parameter("a", 0, 10, 1, {"line"})};
  spec.series = {series("line", {{1, 2}, {2, 4}, {3, 6}}, 0.1)};
  JointUnknown c;
  c.key = "c";
  c.lower = 0.5;
  c.upper = 1.5;
  c.assumed = 1.0;
  c.sets = {"models.m.throughput.T4.scale={}"};
  c.predictions = {"ten_a_c"};
  spec.unknowns = {c};
  JointPrediction prediction;
  prediction.id = "ten_a_c";
  prediction.series = {"line"};
  JointSimulator simulator = stand_in();
  int batches = 0;
  simulator.prediction = [&batches](const JointSpec& s, const JointPrediction& p,
                                    const std::vector<std::vector<double>>& sets) {
    ++batches;
    std::vector<std::vector<std::optional<double>>> out;
    for (const auto& values : sets) {
      // The unknown's value is the one after the parameters'; it acts through its --set expression only
      // where it is not at its assumed value (a, with no expressions of its own here, adds none).
      REQUIRE(values.size() == 2);
      const auto overrides = prediction_overrides(s, p, values);
      CHECK(overrides.size() == (values[1] == 1.0 ? 0u : 1u));
      out.push_back({10.0 * values[0] * values[1]});
    }
    return out;
  };
  const auto fit = fit_joint(spec, stand_in());
  const Adoption adoption = adopt(spec, fit.result);
  const auto p =
      predict(spec, prediction, simulator, adoption.values, fit.result.covariance, adoption.adopted);
  CHECK(batches == 1);
  REQUIRE(p.value);
  CHECK(*p.value == doctest::Approx(20.0).epsilon(1e-4));
  REQUIRE(p.held.size() == 2);
  CHECK(p.held[0].key == "c");
  CHECK(p.held[0].value == 0.5);
  CHECK(*p.held[0].prediction == doctest::Approx(10.0).epsilon(1e-4));
  CHECK(*p.held[1].prediction == doctest::Approx(30.0).epsilon(1e-4));
  CHECK(p.span().first == doctest::Approx(10.0 - p.half_width));
  CHECK(p.span().second == doctest::Approx(30.0 + p.half_width));
  CHECK(prediction_overrides(spec, prediction, {2.0, 0.5}).back() == "models.m.throughput.T4.scale=0.5");
  // A reading of it takes the unknown too; another prediction does not.
  JointPrediction reading = prediction;
  reading.id = "ten_a_c_other";
  reading.reading_of = "ten_a_c";
  CHECK(unknown_acts_on(c, reading));
  JointPrediction other = prediction;
  other.id = "other";
  CHECK_FALSE(unknown_acts_on(c, other));
  const auto q = predict(spec, other, stand_in(), adoption.values, fit.result.covariance, adoption.adopted);
  CHECK(q.held.empty());
}

TEST_CASE("held-out coverage: each held-out point predicted as an answer is, with the other series' misfit") {
  // p measures 2 x, q 2.2 x, both a x (sd 0.01). Without p the fit says a = 2.2 (sd 0.01 / sqrt(5)): p at
  // x = 1 is predicted 2.2, its interval 2.2 +- hypot(1.96 x 0.01 / sqrt(5), 1.96 x 9.09 % x 2.2, 1.96 x
  // 0.01), q's held-out error being -1/11: 2.2 +- 0.3926, which holds the measured 2.0.
  JointSpec spec;
  spec.parameters = {parameter("a", 0.5, 5, 2.1, {})};
  spec.series = {series("p", {{1, 2.0}, {2, 4.0}}, 0.01), series("q", {{1, 2.2}, {2, 4.4}}, 0.01)};
  const ModelForm form = leave_one_series_out(spec, stand_in(), {2.1});
  REQUIRE(form.covariances.size() == 2);
  CHECK(form.covariances[0][0] == doctest::Approx(0.01 * 0.01 / 5.0).epsilon(0.05));
  // The point's runs: a x at the x its override sets (each held-out point is a prediction of its series).
  JointSimulator simulator = stand_in();
  simulator.prediction = [](const JointSpec& s, const JointPrediction& p,
                            const std::vector<std::vector<double>>& sets) {
    const std::string& x = p.overrides.back();
    std::vector<std::vector<std::optional<double>>> out;
    for (const auto& values : sets)
      out.push_back({value_of(s, values, "a") * std::stod(x.substr(x.find('=') + 1))});
    return out;
  };
  const auto coverage = held_out_coverage(spec, simulator, form, {1e-6}, {true}, 1);
  REQUIRE(coverage.points.size() == 4);
  CHECK(coverage.calibration_part == "each leave-one-out fit's own covariance");
  const auto& p1 = coverage.points[0];
  CHECK(p1.point.series == "p");
  REQUIRE(p1.value);
  CHECK(*p1.value == doctest::Approx(2.2).epsilon(1e-4));
  const double half = std::hypot(1.96 * 0.01 / std::sqrt(5.0), 1.96 * (1.0 / 11.0) * 2.2, 1.96 * 0.01);
  CHECK(p1.interval.first == doctest::Approx(2.2 - half).epsilon(1e-3));
  CHECK(p1.interval.second == doctest::Approx(2.2 + half).epsilon(1e-3));
  CHECK(coverage.covered == 4);
  // Without the leave-one-out covariances (an older calibration.json), the full fit's stands in, and the
  // output says it understates that part.
  ModelForm old = form;
  old.covariances.clear();
  const auto understated = held_out_coverage(spec, simulator, old, {1e-6}, {true}, 1);
  CHECK(understated.calibration_part.find("understated") != std::string::npos);
}
