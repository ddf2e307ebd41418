#include "sim/app/calibrate/joint_prediction_output.hpp"

#include "sim/metrics/number_text.hpp"

#include <cmath>
#include <sstream>

namespace sonicsim {
namespace {

std::string g(double value) {
  return significant(value, 4);
}

// What a prediction's span covers, in words.
std::string span_name(const PredictionResult& p) {
  if (p.rivals.empty()) return "the held values' range";
  if (p.held.empty()) return "the rival fits";
  return "the held values' range and the rival fits";
}

// An interval's ends in words: "a to b", or a side the data leave open named as such.
std::string interval_text(std::pair<double, double> ends) {
  const bool low = std::isfinite(ends.first), high = std::isfinite(ends.second);
  if (low && high) return g(ends.first) + " to " + g(ends.second);
  if (high) return "not bounded below; to " + g(ends.second);
  if (low) return "from " + g(ends.first) + "; not bounded above";
  return "not bounded";
}

// A number, or null where it is infinite (an open side, an unbounded part).
nlohmann::ordered_json finite_or_null(double x) {
  return std::isfinite(x) ? nlohmann::ordered_json(x) : nlohmann::ordered_json(nullptr);
}

// An end of an assumption's range: the answer there, or "open" where it has none or the side is open.
std::string end_text(double x) {
  return std::isfinite(x) ? g(x) : std::string("open");
}

nlohmann::ordered_json ends_json(std::pair<double, double> ends) {
  return {finite_or_null(ends.first), finite_or_null(ends.second)};
}

// The answer's interval with an assumption pinned: at its low end, or its high end (once when the same).
std::string pinned_text(const AnswerAssumption& a) {
  if (a.pinned_low == a.pinned_high) return interval_text(a.pinned_low);
  return interval_text(a.pinned_low) + " at " + a.low_end + ", or " + interval_text(a.pinned_high) + " at " +
         a.high_end;
}

// The top three assumptions in a line each: the answer at each end of its range.
void say_ranked(const PredictionAnswer& answer, const TextOutput& say) {
  for (std::size_t i = 0; i < answer.assumptions.size() && i < 3; ++i) {
    const auto& a = answer.assumptions[i];
    say("    %zu. %s: %s at %s, %s at %s\n", i + 1, a.name.c_str(), end_text(a.at_low).c_str(),
        a.low_end.c_str(), end_text(a.at_high).c_str(), a.high_end.c_str());
  }
  if (answer.assumptions.empty()) return;
  const auto& first = answer.assumptions.front();
  say("    to pin the first: %s (the interval would be %s)\n",
      first.pinned_by.empty() ? "(the spec names no measurement: key pinned_by)" : first.pinned_by.c_str(),
      pinned_text(first).c_str());
}

} // namespace

nlohmann::ordered_json answers_json(const std::vector<PredictionAnswer>& answers, const TextOutput& say) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  if (!answers.empty())
    say("\nthe answers: each prediction's value and its one 95 %% interval (the seeds, the fit, the model "
        "form, the misfit, the held values, the rival fits and the readings), then what it rests on most\n");
  for (const auto& answer : answers) {
    say("  %-34s %s: %s\n", answer.id.c_str(), answer.value ? g(*answer.value).c_str() : "none",
        interval_text(answer.interval95).c_str());
    say_ranked(answer, say);
    for (const auto& warning : answer.warnings)
      say("    WARNING: %s\n", warning.c_str());
    nlohmann::ordered_json json{{"id", answer.id}, {"title", answer.title}, {"readings", answer.readings}};
    json["value"] = answer.value ? nlohmann::ordered_json(*answer.value) : nlohmann::ordered_json(nullptr);
    json["interval95"] = ends_json(answer.interval95);
    if (!answer.problem.empty()) json["problem"] = answer.problem;
    if (!answer.warnings.empty()) json["warnings"] = answer.warnings;
    nlohmann::ordered_json ranked = nlohmann::ordered_json::array();
    for (const auto& a : answer.assumptions)
      ranked.push_back({{"kind", kind_name(a.kind)},
                        {"name", a.name},
                        {"low_end", a.low_end},
                        {"at_low", finite_or_null(a.at_low)},
                        {"high_end", a.high_end},
                        {"at_high", finite_or_null(a.at_high)},
                        {"swing", finite_or_null(a.swing)},
                        {"interval95_pinned_low", ends_json(a.pinned_low)},
                        {"interval95_pinned_high", ends_json(a.pinned_high)},
                        {"pinned_by", a.pinned_by}});
    json["assumptions"] = ranked;
    out.push_back(json);
  }
  return out;
}

