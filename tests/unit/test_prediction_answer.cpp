// The answer to a prediction (sim/calibration/prediction_answer.hpp) on a hand-made case: two readings, a
// held parameter at its two bounds, two rival fits and every statistical part, each number computed by hand
// below.
#include "models/student_t.hpp"
#include "sim/calibration/prediction_answer.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

namespace sonicsim {
namespace {

JointSpec two_readings_spec() {
  JointSpec spec;
  JointParameter share;
  share.fit.key = "k";
  share.fit.unit = "ms";
  share.pinned_by = "a timing of k";
  spec.parameters.push_back(share);
  JointPrediction own;
  own.id = "a";
  own.assumes = "in requests";
  own.pinned_by = "a scan of the model";
  JointPrediction other;
  other.id = "b";
  other.reading_of = "a";
  other.assumes = "in inferences";
  spec.predictions = {own, other};
  spec.rival_fits_pinned_by = "the series at more points";
  return spec;
}

// Reading a: 100 at the adopted fit; k at 57 ms gives 80; rival starts 1 and 2 (0-based 0, 1) give 90 and
// 120. Its parts: seeds 0.1 se over 2 replications, calibration se 5, model form se 1 over 4 fits, misfit
// +-10.
PredictionResult reading_a() {
  PredictionResult a;
  a.id = "a";
  a.value = 100.0;
  a.replications = 2;
  a.seed_se = 0.1;
  a.parameter_se = 5.0;
  a.model_form_se = 1.0;
  a.model_form_values = {99.0, 100.0, 101.0, 100.0};
  a.model_error_half_width = 10.0;
  a.model_error_relative = 0.1;
  a.held = {{"k", 5.0, 100.0, true}, {"k", 57.0, 80.0, false}};
  a.rivals = {{0, 10.0, 90.0}, {1, 11.0, 120.0}};
  // As predict() and add_model_form() leave them: the bounded parts, then the misfit, in quadrature.
  a.bounded_parts_half_width =
      std::sqrt(std::pow(models::student_t_975(1) * 0.1, 2) + std::pow(1.96 * 5.0, 2) +
                std::pow(models::student_t_975(3) * 1.0, 2));
  a.half_width = std::hypot(a.bounded_parts_half_width, 10.0);
  return a;
}

// Reading b: 150, with k at 57 ms 140; no statistical part, no rival.
PredictionResult reading_b() {
  PredictionResult b;
  b.id = "b";
  b.value = 150.0;
  b.replications = 2;
  b.held = {{"k", 5.0, 150.0, true}, {"k", 57.0, 140.0, false}};
  return b;
}

} // namespace

TEST_CASE("an answer holds every reading, held bound, rival fit and part, ranked by how far each moves it") {
  const JointSpec spec = two_readings_spec();
  const PredictionResult a = reading_a(), b = reading_b();
  const double seeds = models::student_t_975(1) * 0.1, calibration = 1.96 * 5.0,
               form = models::student_t_975(3) * 1.0;
  const double sides = std::sqrt(seeds * seeds + calibration * calibration + form * form + 10.0 * 10.0);
  const double without_misfit = std::sqrt(seeds * seeds + calibration * calibration + form * form);
  const PredictionAnswer answer = answer_of(spec, {&a, &b});
  // Everything: a's lowest point (80) less its side to b's highest (150, no side of its own).
  CHECK(answer.interval95.first == doctest::Approx(80.0 - sides));
  CHECK(answer.interval95.second == doctest::Approx(150.0));
  REQUIRE(answer.assumptions.size() == 7);
  const auto& reading = answer.assumptions[0];
  CHECK(reading.kind == AnswerAssumption::Kind::reading); // swing 150 - 100 = 50
  CHECK(reading.low_end == "in requests");
  CHECK(reading.high_end == "in inferences");
  CHECK(reading.swing == doctest::Approx(50.0));
  CHECK(reading.pinned_by == "a scan of the model");
  // Pinned at "in requests": a alone, 80 - sides to 120 + sides; at "in inferences": b alone, 140 to 150.
  CHECK(reading.pinned_low.first == doctest::Approx(80.0 - sides));
  CHECK(reading.pinned_low.second == doctest::Approx(120.0 + sides));
  CHECK(reading.pinned_high.first == doctest::Approx(140.0));
  CHECK(reading.pinned_high.second == doctest::Approx(150.0));
  const auto& rivals = answer.assumptions[1]; // 90 to 120: swing 30
  CHECK(rivals.kind == AnswerAssumption::Kind::rival_fits);
  CHECK(rivals.swing == doctest::Approx(30.0));
  CHECK(rivals.low_end == "start 1's fit");
  // At start 1's fit: a's 90 with its sides; b has no rival and keeps its adopted fit (140 to 150).
  CHECK(rivals.pinned_low.first == doctest::Approx(90.0 - sides));
  CHECK(rivals.pinned_low.second == doctest::Approx(150.0));
  CHECK(rivals.pinned_by == "the series at more points");
  const auto& held = answer.assumptions[2]; // 80 (57 ms) to 100 (5 ms): swing 20, before the misfit's 20
  CHECK(held.kind == AnswerAssumption::Kind::held);
  CHECK(held.low_end == "57 ms");
  CHECK(held.high_end == "5 ms");
  CHECK(held.pinned_by == "a timing of k");
  // Pinned at 57 ms: a's 80 and its rivals (90, 120) without its value; b's 140 alone.
  CHECK(held.pinned_low.first == doctest::Approx(80.0 - sides));
  CHECK(held.pinned_low.second == doctest::Approx(140.0));
  // Pinned at 5 ms: a's 100 and rivals (90 to 120); b's 150.
  CHECK(held.pinned_high.first == doctest::Approx(90.0 - sides));
  CHECK(held.pinned_high.second == doctest::Approx(150.0));
  const auto& misfit = answer.assumptions[3];
  CHECK(misfit.kind == AnswerAssumption::Kind::model_misfit);
  CHECK(misfit.at_low == doctest::Approx(90.0));
  CHECK(misfit.at_high == doctest::Approx(110.0));
  CHECK(misfit.pinned_low.first == doctest::Approx(80.0 - without_misfit));
  CHECK(answer.assumptions[4].kind == AnswerAssumption::Kind::calibration);
  CHECK(answer.assumptions[4].swing == doctest::Approx(2.0 * calibration));
  CHECK(answer.assumptions[5].kind == AnswerAssumption::Kind::model_form);
  CHECK(answer.assumptions[5].swing == doctest::Approx(2.0 * form));
  CHECK(answer.assumptions[6].kind == AnswerAssumption::Kind::seeds);
  CHECK(answer.assumptions[6].swing == doctest::Approx(2.0 * seeds));
}

TEST_CASE("a crossing that its misfit leaves open below is open below, and that assumption ranks first") {
  JointSpec spec = two_readings_spec();
  spec.predictions.pop_back();
  PredictionResult a = reading_a();
  a.model_error_half_width = std::numeric_limits<double>::infinity();
  a.half_width = std::numeric_limits<double>::infinity();
  a.crossing_curve_higher = 113.0; // with the curve 10 % lower it is below direct from the sweep's start
  const PredictionAnswer answer = answer_of(spec, {&a});
  CHECK(std::isinf(answer.interval95.first));
  const double bounded = std::sqrt(std::pow(models::student_t_975(1) * 0.1, 2) + std::pow(9.8, 2) +
                                   std::pow(models::student_t_975(3), 2));
  CHECK(answer.interval95.second == doctest::Approx(120.0 + std::hypot(bounded, 13.0)));
  REQUIRE_FALSE(answer.assumptions.empty());
  CHECK(answer.assumptions.front().kind == AnswerAssumption::Kind::model_misfit);
  CHECK(std::isinf(answer.assumptions.front().swing));
  CHECK(answer.assumptions.front().at_high == doctest::Approx(113.0));
  // Pinned (a scan of this setup itself), the interval closes: 80 - bounded to 120 + bounded.
  CHECK(answer.assumptions.front().pinned_low.first == doctest::Approx(80.0 - bounded));
}

TEST_CASE("the answer's interval is the readings' envelope that PredictionResult gives") {
  const JointSpec spec = two_readings_spec();
  const PredictionResult a = reading_a(), b = reading_b();
  const auto envelope = reading_envelope({&a, &b});
  const auto answer = answer_of(spec, {&a, &b});
  CHECK(answer.interval95.first == doctest::Approx(envelope.first));
  CHECK(answer.interval95.second == doctest::Approx(envelope.second));
  // And a reading's own interval at its points is PredictionResult::span().
  CHECK(a.span().first == doctest::Approx(answer.assumptions[0].pinned_low.first));
  CHECK(a.span().second == doctest::Approx(answer.assumptions[0].pinned_low.second));
}

} // namespace sonicsim
