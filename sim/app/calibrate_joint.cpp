// `sonicsim calibrate --spec FILE`: fits the spec's parameters jointly to all its series (each point's
// residual in units of its sd, so a series weighs by its measurements' precision), reports each value with
// its interval, the correlations and what the data cannot separate, adopts only what they measure, then
// predicts the spec's predictions with intervals that carry the fit's uncertainty. Writes calibration.json
// and predictions.md.
#include "sim/app/calibrate_joint.hpp"

#include "sim/execution/interruption.hpp"
#include "sim/metrics/json_fields.hpp"

#include "models/student_t.hpp"
#include "sim/app/joint_derived.hpp"
#include "sim/app/joint_prediction_output.hpp"
#include "sim/app/joint_runs.hpp"
#include "sim/app/model_form_json.hpp"
#include "sim/calibration/conditional_fit.hpp"
#include "sim/calibration/joint_fit.hpp"
#include "sim/calibration/joint_prediction.hpp"
#include "sim/calibration/model_form.hpp"
#include "sim/calibration/rival_fits.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/metrics/number_text.hpp"
#include "sim/scenario/input_error.hpp"
#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

namespace sonicsim {
namespace {

// What the terminal and predictions.md show: 4 significant digits (files keep full precision).
std::string g(double value) {
  return significant(value, 4);
}

// Every series loads with each parameter at each bound (the others at their starts): a value the scenario
// refuses is told at the spec's line that sets it, before any run. (read_joint_spec has loaded each series
// with its own overrides already.)
void check_spec_loads(const JointSpec& spec) {
  std::vector<double> starts;
  for (const auto& p : spec.parameters)
    starts.push_back(p.initial);
  for (const JointSeries& series : spec.series)
    for (std::size_t i = 0; i < spec.parameters.size(); ++i)
      for (const bool at_upper : {false, true}) {
        const JointParameter& p = spec.parameters[i];
        std::vector<double> values = starts;
        values[i] = at_upper ? p.fit.upper : p.fit.lower;
        auto overrides = series.overrides;
        for (auto& o : parameter_overrides(spec, {series.name}, values))
          overrides.push_back(std::move(o));
        try {
          load_variant_file(series.scenario, series.variants, overrides);
        } catch (const ScenarioError& e) {
          const auto at = at_upper ? p.upper_at : p.lower_at;
          throw ScenarioError(spec.file, at.first, at.second,
                              "parameters[" + std::to_string(i) + "]." + (at_upper ? "upper" : "lower"),
                              "the parameter at this bound (" + g(values[i]) + p.fit.unit +
                                  ") is refused by series " + series.name + "'s scenario (" +
                                  series.scenario + "): " + spec_override_problem(e));
        }
      }
}

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

// The constraint table: each released fact beside the scenario's value before and after the fit.
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

// The fit from every start, each start's end printed as it comes and kept in `starts`.
calibration::CalibrationResult fit_spec(const JointSpec& spec, const JointSimulator& simulator,
                                        const TextOutput& say, std::vector<FitStart>& starts) {
  const auto fit = fit_joint(spec, simulator, [&](const FitStart& start) {
    const std::size_t n = starts.size() + 1;
    if (n == 1)
      say("start 1 (the initial values): chi-square %.2f after %d evaluations\n", start.chi_square,
          start.evaluations);
    else
      say("start %zu: chi-square %.2f after %d evaluations\n", n, start.chi_square, start.evaluations);
    starts.push_back(start);
  });
  return fit.result;
}

// calibration.json's `starts`: where each start began and ended, and its chi-square.
nlohmann::ordered_json starts_json(const std::vector<FitStart>& starts) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& start : starts)
    out.push_back({{"start", start.start}, {"values", start.values}, {"chi_square", start.chi_square}});
  return out;
}