nlohmann::ordered_json prediction_json(const PredictionResult& p, const TextOutput& say) {
  const auto interval = p.interval();
  if (p.value)
    say("predicted %-34s %10s %s (at these settings, 95 %%: seed se %s, calibration se %s, model-form se "
        "%s, model misfit +- %s)%s%s\n",
        p.id.c_str(), g(*p.value).c_str(),
        std::isfinite(p.half_width) ? ("+- " + g(p.half_width)).c_str()
                                    : ("(" + interval_text(interval) + ")").c_str(),
        g(p.seed_se).c_str(), g(p.parameter_se).c_str(), g(p.model_form_se).c_str(),
        g(p.model_error_half_width).c_str(), p.problem.empty() ? "" : ": ", p.problem.c_str());
  else
    say("predicted %-34s none: %s\n", p.id.c_str(), p.problem.c_str());
  for (const auto& h : p.held)
    say("  with %s held at %s: %s\n", h.key.c_str(), g(h.value).c_str(),
        h.prediction ? g(*h.prediction).c_str() : "none (no crossing within the sweep)");
  for (const auto& r : p.rivals)
    say("  at start %zu's fit (chi-square %.2f): %s\n", r.start + 1, r.chi_square,
        r.prediction ? g(*r.prediction).c_str() : "none (no crossing within the sweep)");
  if (p.value && !(p.held.empty() && p.rivals.empty()))
    say("  over %s: %s\n", span_name(p).c_str(), interval_text(p.span()).c_str());
  for (const auto& warning : p.warnings)
    say("  WARNING: %s\n", warning.c_str());
  nlohmann::ordered_json json{{"id", p.id}, {"title", p.title}};
  if (p.value) {
    json.update({{"value", *p.value},
                 {"settings_half_width", finite_or_null(p.half_width)},
                 {"settings_interval", {finite_or_null(interval.first), finite_or_null(interval.second)}},
                 {"bounded_parts_half_width", finite_or_null(p.bounded_parts_half_width)},
                 {"seed_se", p.seed_se},
                 {"calibration_se", p.parameter_se},
                 {"model_form_se", finite_or_null(p.model_form_se)},
                 {"model_form_values", p.model_form_values},
                 {"model_error_relative", p.model_error_relative},
                 {"model_error_of", p.model_error_on_ratio ? "the ratio to direct inference" : "the figure"},
                 {"model_error_half_width", finite_or_null(p.model_error_half_width)}});
    if (p.crossing_curve_lower || p.crossing_curve_higher) {
      const auto or_null = [](const std::optional<double>& x) {
        return x ? nlohmann::ordered_json(*x) : nlohmann::ordered_json(nullptr);
      };
      json["model_error_crossings"] = {{"curve_lower", or_null(p.crossing_curve_lower)},
                                       {"curve_higher", or_null(p.crossing_curve_higher)}};
    }
    if (!p.problem.empty()) json["problem"] = p.problem;
    if (!p.warnings.empty()) json["warnings"] = p.warnings;
    if (!(p.held.empty() && p.rivals.empty())) {
      nlohmann::ordered_json held = nlohmann::ordered_json::array();
      for (const auto& h : p.held)
        held.push_back({{"key", h.key},
                        {"value", h.value},
                        {"prediction", h.prediction ? nlohmann::ordered_json(*h.prediction)
                                                    : nlohmann::ordered_json(nullptr)}});
      json["held"] = held;
      nlohmann::ordered_json rivals = nlohmann::ordered_json::array();
      for (const auto& r : p.rivals)
        rivals.push_back({{"start", r.start + 1},
                          {"chi_square", r.chi_square},
                          {"prediction", r.prediction ? nlohmann::ordered_json(*r.prediction)
                                                      : nlohmann::ordered_json(nullptr)}});
      if (!rivals.empty()) json["rival_fits"] = rivals;
      const auto [low, high] = p.span();
      json["span"] = {finite_or_null(low), finite_or_null(high)};
    }
  } else {
    json["problem"] = p.problem;
  }
  return json;
}

