#include "sim/app/validate/validate_report.hpp"

#include "sim/engine/output_files.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/metrics/json_fields.hpp"
#include "sim/scenario/input_error.hpp"
#include "sim/text/input_file.hpp"
#include "sim/validation/accuracy_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace fs = std::filesystem;

namespace sonicsim {
namespace {

std::string measured_text(double measured, double uncertainty) {
  std::string text = number(measured);
  if (uncertainty > 0 && std::isfinite(uncertainty)) text += " ± " + number(uncertainty);
  return text;
}

} // namespace

std::string number(double value) {
  char buffer[64];
  // Whole numbers up to a billion; beyond, "%.0f" of 1e308 would print 309 digits.
  if (std::abs(value) >= 1000 && std::abs(value) < 1e9)
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
  else if (std::abs(value) >= 1e9)
    std::snprintf(buffer, sizeof buffer, "%.4g", value);
  else
    std::snprintf(buffer, sizeof buffer, "%.3g", value);
  return buffer;
}

// "-" where a value is none.
std::string number_or_dash(const std::optional<double>& value) {
  return value ? number(*value) : "-";
}

std::string simulated_text(const CaseOutcome& o) {
  if (!o.simulated) return "-";
  std::string text = number(*o.simulated);
  if (o.simulated_half_width > 0 && std::isfinite(o.simulated_half_width))
    text += " ± " + number(o.simulated_half_width);
  return text;
}

// What a verdict is judged against, beside the error (a "146.5 %" that passes reads as a bug without it):
// "±10%", "±0.025", ">= 0.9", joined by "and" as the judge takes them all.
std::string tolerance_text(const ValidationCase& c) {
  std::vector<std::string> parts;
  if (c.relative_tolerance) parts.push_back("±" + number(100.0 * *c.relative_tolerance) + "%");
  if (c.absolute_tolerance) parts.push_back("±" + number(*c.absolute_tolerance));
  if (c.minimum) parts.push_back(">= " + number(*c.minimum));
  if (c.maximum) parts.push_back("<= " + number(*c.maximum));
  std::string text;
  for (const auto& part : parts)
    text += (text.empty() ? "" : " and ") + part;
  return text.empty() ? "-" : text;
}

// A measured case's verdict; a prediction case's check: the simulation "reproduced" its prediction or
// "DRIFTED" from it (the code or the data changed since it was made).
const char* prediction_check_text(const ValidationCase& c, Verdict verdict) {
  if (!c.predicted) return verdict_text(verdict);
  return verdict == Verdict::fail ? "DRIFTED" : "reproduced";
}

// The measured value, or for a prediction case the predicted one with its 95 % interval.
std::string reference_text(const ValidationCase& c, const CaseOutcome& o) {
  if (c.predicted) {
    const auto& p = *c.predicted;
    const std::string interval = p.low && p.high ? number(*p.low) + " to " + number(*p.high)
                                 : p.high        ? "open below, to " + number(*p.high)
                                 : p.low         ? "from " + number(*p.low) + ", open above"
                                                 : "unbounded";
    return "pred. " + number(p.value) + " (" + interval + ")";
  }
  return measured_text(o.measured, o.measured_uncertainty);
}

// report.json's content, also what --json prints.
nlohmann::ordered_json outcomes_to_json(const std::vector<ValidationCase>& cases,
                                        const std::vector<CaseOutcome>& outcomes) {
  nlohmann::ordered_json json = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    const auto& o = outcomes[i];
    json.push_back(
        {{"id", c.id},
         {"title", c.title},
         {"source", c.source},
         {"observable", c.observable},
         {"predicted", c.predicted.has_value()},
         {"predicted_interval95",
          c.predicted ? nlohmann::ordered_json{c.predicted->low ? nlohmann::ordered_json(*c.predicted->low)
                                                                : nlohmann::ordered_json(),
                                               c.predicted->high ? nlohmann::ordered_json(*c.predicted->high)
                                                                 : nlohmann::ordered_json()}
                      : nlohmann::ordered_json()},
         {"measured", o.measured},
         {"measured_uncertainty", o.measured_uncertainty},
         {"analytic", o.analytic ? nlohmann::ordered_json(*o.analytic) : nlohmann::ordered_json()},
         {"simulated", o.simulated ? nlohmann::ordered_json(*o.simulated) : nlohmann::ordered_json()},
         {"simulated_ci95_half_width", o.simulated_half_width},
         {"relative_error", o.error ? nlohmann::ordered_json(*o.error) : nlohmann::ordered_json()},
         {"verdict", verdict_text(o.verdict)},
         {"detail", o.detail},
         {"tolerance_reason", c.tolerance_reason},
         {"known_discrepancy", c.known_discrepancy},
         {"uncalibrated",
          c.uncalibrated ? nlohmann::ordered_json(*c.uncalibrated) : nlohmann::ordered_json()}});
    if (c.predicted)
      json.back().update({{"rests_on", c.predicted->rests_on}, {"pinned_by", c.predicted->pinned_by}});
  }
  return json;
}

