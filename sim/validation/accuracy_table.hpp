// The accuracy table `validate` writes (accuracy.json beside report.json) and the guard that compares a run
// of the cases with a committed table (`validate --against FILE`): every case's measured value, simulated
// value and 95 % interval, relative error, tolerance and verdict, whether the measured value lies inside the
// simulation's 95 % band (the simulation's interval and the measurement's standard error in quadrature), and
// the prediction cases apart. The committed table (validation/accuracy.json) is the project's published
// accuracy; a released case that stops passing, or whose error grows by more than 2 points and by more than
// 10 % of itself, is a regression. Pure code.
#pragma once

#include "sim/validation/observables.hpp"
#include "sim/validation/validation_case.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sonicsim {

// The name the table's "format" key holds: a file without it is not an accuracy table.
inline constexpr const char* accuracy_table_format = "sonicsim accuracy table 1";

// The table of these cases' outcomes (cases[i] with outcomes[i]).
nlohmann::ordered_json accuracy_table(const std::vector<ValidationCase>& cases,
                                      const std::vector<CaseOutcome>& outcomes);

// The regression rule's margins: a released case's error may grow by at most this many points (absolute, of
// the relative error) or by this fraction of itself, whichever is larger.
inline constexpr double accuracy_points_allowed = 0.02;
inline constexpr double accuracy_fraction_allowed = 0.10;

struct AccuracyChange {
  std::string id;
  std::string what; // why it counts, in words
  bool regression = false;
};

// Throws std::invalid_argument unless `table` is an accuracy table (its "format" and a list of cases).
void require_accuracy_table(const nlohmann::json& table);

// Each released case of `now` against the same case of `committed` (both accuracy tables): a regression
// (stopped passing, or its error grew past the margins), or a note (new, or better). Cases `now` did not run
// are not compared. Throws std::invalid_argument when `committed` is not an accuracy table.
std::vector<AccuracyChange> compare_accuracy(const nlohmann::json& committed, const nlohmann::json& now);

} // namespace sonicsim
