#include "sim/app/calibrate/joint_fit_json.hpp"

#include "sim/metrics/number_text.hpp"

#include <algorithm>
#include <cmath>

namespace sonicsim {

namespace {

// What the terminal shows: 4 significant digits (files keep full precision).
std::string g(double value) {
  return significant(value, 4);
}

} // namespace

nlohmann::ordered_json series_json(const JointSpec& spec, const calibration::CalibrationResult& r,
                                   const TextOutput& say) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  std::size_t k = 0;
  say("\n%-28s %8s %10s %8s %10s %10s %9s\n", "series", "x", "measured", "sd", "before", "after", "residual");
  for (const auto& series : spec.series) {
    std::vector<calibration::DataPoint> data;
    std::vector<double> before, after;
    nlohmann::ordered_json points = nlohmann::ordered_json::array();
    for (const auto& point : series.points) {
      data.push_back({point.x, point.y, point.sd});
      before.push_back(r.predicted_before[k]);
      after.push_back(r.predicted_after[k]);
      say("%-28s %8g %10.4g %8.3g %10.4g %10.4g %8.2f sd\n", series.name.c_str(), point.x, point.y, point.sd,
          r.predicted_before[k], r.predicted_after[k], (r.predicted_after[k] - point.y) / point.sd);
      points.push_back({{"x", point.x},
                        {"measured", point.y},
                        {"sd", point.sd},
                        {"before", r.predicted_before[k]},
                        {"after", r.predicted_after[k]}});
      ++k;
    }
    const auto q_before = calibration::fit_quality(data, before),
               q_after = calibration::fit_quality(data, after);
    out.push_back({{"name", series.name},
                   {"scenario", series.scenario},
                   {"variants", series.variants},
                   {"observable", series.observable.text()},
                   {"why_sd", series.why_sd},
                   {"mape_before", q_before.mape},
                   {"mape_after", q_after.mape},
                   {"chi_square_before", q_before.chi_square},
                   {"chi_square_after", q_after.chi_square},
                   {"points", points}});
  }
  return out;
}

nlohmann::ordered_json parameters_json(const JointSpec& spec, const calibration::CalibrationResult& r,
                                       const Adoption& adoption, const TextOutput& say) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  const std::size_t k = r.values.size();
  for (std::size_t i = 0; i < k; ++i) {
    const auto& p = spec.parameters[i];
    const bool seeds_part = i < r.ci95_seed_part.size();
    say("  %-58s %10s %s", p.fit.key.c_str(), (g(r.values[i]) + p.fit.unit).c_str(),
        r.identifiable[i] ? ("+- " + g(r.ci95_half_width[i]) + p.fit.unit + " (95 %" +
                             (seeds_part ? "; seeds' part " + g(r.ci95_seed_part[i]) : "") + ")")
                                .c_str()
                          : "");
    say(adoption.adopted[i] ? "  adopted\n" : "  NOT ADOPTED: %s; held at %s\n", adoption.why_not[i].c_str(),
        (g(adoption.values[i]) + p.fit.unit).c_str());
    nlohmann::ordered_json correlations = nlohmann::ordered_json::object();
    for (std::size_t j = 0; j < k; ++j)
      if (j != i) correlations[spec.parameters[j].fit.key] = r.correlation[i * k + j];
    nlohmann::ordered_json json{{"key", p.fit.key},
                                {"meaning", p.meaning},
                                {"unit", p.fit.unit},
                                {"initial", p.initial},
                                {"assumed", p.assumed},
                                {"value", r.values[i]},
                                {"identifiable", static_cast<bool>(r.identifiable[i])},
                                {"separable", static_cast<bool>(r.separable[i])},
                                {"at_bound", static_cast<bool>(r.at_bound[i])},
                                {"adopted", static_cast<bool>(adoption.adopted[i])},
                                {"series", p.series},
                                {"set", p.sets},
                                {"correlations", correlations}};
    if (r.identifiable[i] && std::isfinite(r.ci95_half_width[i]))
      json["ci95_half_width"] = r.ci95_half_width[i];
    if (seeds_part) json["ci95_seed_part"] = r.ci95_seed_part[i];
    if (!adoption.adopted[i]) json["not_adopted_because"] = adoption.why_not[i];
    if (!adoption.adopted[i]) json["held_at"] = adoption.values[i];
    out.push_back(json);
  }
  return out;
}

nlohmann::ordered_json constraints_json(const std::vector<ConstraintCheck>& checks, const TextOutput& say) {
  say("\n%-40s %12s %10s %12s %12s %9s\n", "released fact", "measured", "sd", "before", "after", "residual");
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& check : checks) {
    const JointConstraint& k = *check.constraint;
    say("%-40s %12s %10s %12s %12s %6.2f sd\n", k.name.c_str(), g(k.value).c_str(), g(k.sd).c_str(),
        g(check.before).c_str(), g(check.after).c_str(), check.residual_sd());
    out.push_back({{"name", k.name},
                   {"quantity", k.quantity},
                   {"module", k.module},
                   {"scenario", k.scenario},
                   {"measured", k.value},
                   {"sd", k.sd},
                   {"why", k.why},
                   {"before", check.before},
                   {"after", check.after},
                   {"residual_sd", check.residual_sd()},
                   {"contradicted", std::fabs(check.residual_sd()) > contradiction_sd}});
  }
  return out;
}

nlohmann::ordered_json starts_json(const std::vector<FitStart>& starts) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& start : starts)
    out.push_back({{"start", start.start}, {"values", start.values}, {"chi_square", start.chi_square}});
  return out;
}

void say_rival_fits(const std::vector<FitStart>& ends, const std::vector<RivalFit>& rivals,
                    std::size_t points, std::size_t fitted, const TextOutput& say) {
  if (ends.size() < 2) return;
  const double best = std::min_element(ends.begin(), ends.end(), [](const FitStart& a, const FitStart& b) {
                        return a.chi_square < b.chi_square;
                      })->chi_square;
  say("\nrival fits (a start's end within %.1f of the best chi-square %.2f: the 95 %% quantile over %zu "
      "parameters, scaled by the reduced chi-square): %s\n",
      rival_margin(best, points, fitted), best, fitted, rivals.empty() ? "none" : "");
  for (const auto& r : rivals)
    say("  start %zu: chi-square %.2f; every prediction is made at its values too\n", r.start + 1,
        r.chi_square);
}

nlohmann::ordered_json rival_fits_json(const std::vector<RivalFit>& rivals) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& r : rivals)
    out.push_back({{"start", r.start + 1}, {"chi_square", r.chi_square}, {"values", r.values}});
  return out;
}

void say_ratios(const ModelForm& form, const TextOutput& say) {
  if (form.ratios.empty()) return;
  for (const auto& r : form.ratios)
    say("  %-30s x %-6g over its direct level: measured %-7.4g predicted %-7.4g %+6.2f %%\n",
        r.series.c_str(), r.x, r.measured, r.predicted, 100.0 * r.relative_error());
  say("model form: ratios to direct inference off by %.2f %% (relative RMS; what a crossing or a gain rests "
      "on); %zu of %zu within their 95 %% interval\n",
      100.0 * form.ratio_relative_rms, form.ratio_covered, form.ratios.size());
}

} // namespace sonicsim