void write_reports(const fs::path& dir, const std::vector<ValidationCase>& cases,
                   const std::vector<CaseOutcome>& outcomes) {
  std::ostringstream md;
  md << "# sonicsim validation report\n\nGenerated by `sonicsim validate`. Each case: the measurement and "
        "its source, "
        "the analytic model (arXiv:2009.04509 Eq. 1-5, from the same scenario) and the simulation, the "
        "relative "
        "error, and "
        "the verdict against a tolerance taken from the measurement's uncertainty.\n\n"
        "| case | measured | analytic | simulated | error | tolerance | verdict "
        "|\n|---|---|---|---|---|---|---|\n";
  for (const bool predicted : {false, true}) {
    if (predicted) {
      if (std::none_of(cases.begin(), cases.end(), [](const ValidationCase& c) { return c.predicted; }))
        break;
      md << "\n## Predictions\n\nNot measurements: each checks that the simulation still gives the "
            "prediction "
            "it made (its value and 95 % interval, and the command that made it), a regression check. They "
            "are "
            "not counted as passes; the measurements they predict are not released.\n\n"
            "| case | predicted | analytic | simulated | error | tolerance | check "
            "|\n|---|---|---|---|---|---|---|\n";
    }
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const auto& c = cases[i];
      if (c.predicted.has_value() != predicted) continue;
      const auto& o = outcomes[i];
      md << "| " << c.id << " | " << reference_text(c, o) << " | " << (o.analytic ? number(*o.analytic) : "-")
         << " | " << simulated_text(o) << " | " << (o.error ? number(100.0 * *o.error) + " %" : "-") << " | "
         << tolerance_text(c) << " | " << prediction_check_text(c, o.verdict) << " |\n";
    }
  }
  md << "\n## Cases\n";
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    md << "\n### " << c.id << ": " << c.title << "\n\n- source: " << c.source << "\n- observable: `"
       << c.observable << "`" << (outcomes[i].detail.empty() ? "" : " (" + outcomes[i].detail + ")")
       << "\n- tolerance: " << c.tolerance_reason << "\n";
    if (!c.known_discrepancy.empty()) md << "- known discrepancy: " << c.known_discrepancy << "\n";
    if (c.predicted) {
      md << "- rests most on:";
      for (std::size_t r = 0; r < c.predicted->rests_on.size(); ++r)
        md << (r ? "; " : " ") << r + 1 << ". " << c.predicted->rests_on[r];
      md << "\n- to pin the first: " << c.predicted->pinned_by << "\n";
    }
    if (c.uncalibrated)
      md << "- before calibration: " << number(*c.uncalibrated) << " (" << c.uncalibrated_note << ")\n";
  }
  // Checked writes: a full disk is "cannot write", never a cut report under its final name.
  write_file_atomically(dir / "report.json", json_text(outcomes_to_json(cases, outcomes), 2) + "\n");
  write_file_atomically(dir / "report.md", md.str());
  write_file_atomically(dir / "accuracy.json", json_text(accuracy_table(cases, outcomes), 2) + "\n");
}

nlohmann::json read_accuracy_table(const std::string& path) {
  std::string text;
  try {
    text = read_input_file(path);
  } catch (const std::exception& error) {
    throw InputError("--against " + path + ": " + error.what() +
                     "; expected the accuracy table validate writes "
                     "(validation/accuracy.json)");
  }
  nlohmann::json table;
  try {
    table = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    throw InputError("--against " + path + ": not JSON (" + error.what() +
                     "); expected the accuracy table "
                     "validate writes (validation/accuracy.json)");
  }
  try {
    require_accuracy_table(table);
  } catch (const std::invalid_argument& error) {
    throw InputError("--against " + path + ": " + error.what());
  }
  return table;
}

int report_against(const nlohmann::json& committed, const std::string& path,
                   const std::vector<ValidationCase>& cases, const std::vector<CaseOutcome>& outcomes,
                   bool table) {
  // Through JSON text: the table compared is the one a file would hold.
  const auto now = nlohmann::json::parse(accuracy_table(cases, outcomes).dump());
  const auto changes = compare_accuracy(committed, now);
  int regressions = 0, compared = 0;
  for (const auto& row : now.at("cases"))
    compared += row.value("predicted", false) ? 0 : 1;
  FILE* out = table ? stdout : stderr;
  for (const bool regression : {true, false})
    for (const auto& change : changes)
      if (change.regression == regression) {
        std::fprintf(out, "%s %s: %s\n", regression ? "REGRESSION" : "note", change.id.c_str(),
                     change.what.c_str());
        regressions += regression ? 1 : 0;
      }
  std::fprintf(out, "accuracy against %s: %d released case(s) compared, %d regression(s)\n", path.c_str(),
               compared, regressions);
  return regressions;
}

} // namespace sonicsim
