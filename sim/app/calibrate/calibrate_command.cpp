// `sonicsim calibrate`: fit scenario parameters to a measured series by simulation (sim/calibration), report
// each value with its 95 % interval, the residuals, MAPE and Pearson r before and after, a held-out series
// predicted with and without the fit, and write the calibrated scenario.
#include "sim/analysis/figure_context.hpp"
#include "sim/app/calibrate/calibrate_inputs.hpp"
#include "sim/app/calibrate/calibrate_joint.hpp"
#include "sim/app/calibrate/calibrated_scenario.hpp"
#include "sim/app/calibrate/single_series_fit.hpp"
#include "sim/app/commands.hpp"
#include "sim/app/common/execution_flags.hpp"
#include "sim/app/common/input_files.hpp"
#include "sim/app/common/output_options.hpp"
#include "sim/app/common/scenario_source.hpp"
#include "sim/app/run/html_report.hpp"
#include "sim/calibration/calibration.hpp"
#include "sim/calibration/measured_series.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/execution/interruption.hpp"
#include "sim/execution/progress.hpp"
#include "sim/execution/run_cache.hpp"
#include "sim/execution/run_or_submit.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/metrics/json_fields.hpp"
#include "sim/random/replication_seed.hpp"
#include "sim/scenario/input_error.hpp"
#include "sim/scenario/overrides.hpp"
#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "sim/scenario/units.hpp"

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