// The starts' ends the data cannot tell from the best (sim/calibration/rival_fits.hpp), said as found.
std::vector<RivalFit> rival_fits_of(const std::vector<FitStart>& ends, std::size_t points, std::size_t fitted,
                                    const TextOutput& say) {
  const auto rivals = rival_fits(ends, points, fitted);
  if (ends.size() > 1) {
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
  return rivals;
}

// The held-out ratios of the SONIC points to their direct levels, which a crossing's or a gain's misfit
// rests on.
void say_ratios(const ModelForm& form, const TextOutput& say) {
  if (form.ratios.empty()) return;
  for (const auto& r : form.ratios)
    say("  %-30s x %-6g over its direct level: measured %-7.4g predicted %-7.4g %+6.2f %%\n",
        r.series.c_str(), r.x, r.measured, r.predicted, 100.0 * r.relative_error());
  say("model form: ratios to direct inference off by %.2f %% (relative RMS; what a crossing or a gain rests "
      "on); %zu of %zu within their 95 %% interval\n",
      100.0 * form.ratio_relative_rms, form.ratio_covered, form.ratios.size());
}

nlohmann::ordered_json rival_fits_json(const std::vector<RivalFit>& rivals) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& r : rivals)
    out.push_back({{"start", r.start + 1}, {"chi_square", r.chi_square}, {"values", r.values}});
  return out;
}

// A finished fit read back from its calibration.json (--predict-from): the values, what was adopted and the
// covariance (written since this option exists; before, rebuilt from the 95 % half-widths, which are t_{n-k}
// standard deviations, and the correlations). The series' points are not simulated again.
calibration::CalibrationResult fit_from_file(const JointSpec& spec, const std::string& path,
                                             std::size_t points, const TextOutput& say,
                                             std::vector<FitStart>& starts) {
  const JsonFields json = [&]() {
    try {
      return JsonFields::read_file(path);
    } catch (const InputError& e) {
      throw InputError(std::string("--predict-from ") + e.what());
    }
  }();
  if (!json.is_object() || !json.has("parameters"))
    throw InputError("--predict-from " + path +
                     ": not a calibration.json of calibrate --spec (no parameters)");
  const std::size_t k = spec.parameters.size();
  const JsonFields parameters = json.at("parameters");
  if (parameters.size() != k)
    parameters.fail("the spec's " + std::to_string(k) + " parameter(s) (this fit is of another spec)");
  calibration::CalibrationResult r;
  const double t = models::student_t_975(static_cast<int>(std::max<std::size_t>(1, points - k)));
  std::vector<double> sd(k, 0.0);
  for (std::size_t i = 0; i < k; ++i) {
    const JsonFields p = parameters.at(i);
    const std::string key = p.at("key").text();
    if (key != spec.parameters[i].fit.key)
      p.at("key").fail("the spec's parameter " + std::to_string(i + 1) + ", " + spec.parameters[i].fit.key);
    r.values.push_back(p.at("value").number());
    const calibration::FitParameter& fit = spec.parameters[i].fit;
    if (r.values.back() < fit.lower || r.values.back() > fit.upper)
      p.at("value").fail("a value within the spec's bounds, " + g(fit.lower) + " to " + g(fit.upper) + " " +
                         fit.unit);
    r.identifiable.push_back(p.at("identifiable").boolean());
    r.separable.push_back(p.at("separable").boolean());
    r.at_bound.push_back(p.at("at_bound").boolean());
    const double half_width =
        p.has("ci95_half_width") ? p.at("ci95_half_width").number() : std::numeric_limits<double>::infinity();
    if (half_width < 0.0) p.at("ci95_half_width").fail("a half-width of 0 or more");
    r.ci95_half_width.push_back(half_width);
    sd[i] = half_width / t;
  }
  const bool has_covariance = json.has("covariance");
  if (has_covariance && json.at("covariance").size() != k * k)
    json.at("covariance")
        .fail("a " + std::to_string(k) + " x " + std::to_string(k) +
              " matrix (one row per parameter, flattened to " + std::to_string(k * k) + " numbers)");
  r.correlation.assign(k * k, 0.0);
  r.covariance.assign(k * k, 0.0);
  for (std::size_t i = 0; i < k; ++i) {
    const JsonFields correlations =
        k > 1 ? parameters.at(i).at("correlations") : JsonFields(nlohmann::json::object(), path);
    for (std::size_t j = 0; j < k; ++j) {
      const double c = i == j ? 1.0 : correlations.number_or(spec.parameters[j].fit.key, 0.0);
      if (c < -1.0 || c > 1.0) correlations.at(spec.parameters[j].fit.key).fail("a correlation in -1..1");
      r.correlation[i * k + j] = c;
      r.covariance[i * k + j] =
          has_covariance ? json.at("covariance").at(i * k + j).number() : c * sd[i] * sd[j];
    }
    if (r.covariance[i * k + i] < 0.0) json.at("covariance").at(i * k + i).fail("a variance of 0 or more");
  }
  // Where each start ended, for the rival fits (written since they exist; none before).
  if (json.has("starts"))
    for (std::size_t i = 0; i < json.at("starts").size(); ++i) {
      const JsonFields start = json.at("starts").at(i);
      std::vector<double> values;
      for (std::size_t j = 0; j < start.at("values").size(); ++j)
        values.push_back(start.at("values").at(j).number());
      if (values.size() != k) start.at("values").fail(std::to_string(k) + " values, one per parameter");
      starts.push_back({{}, values, start.at("chi_square").number(), 0});
    }
  r.status_text = "read from " + path + " (not fitted again)";
  say("parameters read from %s; the series are not simulated again\n", path.c_str());
  return r;
}

