// The accuracy guard (sim/validation/accuracy_table.hpp): a released case that stops passing, or whose error
// grows by more than 2 points and by more than 10 % of itself, is a regression; predictions are not compared.
#include "sim/validation/accuracy_table.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

namespace sonicsim {
namespace {

nlohmann::json row(const std::string& id, double error, const std::string& verdict, bool predicted = false) {
  return {{"id", id}, {"predicted", predicted}, {"relative_error", error}, {"verdict", verdict}};
}

nlohmann::json table(std::initializer_list<nlohmann::json> rows) {
  return {{"format", accuracy_table_format}, {"cases", nlohmann::json(rows)}};
}

} // namespace

TEST_CASE("a released case regresses when it stops passing or its error grows past both margins") {
  const auto committed = table({row("small", 0.010, "pass"), row("large", 0.300, "pass"),
                                row("known", 0.150, "known discrepancy"), row("pred", 0.0, "pass", true)});
  // 1.0 % to 2.9 %: 1.9 points, under 2: allowed. To 3.1 %: 2.1 points and 210 % of itself: a regression.
  CHECK(compare_accuracy(committed, table({row("small", 0.029, "pass")})).empty());
  auto changes = compare_accuracy(committed, table({row("small", 0.031, "pass")}));
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].regression);
  CHECK(changes[0].what.find("3.1 % against 1.0 % committed") != std::string::npos);
  // 30 % to 32.9 %: 2.9 points but under 10 % of 30 (3 points): allowed; to 33.1 %: a regression.
  CHECK(compare_accuracy(committed, table({row("large", 0.329, "pass")})).empty());
  CHECK(compare_accuracy(committed, table({row("large", -0.331, "pass")}))[0].regression);
  // A pass that becomes a fail (or a known discrepancy) regresses, whatever its error.
  changes = compare_accuracy(committed, table({row("small", 0.011, "FAIL")}));
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].what == "passed, now FAIL");
  // A known discrepancy is held to its error; a prediction is not compared here (validate checks its drift).
  CHECK(compare_accuracy(committed, table({row("known", 0.160, "known discrepancy")})).empty());
  CHECK(compare_accuracy(committed, table({row("pred", 5.0, "FAIL", true)})).empty());
  // A new case and a much better one are notes, not regressions.
  changes = compare_accuracy(committed, table({row("new", 0.5, "FAIL"), row("large", 0.05, "pass")}));
  REQUIRE(changes.size() == 2);
  CHECK_FALSE(changes[0].regression);
  CHECK(changes[0].what.find("not in the committed table") == 0);
  CHECK_FALSE(changes[1].regression);
  CHECK(changes[1].what.find("better than") != std::string::npos);
}

TEST_CASE("a file that is not an accuracy table is refused") {
  CHECK_THROWS_AS(compare_accuracy(nlohmann::json::object(), table({})), std::invalid_argument);
  CHECK_THROWS_AS(
      compare_accuracy(nlohmann::json{{"format", "other"}, {"cases", nlohmann::json::array()}}, table({})),
      std::invalid_argument);
}

TEST_CASE("the table counts released cases, passes and coverage; a prediction keeps its interval") {
  ValidationCase measured;
  measured.id = "m";
  CaseOutcome inside;
  inside.measured = 10.0;
  inside.measured_uncertainty = 0.5; // 1.96 x 0.5 = 0.98; with the simulation's 0.2: 1.0
  inside.simulated = 10.99;
  inside.simulated_half_width = 0.2;
  inside.error = 0.099;
  inside.verdict = Verdict::pass;
  CaseOutcome outside = inside;
  outside.simulated = 11.01;
  ValidationCase predicted;
  predicted.id = "p";
  predicted.predicted = ValidationCase::Prediction{25.0, 18.0, std::nullopt, 3.0, "x", {}, ""};
  const auto json = accuracy_table({measured, measured, predicted}, {inside, outside, inside});
  CHECK(json["summary"]["released_cases"] == 2);
  CHECK(json["summary"]["passed"] == 2);
  CHECK(json["summary"]["covered"] == 1);
  CHECK(json["cases"][0]["covered"] == true);
  CHECK(json["cases"][1]["covered"] == false);
  CHECK(json["cases"][2]["interval95"][0] == 18.0);
  CHECK(json["cases"][2]["interval95"][1].is_null());
}

} // namespace sonicsim
