#include "sim/app/joint_prediction_output.hpp"

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

// Each prediction of its own with its other readings (results in the spec's order), for the envelopes.
std::vector<std::vector<const PredictionResult*>> readings_of(const JointSpec& spec,
                                                              const std::vector<PredictionResult>& results) {
  std::vector<std::vector<const PredictionResult*>> groups;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (!spec.predictions[i].reading_of.empty()) continue;
    std::vector<const PredictionResult*> group{&results[i]};
    for (std::size_t j = i + 1; j < results.size(); ++j)
      if (spec.predictions[j].reading_of == spec.predictions[i].id) group.push_back(&results[j]);
    if (group.size() > 1) groups.push_back(group);
  }
  return groups;
}

} // namespace

nlohmann::ordered_json envelopes_json(const JointSpec& spec, const std::vector<PredictionResult>& results,
                                      const TextOutput& say) {
  nlohmann::ordered_json envelopes = nlohmann::ordered_json::array();
  const auto groups = readings_of(spec, results);
  if (!groups.empty())
    say("\nthe answers: each prediction over its readings the released data cannot choose between (from the "
        "lowest span to the highest)\n");
  for (const auto& group : groups) {
    const auto [low, high] = reading_envelope(group);
    nlohmann::ordered_json ids = nlohmann::ordered_json::array();
    for (const PredictionResult* reading : group)
      ids.push_back(reading->id);
    say("  %-34s %s (%zu readings)\n", group.front()->id.c_str(), interval_text({low, high}).c_str(),
        group.size());
    envelopes.push_back({{"id", group.front()->id},
                         {"readings", ids},
                         {"envelope", {finite_or_null(low), finite_or_null(high)}}});
  }
  return envelopes;
}

nlohmann::ordered_json prediction_json(const PredictionResult& p, const TextOutput& say) {
  const auto interval = p.interval();
  if (p.value)
    say("predicted %-34s %10s %s (95 %%: seed se %s, calibration se %s, model-form se %s, model misfit "
        "+- %s)%s%s\n",
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
  nlohmann::ordered_json json{{"id", p.id}, {"title", p.title}};
  if (p.value) {
    json.update({{"value", *p.value},
                 {"ci95_half_width", finite_or_null(p.half_width)},
                 {"ci95", {finite_or_null(interval.first), finite_or_null(interval.second)}},
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
                                 const std::vector<double>& values, const std::vector<bool>& adopted) {
  std::ostringstream md;
  md << "| prediction | value | 95 % interval | seed part (se) | calibration part (se) | model-form part "
        "(se) | model misfit (95 % half-width) | over the held values and the rival fits "
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
  if (const auto groups = readings_of(spec, results); !groups.empty()) {
    md << "\nThe answers: each prediction over its other readings (spec key `reading_of`, settings the "
          "released data cannot choose between), from the lowest span to the highest:\n\n"
          "| prediction | readings | envelope |\n|---|---|---|\n";
    for (const auto& group : groups) {
      std::string ids;
      for (std::size_t r = 1; r < group.size(); ++r)
        ids += (r > 1 ? ", " : "") + group[r]->id;
      md << "| " << group.front()->id << " | " << ids << " | **" << interval_text(reading_envelope(group))
         << "** |\n";
    }
  }
  md << "\nParameters (from `" << spec.file << "`):\n\n";
  for (std::size_t i = 0; i < values.size(); ++i)
    md << "- `" << spec.parameters[i].fit.key << "` = " << g(values[i]) << spec.parameters[i].fit.unit
       << (adopted[i] ? " (calibrated)" : " (not measured by the data: held at its assumed value)") << "\n";
  return md.str();
}

} // namespace sonicsim