std::string predictions_markdown(const JointSpec& spec, const std::vector<PredictionResult>& results,
                                 const std::vector<PredictionAnswer>& answers,
                                 const std::vector<double>& values, const std::vector<bool>& adopted) {
  std::ostringstream md;
  md << "| prediction | value | 95 % interval (everything the model does not know) | rests most on (the "
        "answer at each end of its range) | to pin the first |\n|---|---|---|---|---|\n";
  for (const auto& answer : answers) {
    std::string ranked;
    for (std::size_t i = 0; i < answer.assumptions.size() && i < 3; ++i) {
      const auto& a = answer.assumptions[i];
      ranked += (i ? "; " : "") + std::to_string(i + 1) + ". " + a.name + ": " + end_text(a.at_low) + " at " +
                a.low_end + ", " + end_text(a.at_high) + " at " + a.high_end;
    }
    const std::string pin = answer.assumptions.empty()
                                ? std::string()
                                : answer.assumptions.front().pinned_by + " (the interval then " +
                                      pinned_text(answer.assumptions.front()) + ")";
    md << "| " << answer.id << ": " << answer.title << " | "
       << (answer.value ? g(*answer.value) : std::string("-")) << " | **" << interval_text(answer.interval95)
       << "** | " << ranked << " | " << pin << " |\n";
  }
  for (const auto& answer : answers)
    for (const auto& warning : answer.warnings)
      md << "\n**Warning** (" << answer.id << "): " << warning << "\n";
  md << "\nEach reading's parts at its own settings (the adopted fit, the held values as assumed; the "
        "answer's "
        "interval above holds them all):\n\n"
        "| prediction | value | at these settings (95 %) | seed part (se) | calibration part (se) | "
        "model-form part (se) | model misfit (95 % half-width) | over the held values and the rival fits "
        "|\n|---|---|---|---|---|---|---|---|\n";
  for (const auto& p : results) {
    if (!p.value) {
      md << "| " << p.id << ": " << p.title << " | - | " << p.problem << " | | | | | |\n";
      continue;
    }
    const auto ends = p.interval();
    const std::string interval =
        interval_text(ends) + (std::isfinite(p.half_width) ? std::string() : " (" + p.problem + ")");
    const auto [low, high] = p.span();
    const bool held_or_rival_open = std::isfinite(ends.first + ends.second) && !std::isfinite(low + high);
    const std::string span = p.held.empty() && p.rivals.empty() ? "(none held, no rival fit)"
                             : held_or_rival_open
                                 ? "not bounded: a held value or a rival fit gives no crossing"
                                 : interval_text(p.span());
    md << "| " << p.id << ": " << p.title << " | " << g(*p.value) << " | " << interval << " | "
       << g(p.seed_se) << " | " << g(p.parameter_se) << " | " << g(p.model_form_se) << " | "
       << (std::isfinite(p.model_error_half_width) ? g(p.model_error_half_width) : std::string("not bounded"))
       << " | " << span << " |\n";
  }
  md << "\nParameters (from `" << spec.file << "`):\n\n";
  for (std::size_t i = 0; i < values.size(); ++i)
    md << "- `" << spec.parameters[i].fit.key << "` = " << g(values[i]) << spec.parameters[i].fit.unit
       << (adopted[i] ? " (calibrated)" : " (not measured by the data: held at its assumed value)") << "\n";
  return md.str();
}

} // namespace sonicsim