// What the fit adopts, and what is not adopted back at its kept value with the others fitted again beside it
// (sim/calibration/conditional_fit.hpp): `result` becomes that refit, `unconditional` the table of the fit of
// all parameters together (empty when every parameter was adopted at once).
Adoption adopt_refitted(const JointSpec& spec, const JointSimulator& simulator,
                        calibration::CalibrationResult& result, nlohmann::ordered_json& unconditional,
                        const TextOutput& say) {
  const ConditionalFit conditional =
      fit_conditionally(spec, simulator, result, [&](const std::vector<std::string>&) {
        if (!unconditional.empty()) return;
        say("the fit of all parameters together:\n");
        unconditional = parameters_json(spec, result, adopt(spec, result), say);
      });
  if (conditional.rounds > 0) {
    result = conditional.result;
    say("\nthe adopted parameters fitted again with the others held at their kept values (%d round%s):\n",
        conditional.rounds, conditional.rounds > 1 ? "s" : "");
  }
  return conditional.adoption;
}

} // namespace

int calibrate_joint(const std::string& spec_path, const ExecutionContext& context,
                    const std::filesystem::path& output_dir, bool text, bool json_out,
                    const std::string& predict_from) {
  const JointSpec spec = read_joint_spec(spec_path);
  check_spec_loads(spec);
  const TextOutput say{text};
  RunCache prediction_runs;
  const JointSimulator simulator = joint_simulator(context, &prediction_runs);
  const std::size_t points = series_data(spec).size();
  say("calibrate: %zu parameter(s) jointly on %zu series, %zu points (%s); common random numbers\n",
      spec.parameters.size(), spec.series.size(), points, spec_path.c_str());
  std::vector<FitStart> starts;
  auto result = predict_from.empty() ? fit_spec(spec, simulator, say, starts)
                                     : fit_from_file(spec, predict_from, points, say, starts);
  say("\n%s after %d evaluations\n", result.status_text.c_str(), result.evaluations);
  if (predict_from.empty())
    say(result.seeds > 1 ? "the answer: the mean of the best start's fits at %d seeds, their spread in each "
                           "interval\n\n"
                         : "the answer: the fit at %d seed (its seed noise is not in the intervals)\n\n",
        result.seeds);
  else
    say("\n");
  nlohmann::ordered_json unconditional;
  const Adoption adoption = predict_from.empty() ? adopt_refitted(spec, simulator, result, unconditional, say)
                                                 : adopt(spec, result);
  nlohmann::ordered_json out;
  out["spec"] = spec_path;
  out["status"] = result.status_text;
  if (predict_from.empty()) out["evaluations"] = result.evaluations;
  if (predict_from.empty()) out["seeds"] = result.seeds;
  if (predict_from.empty())
    out["starts"] = starts_json(starts);
  else
    out["predicted_from"] = predict_from;
  out["covariance"] = result.covariance;
  out["parameters"] = parameters_json(spec, result, adoption, say);
  if (!unconditional.empty()) out["unconditional_parameters"] = unconditional;
  if (predict_from.empty()) out["series"] = series_json(spec, result, say);
  if (!adoption.checks.empty()) out["constraints"] = constraints_json(adoption.checks, say);
  const std::vector<double>& values = adoption.values;
  if (predict_from.empty())
    say("\nfit: chi-square %.2f before, %.2f after; MAPE %.2f %% before, %.2f %% after\n",
        result.before.chi_square, result.after.chi_square, 100 * result.before.mape, 100 * result.after.mape);
  if (predict_from.empty())
    out["derived"] = derived_quantities_json(spec, simulate_series_runs(spec, context, values), say);
  std::optional<ModelForm> model_form;
  if (spec.leave_one_series_out && predict_from.empty()) {
    say("\nmodel form: each series predicted by a fit to the others\n");
    model_form = leave_one_series_out(
        spec, simulator, values,
        [&](const HeldOutPoint& point) {
          say("  without %-30s x %-6g measured %-8.4g predicted %-8.4g %+6.2f %%\n", point.series.c_str(),
              point.x, point.measured, point.predicted, 100.0 * point.relative_error());
        },
        adoption.adopted);
    say("model form: held-out points off by %.2f %% (relative RMS); %zu of %zu within their 95 %% interval "
        "(measurement sd and the other series' model error)\n",
        100.0 * model_form->relative_rms, model_form->covered, model_form->held_out.size());
    say_ratios(*model_form, say);
    out["model_form"] = model_form_json(*model_form);
  } else if (spec.leave_one_series_out) {
    // The fit's own leave-one-out fits, as it found them: the predictions made from it carry the same term.
    model_form = model_form_from_file(spec, predict_from);
    if (!model_form)
      throw InputError("--predict-from " + predict_from +
                       ": no model_form in it, and the spec asks for one (fit again without --predict-from)");
    out["model_form"] = model_form_read_back_json(*model_form, predict_from);
    say_ratios(*model_form, say);
  }
  const std::vector<RivalFit> rivals = rival_fits_of(starts, points, spec.parameters.size(), say);
  if (!rivals.empty()) out["rival_fits"] = rival_fits_json(rivals);
  std::vector<PredictionResult> predictions;
  for (const auto& prediction : spec.predictions) {
    predictions.push_back(
        predict(spec, prediction, simulator, values, result.covariance, adoption.adopted, rivals));
    auto& p = predictions.back();
    if (model_form) add_model_form(spec, prediction, simulator, *model_form, values, p);
    out["predictions"].push_back(prediction_json(p, say));
  }
  const std::vector<PredictionAnswer> answers = answers_of(spec, predictions);
  if (!answers.empty()) out["answers"] = answers_json(answers, say);
  if (model_form)
    out["model_form"]["coverage_as_quoted"] = coverage_json(
        held_out_coverage(spec, simulator, *model_form, result.covariance, adoption.adopted, spec.seeds),
        say);
  if (!spec.predictions.empty())
    say("\npredictions: %zu runs made, %zu answered by a run already made for another\n",
        prediction_runs.summaries.size(), prediction_runs.reused);
  throw_if_interrupted("the calibration was stopped before its results were written; nothing was written");
  write_file_atomically(output_dir / "predictions.md",
                        predictions_markdown(spec, predictions, answers, values, adoption.adopted));
  // Last: a directory without calibration.json is not a finished calibration.
  write_file_atomically(output_dir / "calibration.json", json_text(out, 2) + "\n");
  say("\nwrote %s/calibration.json and predictions.md\n", output_dir.string().c_str());
  if (json_out) std::printf("%s\n", json_text(out, 1).c_str());
  return 0;
}

} // namespace sonicsim
