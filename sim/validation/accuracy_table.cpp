#include "sim/validation/accuracy_table.hpp"

#include <cmath>
#include <stdexcept>

namespace sonicsim {
namespace {

nlohmann::ordered_json number_or_null(const std::optional<double>& x) {
  return x && std::isfinite(*x) ? nlohmann::ordered_json(*x) : nlohmann::ordered_json(nullptr);
}

// Whether the measured value lies in the simulation's 95 % band: its interval over the replications and the
// measurement's standard error (times 1.96) in quadrature.
bool covered(const CaseOutcome& o) {
  if (!o.simulated) return false;
  const double band = std::hypot(o.simulated_half_width, 1.96 * o.measured_uncertainty);
  return std::fabs(*o.simulated - o.measured) <= band;
}

bool passes(const std::string& verdict) {
  return verdict == verdict_text(Verdict::pass);
}

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %%", 100.0 * fraction);
  return text;
}

} // namespace

nlohmann::ordered_json accuracy_table(const std::vector<ValidationCase>& cases,
                                      const std::vector<CaseOutcome>& outcomes) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  int released = 0, passed = 0, known = 0, inside = 0;
  double squares = 0.0;
  for (std::size_t i = 0; i < cases.size() && i < outcomes.size(); ++i) {
    const auto& c = cases[i];
    const auto& o = outcomes[i];
    nlohmann::ordered_json row{{"id", c.id},
                               {"predicted", c.predicted.has_value()},
                               {"observable", c.observable},
                               {c.predicted ? "predicted_value" : "measured", o.measured},
                               {"simulated", number_or_null(o.simulated)},
                               {"simulated_ci95_half_width", o.simulated_half_width},
                               {"relative_error", number_or_null(o.error)},
                               {"tolerance", c.tolerance_reason},
                               {"verdict", verdict_text(o.verdict)}};
    if (c.predicted) {
      row["interval95"] = {number_or_null(c.predicted->low), number_or_null(c.predicted->high)};
    } else {
      row["measured_uncertainty"] = o.measured_uncertainty;
      row["covered"] = covered(o);
      ++released;
      passed += o.verdict == Verdict::pass ? 1 : 0;
      known += o.verdict == Verdict::known_discrepancy ? 1 : 0;
      inside += covered(o) ? 1 : 0;
      if (o.error) squares += *o.error * *o.error;
    }
    rows.push_back(row);
  }
  return {{"format", accuracy_table_format},
          {"summary",
           {{"released_cases", released},
            {"passed", passed},
            {"known_discrepancies", known},
            {"covered", inside},
            {"rms_relative_error", released ? std::sqrt(squares / released) : 0.0}}},
          {"cases", rows}};
}

void require_accuracy_table(const nlohmann::json& table) {
  if (!table.is_object() || table.value("format", std::string()) != accuracy_table_format ||
      !table.contains("cases") || !table.at("cases").is_array())
    throw std::invalid_argument(std::string("not an accuracy table (expected \"format\": \"") +
                                accuracy_table_format + "\" and a list of cases, as validate writes it)");
}

std::vector<AccuracyChange> compare_accuracy(const nlohmann::json& committed, const nlohmann::json& now) {
  require_accuracy_table(committed);
  std::vector<AccuracyChange> changes;
  for (const auto& row : now.at("cases")) {
    if (row.value("predicted", false)) continue;
    const std::string id = row.at("id").get<std::string>();
    const nlohmann::json* before = nullptr;
    for (const auto& old : committed.at("cases"))
      if (old.is_object() && old.value("id", std::string()) == id) before = &old;
    if (!before) {
      changes.push_back({id, "not in the committed table: add it (validate writes accuracy.json)", false});
      continue;
    }
    const std::string verdict = row.at("verdict").get<std::string>();
    const std::string was = before->value("verdict", std::string());
    if (passes(was) && !passes(verdict)) {
      changes.push_back({id, "passed, now " + verdict, true});
      continue;
    }
    const auto& error = row.at("relative_error");
    const auto& error_before = before->contains("relative_error") ? before->at("relative_error") : nullptr;
    if (!error.is_number() || !error_before.is_number()) {
      if (error_before.is_number() && !error.is_number())
        changes.push_back(
            {id, "had an error of " + percent(error_before.get<double>()) + ", now no value", true});
      continue;
    }
    const double now_error = std::fabs(error.get<double>()), then = std::fabs(error_before.get<double>());
    const double allowed = then + std::max(accuracy_points_allowed, accuracy_fraction_allowed * then);
    if (now_error > allowed)
      changes.push_back({id,
                         "error " + percent(now_error) + " against " + percent(then) +
                             " committed (at most " + percent(allowed) +
                             ": 2 points or 10 % of it, whichever is larger)",
                         true});
    else if (now_error < then - std::max(accuracy_points_allowed, accuracy_fraction_allowed * then))
      changes.push_back({id,
                         "error " + percent(now_error) + ", better than " + percent(then) +
                             " committed: "
                             "commit the new table",
                         false});
  }
  return changes;
}

} // namespace sonicsim
