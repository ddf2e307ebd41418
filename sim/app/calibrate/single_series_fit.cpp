#include "sim/app/calibrate/single_series_fit.hpp"

#include <cmath>
#include <cstdio>
#include <utility>

namespace sonicsim {

nlohmann::ordered_json quality_json(const calibration::FitQuality& q) {
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  for (const auto& [name, value] : {std::pair{"mape", q.mape}, std::pair{"pearson_r", q.pearson_r},
                                    std::pair{"chi_square", q.chi_square}})
    if (std::isfinite(value)) json[name] = value;
  return json;
}

void print_quality(const char* label, const calibration::FitQuality& q) {
  char pearson[32] = "   n/a"; // undefined when the prediction does not vary over the points
  if (std::isfinite(q.pearson_r)) std::snprintf(pearson, sizeof pearson, "%6.3f", q.pearson_r);
  std::printf("  %-30s MAPE %6.2f %%   Pearson r %s   chi-square %9.2f\n", label, 100.0 * q.mape, pearson,
              q.chi_square);
}

SeriesAdoption adopt_fitted(const std::vector<calibration::FitParameter>& parameters,
                            const std::vector<double>& initial, const calibration::CalibrationResult& result,
                            const TextOutput& say) {
  std::vector<double> adopted = initial;
  std::vector<bool> significant(parameters.size(), false);
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const auto& p = parameters[i];
    say("  %s = %s", p.key.c_str(), value_text(result.values[i], p.unit).c_str());
    if (!result.identifiable[i]) {
      say("   NOT IDENTIFIABLE: the residuals do not move with it (flat direction); kept at %s\n",
          value_text(initial[i], p.unit).c_str());
      continue;
    }
    significant[i] = std::fabs(result.values[i] - initial[i]) > result.ci95_half_width[i];
    if (result.at_bound[i])
      say("   at its bound: the data want it beyond [%s, %s]", value_text(p.lower, p.unit).c_str(),
          value_text(p.upper, p.unit).c_str());
    else
      say("   +- %s (95 %%, the mean of %d seeds' fits; seeds' part %s)",
          value_text(result.ci95_half_width[i], p.unit).c_str(), result.seeds,
          value_text(result.ci95_seed_part[i], p.unit).c_str());
    if (significant[i] || result.at_bound[i]) {
      adopted[i] = result.values[i];
      say("\n");
    } else {
      say("; the interval includes the uncalibrated %s: not adopted\n",
          value_text(initial[i], p.unit).c_str());
    }
  }
  return {adopted, significant};
}

void print_fit_points(const std::vector<calibration::DataPoint>& points,
                      const calibration::CalibrationResult& result, const TextOutput& say) {
  say("\n%10s %12s %10s %12s %12s %9s\n", "x", "measured", "sd", "before", "after", "residual");
  for (std::size_t j = 0; j < points.size(); ++j)
    say("%10.6g %12.6g %10.4g %12.6g %12.6g %8.2f sd\n", points[j].x, points[j].y, points[j].sd,
        result.predicted_before[j], result.predicted_after[j],
        (result.predicted_after[j] - points[j].y) / points[j].sd);
}

nlohmann::ordered_json single_series_json(const CalibrateArguments& a, const CheckedInputs& in,
                                          const calibration::CalibrationResult& result,
                                          const SeriesAdoption& adoption) {
  const auto& parameters = in.parameters;
  const auto& initial = in.initial;
  const auto& points = in.series.points;
  nlohmann::ordered_json out;
  out["scenario"] = a.scenario;
  out["series"] = a.series;
  out["observable"] = in.observable.text();
  out["x_column"] = a.x_column;
  out["x_key"] = a.x_key;
  out["excluded_x"] = a.exclude;
  out["status"] = result.status_text;
  out["evaluations"] = result.evaluations;
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    nlohmann::ordered_json parameter{{"key", parameters[i].key},
                                     {"unit", parameters[i].unit},
                                     {"initial", initial[i]},
                                     {"value", result.values[i]}};
    // No interval is written where the fit has none (not identifiable): "identifiable" says why.
    if (result.identifiable[i] && std::isfinite(result.ci95_half_width[i])) {
      parameter["ci95_half_width"] = result.ci95_half_width[i];
      parameter["ci95_seed_part"] = result.ci95_seed_part[i];
      parameter["seeds"] = result.seeds;
    }
    parameter["identifiable"] = static_cast<bool>(result.identifiable[i]);
    parameter["at_bound"] = static_cast<bool>(result.at_bound[i]);
    parameter["significant"] = static_cast<bool>(adoption.significant[i]);
    parameter["adopted"] = adoption.values[i];
    out["parameters"].push_back(parameter);
  }
  out["fit"] = {{"before", quality_json(result.before)}, {"after", quality_json(result.after)}};
  for (std::size_t j = 0; j < points.size(); ++j)
    out["fit"]["points"].push_back({{"x", points[j].x},
                                    {"measured", points[j].y},
                                    {"sd", points[j].sd},
                                    {"before", result.predicted_before[j]},
                                    {"after", result.predicted_after[j]}});
  return out;
}

} // namespace sonicsim
