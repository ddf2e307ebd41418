#include "sim/app/calibrate/model_form_json.hpp"

#include "sim/metrics/json_fields.hpp"
#include "sim/metrics/number_text.hpp"

#include <cmath>

#include <algorithm>

namespace sonicsim {

namespace {

nlohmann::ordered_json points_json(const std::vector<HeldOutPoint>& points, const char* predicted) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& p : points)
    out.push_back({{"series", p.series},
                   {"x", p.x},
                   {"measured", p.measured},
                   {"sd", p.sd},
                   {predicted, p.predicted},
                   {"relative_error", p.relative_error()}});
  return out;
}

double share(std::size_t covered, std::size_t of) {
  return of == 0 ? 0.0 : static_cast<double>(covered) / static_cast<double>(of);
}

} // namespace

nlohmann::ordered_json coverage_json(const HeldOutCoverage& coverage, const TextOutput& say) {
  say("\nthe interval as quoted, checked where the answer is known: each held-out point predicted as an "
      "answer "
      "is (the fit without its series, %d seeds, its calibration part, the held parameters at their bounds, "
      "the other series' misfit; the measurement's sd in quadrature)\n",
      coverage.replications);
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const auto& c : coverage.points) {
    const auto side = [](double x) {
      return std::isfinite(x) ? nlohmann::ordered_json(x) : nlohmann::ordered_json(nullptr);
    };
    say("  %-30s x %-6g measured %-8.4g predicted %-8s 95 %% %s .. %s%s\n", c.point.series.c_str(), c.point.x,
        c.point.measured, c.value ? significant(*c.value).c_str() : "none",
        significant(c.interval.first).c_str(), significant(c.interval.second).c_str(),
        c.covered ? "" : "  NOT COVERED");
    points.push_back(
        {{"series", c.point.series},
         {"x", c.point.x},
         {"measured", c.point.measured},
         {"sd", c.point.sd},
         {"predicted", c.value ? nlohmann::ordered_json(*c.value) : nlohmann::ordered_json(nullptr)},
         {"interval95", {side(c.interval.first), side(c.interval.second)}},
         {"covered", c.covered}});
  }
  say("held-out coverage of the interval as quoted: %zu of %zu (%.0f %%; nominal 95 %%); calibration part "
      "from "
      "%s\n",
      coverage.covered, coverage.points.size(), 100.0 * share(coverage.covered, coverage.points.size()),
      coverage.calibration_part.c_str());
  return {{"what", "each held-out point predicted as an answer is, by the fit without its series"},
          {"replications", coverage.replications},
          {"calibration_part", coverage.calibration_part},
          {"covered", coverage.covered},
          {"points_checked", coverage.points.size()},
          {"coverage", share(coverage.covered, coverage.points.size())},
          {"points", points}};
}

nlohmann::ordered_json model_form_json(const ModelForm& model_form) {
  nlohmann::ordered_json out{{"method", "leave_one_series_out"},
                             {"left_out", model_form.left_out},
                             {"values", model_form.values},
                             {"covariances", model_form.covariances},
                             {"held_out", points_json(model_form.held_out, "predicted_without_its_series")},
                             {"relative_rms", model_form.relative_rms},
                             {"covered", model_form.covered},
                             {"coverage", share(model_form.covered, model_form.held_out.size())}};
  if (!model_form.ratios.empty())
    out.update({{"ratios_to_direct", points_json(model_form.ratios, "predicted_each_without_its_series")},
                {"ratio_relative_rms", model_form.ratio_relative_rms},
                {"ratio_covered", model_form.ratio_covered},
                {"ratio_coverage", share(model_form.ratio_covered, model_form.ratios.size())}});
  return out;
}

nlohmann::ordered_json model_form_read_back_json(const ModelForm& model_form, const std::string& from) {
  nlohmann::ordered_json out{{"from", from},
                             {"left_out", model_form.left_out},
                             {"values", model_form.values},
                             {"covariances", model_form.covariances},
                             {"relative_rms", model_form.relative_rms},
                             {"covered", model_form.covered}};
  if (!model_form.ratios.empty())
    out.update(
        {{"ratio_relative_rms", model_form.ratio_relative_rms}, {"ratio_covered", model_form.ratio_covered}});
  return out;
}

std::optional<ModelForm> model_form_from_file(const JointSpec& spec, const std::string& path) {
  const JsonFields json = JsonFields::read_file(path);
  if (!json.is_object() || !json.has("model_form")) return std::nullopt;
  const JsonFields form = json.at("model_form");
  ModelForm out;
  const JsonFields fits = form.at("values");
  for (std::size_t f = 0; f < fits.size(); ++f) {
    const JsonFields fit = fits.at(f);
    if (fit.size() != spec.parameters.size())
      fit.fail("the spec's " + std::to_string(spec.parameters.size()) + " parameter value(s)");
    std::vector<double> values;
    for (std::size_t i = 0; i < fit.size(); ++i) {
      values.push_back(fit.at(i).number());
      const auto& bounds = spec.parameters[i].fit;
      if (values.back() < bounds.lower || values.back() > bounds.upper)
        fit.at(i).fail("a value within " + spec.parameters[i].fit.key + "'s bounds");
    }
    out.values.push_back(std::move(values));
    out.left_out.push_back(form.at("left_out").at(f).text());
  }
  // Each fit's covariance, where the file keeps them (k x k each, as the values).
  if (form.has("covariances")) {
    const JsonFields covariances = form.at("covariances");
    for (std::size_t f = 0; f < covariances.size(); ++f) {
      const JsonFields c = covariances.at(f);
      if (c.size() != spec.parameters.size() * spec.parameters.size())
        c.fail("the spec's " + std::to_string(spec.parameters.size()) + " x " +
               std::to_string(spec.parameters.size()) + " covariance entries");
      std::vector<double> entries;
      for (std::size_t i = 0; i < c.size(); ++i)
        entries.push_back(c.at(i).number());
      out.covariances.push_back(std::move(entries));
    }
    if (out.covariances.size() != out.values.size()) covariances.fail("one covariance per leave-one-out fit");
  }
  out.relative_rms = form.number_or("relative_rms", 0.0);
  out.covered = form.has("covered") ? static_cast<std::size_t>(form.at("covered").integer()) : 0;
  // The held-out points, where the file has them: the ratios to the direct levels are computed from them by
  // the spec's references, as the fit that wrote the file would have.
  if (form.has("held_out")) {
    const JsonFields points = form.at("held_out");
    for (std::size_t i = 0; i < points.size(); ++i) {
      const JsonFields p = points.at(i);
      out.held_out.push_back({p.at("series").text(), p.at("x").number(), p.at("measured").number(),
                              p.at("sd").number(), p.at("predicted_without_its_series").number()});
    }
    summarise_held_out(spec, out);
  } else if (std::any_of(spec.series.begin(), spec.series.end(),
                         [](const JointSeries& s) { return !s.reference.empty(); })) {
    // Without its points the ratios to the direct levels cannot be formed, and the crossings' misfit would
    // silently fall back to the points' RMS.
    form.fail("held_out points: this spec's series name direct references, whose held-out ratios the "
              "predictions' misfit rests on (fit again without --predict-from)");
  }
  return out;
}

} // namespace sonicsim
