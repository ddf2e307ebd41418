// What `validate` writes and prints of each case: the numbers as the table shows them, report.json (and
// --json), report.md and the accuracy table (accuracy.json, sim/validation/accuracy_table.hpp).
#pragma once

#include "sim/validation/observables.hpp"
#include "sim/validation/validation_case.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

// A number as the validation table prints it (whole numbers to a billion, 3-4 significant digits otherwise).
std::string number(double value);
// "-" where a value is none.
std::string number_or_dash(const std::optional<double>& value);
// The simulated value with its 95 % half-width over the replications.
std::string simulated_text(const CaseOutcome& o);
// What a verdict is judged against: "±10%", "±0.025", ">= 0.9", joined by "and".
std::string tolerance_text(const ValidationCase& c);
// A measured case's verdict; a prediction case's check: "reproduced" or "DRIFTED".
const char* prediction_check_text(const ValidationCase& c, Verdict verdict);
// The measured value, or for a prediction case the predicted one with its 95 % interval.
std::string reference_text(const ValidationCase& c, const CaseOutcome& o);
// report.json's content, also what --json prints.
nlohmann::ordered_json outcomes_to_json(const std::vector<ValidationCase>& cases,
                                        const std::vector<CaseOutcome>& outcomes);
// A committed accuracy table (`validate --against FILE`), read and checked before any case runs: InputError
// naming the file when it cannot be read, is not JSON or is not an accuracy table.
nlohmann::json read_accuracy_table(const std::string& path);
// Every released case run against the committed table, printed (to stderr with --quiet or --json): the
// regressions, then the notes. Returns the number of regressions.
int report_against(const nlohmann::json& committed, const std::string& path,
                   const std::vector<ValidationCase>& cases, const std::vector<CaseOutcome>& outcomes,
                   bool table);
// report.md, report.json and accuracy.json in `dir`.
void write_reports(const std::filesystem::path& dir, const std::vector<ValidationCase>& cases,
                   const std::vector<CaseOutcome>& outcomes);

} // namespace sonicsim