namespace sonicsim {
namespace {

// The simulated observable at each point, for the scenario with these parameter values.
std::vector<double>
simulate_points(const CalibrateArguments& a, const FigureName& figure, const ExecutionContext& context,
                const std::string& scenario_path, const std::vector<calibration::DataPoint>& points,
                const std::vector<calibration::FitParameter>& parameters, const std::vector<double>& values,
                std::optional<std::uint64_t> seed = std::nullopt, RunCache* cache = nullptr) {
  std::vector<SimulationRequest> requests;
  for (const auto& point : points) {
    std::vector<std::string> overrides = a.set_overrides;
    overrides.push_back(a.x_key + "=" + value_text(point.x, ""));
    for (std::size_t i = 0; i < parameters.size(); ++i)
      overrides.push_back(parameters[i].key + "=" + value_text(values[i], parameters[i].unit));
    SimulationRequest request;
    request.scenario = load_for(a, scenario_path, overrides);
    if (seed) request.scenario.seed = *seed; // another replication's seed, as a replication is run
    request.recipe = ScenarioRecipe{std::filesystem::absolute(scenario_path).string(),
                                    scenario_path == a.scenario ? a.variants : std::vector<std::string>{},
                                    overrides, request.scenario.seed, std::nullopt};
    requests.push_back(std::move(request));
  }
  // A fit asks for some points twice (the forward differences start from the point just evaluated; the
  // covariance's Jacobian is taken at the answer): with `cache`, those are not simulated again.
  const auto outcomes = run_cached(context, requests, cache);
  std::vector<double> predicted;
  for (std::size_t k = 0; k < outcomes.size(); ++k) {
    if (!outcomes[k].ok) throw std::runtime_error("a calibration run failed: " + outcomes[k].error);
    predicted.push_back(
        analysis::named_figure_value(figure, outcomes[k].summary, requests[k].scenario, "--observable"));
  }
  return predicted;
}

// The held-out series predicted with the uncalibrated and the adopted values: does the fit generalise?
nlohmann::ordered_json predict_holdout(const CalibrateArguments& a, const FigureName& figure,
                                       const ExecutionContext& context, const HoldoutSeries& holdout,
                                       const std::vector<calibration::FitParameter>& parameters,
                                       const std::vector<double>& initial, const std::vector<double>& adopted,
                                       const TextOutput& say) {
  const std::string& scenario = holdout.scenario;
  const std::string& series = holdout.series;
  const auto& held = holdout.points.points;
  const auto before = simulate_points(a, figure, context, scenario, held, parameters, initial);
  const auto after = simulate_points(a, figure, context, scenario, held, parameters, adopted);
  const auto q_before = calibration::fit_quality(held, before),
             q_after = calibration::fit_quality(held, after);
  say("\nheld-out series '%s' (%s), predicted, not fitted:\n", series.c_str(), scenario.c_str());
  if (say.on) print_quality("uncalibrated", q_before);
  if (say.on) print_quality("calibrated", q_after);
  say("  %s\n", q_after.mape <= q_before.mape
                    ? "the calibration does not make the held-out series worse"
                    : "WARNING: the fit makes the held-out series worse: it absorbs something the "
                      "parameter does not describe");
  return {{"scenario", scenario},
          {"series", series},
          {"uncalibrated", quality_json(q_before)},
          {"calibrated", quality_json(q_after)}};
}

// Only what was adopted: a value the data cannot tell from the start (not identifiable, or its interval
// includes the start) is not written over the scenario's.
std::vector<CalibratedValue> calibrated_values(const CalibrateArguments& a, const CheckedInputs& in,
                                               const calibration::CalibrationResult& result,
                                               const std::vector<double>& adopted) {
  std::vector<CalibratedValue> written;
  for (std::size_t i = 0; i < in.parameters.size(); ++i) {
    if (adopted[i] == in.initial[i]) continue;
    const auto& p = in.parameters[i];
    const std::string interval = result.at_bound[i]
                                     ? " (at its bound)"
                                     : " +- " + value_text(result.ci95_half_width[i], p.unit) + " (95 %)";
    written.push_back({&p, adopted[i],
                       value_text(adopted[i], p.unit) + interval +
                           ", fitted by `sonicsim calibrate` to series '" + a.series + "' of " + a.data +
                           " (" + in.observable.text() + ")"});
  }
  return written;
}

// --spec: the joint calibration; the single-series options are not taken with it.
int calibrate_from_spec(const CalibrateArguments& a) {
  if (!a.scenario.empty() || !a.data.empty() || !a.fits.empty() || !a.series.empty() || !a.holdout.empty())
    throw InputError("--spec " + a.spec +
                     ": the spec names the scenarios, series and parameters; expected no SCENARIO, --data, "
                     "--series, --fit or --holdout with it");
  const ExecutionOptions execution = execution_options(a.execution, a.quiet || a.json);
  const std::filesystem::path output_dir = a.output_dir.empty() ? "out/calibrate" : a.output_dir;
  ensure_writable_directory(output_dir);
  // One progress line over the fit's evaluations, the model-form fits and the predictions: each step's
  // simulations depend on the last, so it estimates the ones it knows.
  Progress progress("calibrate", 0, "simulations", execution.quiet);
  progress.expect_later(std::nullopt, "");
  const ExecutionContext context{execution, output_dir, "calibrate",
                                 (output_dir / "calibration.json").string(), &progress};
  if (submit_as_driver(context, (output_dir / "calibration.json").string())) return exit_ok;
  const int code = calibrate_joint(a.spec, context, output_dir, !a.quiet && !a.json, a.json, a.predict_from);
  progress.finish();
  write_html_report_if_asked(a.html, output_dir, a.quiet || a.json);
  return code;
}

// A single-series calibration names its scenario, data, series, columns, observable and parameters.
void require_single_series_options(const CalibrateArguments& a) {
  for (const auto& [value, option] : {std::pair{&a.scenario, "SCENARIO"},
                                      {&a.data, "--data"},
                                      {&a.series, "--series"},
                                      {&a.x_column, "--x"},
                                      {&a.y_column, "--y"},
                                      {&a.sd_column, "--sd"},
                                      {&a.observable, "--observable"}})
    if (value->empty())
      throw InputError(std::string(option) + " is required (or --spec FILE for a joint calibration)");
  if (a.fits.empty()) throw InputError("--fit is required (or --spec FILE for a joint calibration)");
  require_input_file(a.scenario, "a YAML scenario file (SCENARIO)");
}

// The fit is one seed's simulation (common random numbers); it is repeated at two more seeds (replications 1
// and 2 of the scenario's seed) and the answer is the three fits' mean (calibration.hpp).
std::vector<calibration::Predictor> other_seed_predictors(const CalibrateArguments& a,
                                                          const CheckedInputs& in,
                                                          const ExecutionContext& context, Progress& progress,
                                                          RunCache& cache) {
  const std::uint64_t seed = load_for(a, a.scenario, a.set_overrides).seed;
  std::vector<calibration::Predictor> other_seeds;
  for (int replication = 1; replication <= 2; ++replication)
    other_seeds.push_back(
        [&a, &in, &context, &progress, &cache, seed, replication](const std::vector<double>& values) {
          progress.expect_later(std::nullopt, "the fit at seed " + std::to_string(replication + 1) + " of 3");
          return simulate_points(a, in.observable, context, a.scenario, in.series.points, in.parameters,
                                 values, replication_seed(seed, replication), &cache);
        });
  return other_seeds;
}

int calibrate(const CalibrateArguments& a) {
  if (!a.predict_from.empty() && a.spec.empty())
    throw InputError("--predict-from " + a.predict_from + ": only with --spec (the spec it was fitted with)");
  if (!a.spec.empty()) return calibrate_from_spec(a);
  require_single_series_options(a);
  const ExecutionOptions execution = execution_options(a.execution, a.quiet || a.json);
  const CheckedInputs in = check_inputs(a);
  Progress progress("calibrate", 0, "simulations", execution.quiet);
  const ExecutionContext context{execution, in.output_dir, "calibrate",
                                 (in.output_dir / "calibration.json").string(), &progress};
  if (submit_as_driver(context, (in.output_dir / "calibration.json").string())) return exit_ok;
  // The result on stdout unless -q or --json (then calibration.json's content alone).
  const bool text = !a.quiet && !a.json;
  const TextOutput say{text};
  const auto& parameters = in.parameters;
  const auto& initial = in.initial;
  const auto& points = in.series.points;
  // The fit decides each evaluation from the last: the estimate is of this one, with the budget left.
  int evaluation = 0;
  RunCache fit_runs;
  const calibration::Predictor predict = [&](const std::vector<double>& values) {
    progress.expect_later(std::nullopt, "evaluation " + std::to_string(++evaluation) + " of at most " +
                                            std::to_string(a.max_evaluations));
    return simulate_points(a, in.observable, context, a.scenario, points, parameters, values, std::nullopt,
                           &fit_runs);
  };
  const auto other_seeds = other_seed_predictors(a, in, context, progress, fit_runs);
  say("calibrate: %zu parameter(s) on %zu points of series '%s' (%s), common random numbers, "
      "fitted at 3 seeds (the scenario's and two replications') and averaged\n",
      parameters.size(), points.size(), a.series.c_str(), a.data.c_str());
  const auto result =
      calibration::calibrate(parameters, initial, points, predict, a.max_evaluations, other_seeds);

  progress.finish();
  say("\n%s after %d evaluations (%zu runs made, %zu answered by a run already made)\n\n",
      result.status_text.c_str(), result.evaluations, fit_runs.summaries.size(), fit_runs.reused);
  const SeriesAdoption adoption = adopt_fitted(parameters, initial, result, say);
  const std::vector<double>& adopted = adoption.values;
  print_fit_points(points, result, say);
  say("\nfit series '%s':\n", a.series.c_str());
  if (text) print_quality("before", result.before);
  if (text) print_quality("after", result.after);
  nlohmann::ordered_json out = single_series_json(a, in, result, adoption);

  if (in.holdout) {
    // After the fit's line is finished: the held-out series' two batches have their own lines.
    ExecutionContext holdout_context = context;
    holdout_context.progress = nullptr;
    out["holdout"] =
        predict_holdout(a, in.observable, holdout_context, *in.holdout, parameters, initial, adopted, say);
  }

  const std::string dir = in.output_dir.string();
  throw_if_interrupted("the calibration was stopped before its results were written; nothing was written");
  write_calibrated_yaml(a, calibrated_values(a, in, result, adopted), in.output_dir / "calibrated.yaml");
  // Last: a directory without calibration.json is not a finished calibration.
  write_file_atomically(dir + "/calibration.json", json_text(out, 2) + "\n");
  say("\nwrote %s/calibration.json and %s/calibrated.yaml\n", dir.c_str(), dir.c_str());
  std::fflush(stdout);
  if (a.json) std::printf("%s\n", json_text(out, 1).c_str());
  write_html_report_if_asked(a.html, in.output_dir, !text);
  return exit_ok;
}

} // namespace

void register_calibrate_command(CLI::App& app, int& result) {
  auto a = std::make_shared<CalibrateArguments>();
  auto* command = app.add_subcommand(
      "calibrate", "Fit scenario parameters to a measured series by simulation (Levenberg-Marquardt, common "
                   "random numbers); report intervals, residuals, MAPE, Pearson r and a held-out check");
  // Its file is checked where the single-series options are (sim/app/common/input_files.hpp says why not
  // here).
  command->add_option("scenario", a->scenario, "Scenario YAML file (not with --spec)");
  command
      ->add_option("--spec", a->spec,
                   "A joint calibration: several measured series, each with its scenario, variants and "
                   "observable, the parameters and the predictions (docs/calibration.md; e.g. "
                   "validation/calibration/cms_miniaod_2024.yaml)")
      ->check(CLI::ExistingFile);
  command
      ->add_option("--predict-from", a->predict_from,
                   "With --spec: take the fit from this calibration.json of the same spec and run only the "
                   "predictions (e.g. with more replications)")
      ->check(CLI::ExistingFile);
  command
      ->add_option(
          "--variant", a->variants,
          "Apply a named variant of the scenario (variants:); repeatable, applied in order, before --set")
      ->allow_extra_args(false);
  command->add_option("--set", a->set_overrides, "Override a scenario field for every run (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  command->add_option("--data", a->data, "Measured series: CSV with a 'series' column")
      ->check(CLI::ExistingFile);
  command->add_option("--series", a->series, "The series to fit");
  command->add_option("--x", a->x_column, "Column of the varied quantity (e.g. clients)");
  command->add_option("--y", a->y_column, "Column of the measured observable");
  command->add_option("--sd", a->sd_column, "Column of its standard deviation");
  command->add_option("--x-key", a->x_key, "Scenario key the x column sets (default workload.jobs)");
  command->add_option(
      "--observable", a->observable,
      "The simulated figure compared with the measured one, any figure `sonicsim figures` lists: "
      "event_mean_s, events_per_s, inferences_per_s, module_mean_s:NAME, ...");
  command
      ->add_option("--fit", a->fits,
                   "KEY=LOWER:UPPER[@INITIAL], bounds with their unit (repeatable); without @INITIAL the fit "
                   "starts at the scenario's value")
      ->allow_extra_args(false);
  command->add_option("--holdout", a->holdout, "SCENARIO:SERIES predicted with and without the fit");
  command
      ->add_option("--exclude", a->exclude,
                   "Leave the point at this x out of the fit and the held-out check (repeatable): a point "
                   "known not to be described, e.g. a validation case's known discrepancy")
      ->allow_extra_args(false)
      ->check(CLI::Validator(
          [](const std::string& text) {
            char* end = nullptr;
            const double value = std::strtod(text.c_str(), &end);
            return !text.empty() && *end == '\0' && std::isfinite(value)
                       ? std::string()
                       : "expected a finite x value of the series, got '" + text + "'";
          },
          "X"));
  command->add_option("--max-evaluations", a->max_evaluations, "Budget of objective evaluations (default 30)")
      ->check(CLI::Range(2, 1000));
  command->add_option("--out", a->output_dir, "Output directory (default out/calibrate)")
      ->check(directory_path);
  add_execution_options(*command, a->execution, ExecutionShape::deciding);
  add_html_option(*command, a->html);
  add_output_options(*command, a->quiet, &a->json);
  add_seed_option(*command, a->seed);
  command->callback([a, &result]() {
    if (a->seed) a->set_overrides.push_back("seed=" + std::to_string(*a->seed));
    result = guarded_batches(*a, calibrate);
  });
}

} // namespace sonicsim
