// `sonicsim calibrate --spec FILE`: the joint calibration (sim/calibration/joint_calibration.hpp) printed as
// it goes and written: calibration.json (the fit, what it adopts, the model form, the rivals, every
// prediction and the answers) and predictions.md. The procedure is the calibration floor's; this file only
// shows it.
#include "sim/app/calibrate/calibrate_joint.hpp"

#include "sim/app/calibrate/fit_read_back.hpp"
#include "sim/app/calibrate/joint_derived.hpp"
#include "sim/app/calibrate/joint_fit_json.hpp"
#include "sim/app/calibrate/joint_prediction_output.hpp"
#include "sim/app/calibrate/joint_runs.hpp"
#include "sim/app/calibrate/model_form_json.hpp"
#include "sim/calibration/joint_calibration.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/execution/interruption.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/metrics/json_fields.hpp"
#include "sim/metrics/number_text.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace sonicsim {
namespace {

void say_start(const FitStart& start, std::size_t n, const TextOutput& say) {
  if (n == 1)
    say("start 1 (the initial values): chi-square %.2f after %d evaluations\n", start.chi_square,
        start.evaluations);
  else
    say("start %zu: chi-square %.2f after %d evaluations\n", n, start.chi_square, start.evaluations);
}

// Everything known once the fit is adopted, printed then (the model form and the predictions take most of a
// calibration's time) and put in `out` in calibration.json's order. The fitted values' runs at every point
// are simulated once more here for the derived table.
void show_adopted_fit(const JointSpec& spec, const JointCalibration& c, const ExecutionContext& context,
                      RunCache& series_runs, const std::string& predict_from, const TextOutput& say,
                      nlohmann::ordered_json& out) {
  const auto& result = c.result;
  say("\n%s after %d evaluations\n", result.status_text.c_str(), result.evaluations);
  if (c.fitted)
    say(result.seeds > 1 ? "the answer: the mean of the best start's fits at %d seeds, their spread in each "
                           "interval\n\n"
                         : "the answer: the fit at %d seed (its seed noise is not in the intervals)\n\n",
        result.seeds);
  else
    say("\n");
  nlohmann::ordered_json unconditional;
  if (!c.unconditional.values.empty()) {
    say("the fit of all parameters together:\n");
    unconditional = parameters_json(spec, c.unconditional, adopt(spec, c.unconditional), say);
  }
  if (c.refit_rounds > 0)
    say("\nthe adopted parameters fitted again with the others held at their kept values (%d round%s):\n",
        c.refit_rounds, c.refit_rounds > 1 ? "s" : "");
  out["spec"] = spec.file;
  out["status"] = result.status_text;
  if (c.fitted) {
    out["evaluations"] = result.evaluations;
    out["seeds"] = result.seeds;
    out["starts"] = starts_json(c.starts);
  } else {
    out["predicted_from"] = predict_from;
  }
  out["covariance"] = result.covariance;
  out["parameters"] = parameters_json(spec, result, c.adoption, say);
  if (!unconditional.empty()) out["unconditional_parameters"] = unconditional;
  if (c.fitted) out["series"] = series_json(spec, result, say);
  if (!c.adoption.checks.empty()) out["constraints"] = constraints_json(c.adoption.checks, say);
  if (!c.fitted) return;
  say("\nfit: chi-square %.2f before, %.2f after; MAPE %.2f %% before, %.2f %% after\n",
      result.before.chi_square, result.after.chi_square, 100 * result.before.mape, 100 * result.after.mape);
  out["derived"] = derived_quantities_json(
      spec, simulate_series_runs(spec, context, c.adoption.values, 0, &series_runs), say);
  if (spec.leave_one_series_out) say("\nmodel form: each series predicted by a fit to the others\n");
}

// The model form, the rivals, the predictions and the answers, after the calibration has ended.
void show_predictions(const JointSpec& spec, const JointCalibration& c, const std::string& predict_from,
                      const TextOutput& say, nlohmann::ordered_json& out) {
  if (c.model_form && c.fitted) {
    say("model form: held-out points off by %.2f %% (relative RMS); %zu of %zu within their 95 %% interval "
        "(measurement sd and the other series' model error)\n",
        100.0 * c.model_form->relative_rms, c.model_form->covered, c.model_form->held_out.size());
    say_ratios(*c.model_form, say);
    out["model_form"] = model_form_json(*c.model_form);
  } else if (c.model_form) {
    out["model_form"] = model_form_read_back_json(*c.model_form, predict_from);
    say_ratios(*c.model_form, say);
  }
  say_rival_fits(c.starts, c.rivals, series_data(spec).size(), spec.parameters.size(), say);
  if (!c.rivals.empty()) out["rival_fits"] = rival_fits_json(c.rivals);
  for (const auto& p : c.predictions)
    out["predictions"].push_back(prediction_json(p, say));
  if (!c.answers.empty()) out["answers"] = answers_json(c.answers, say);
  if (c.coverage) out["model_form"]["coverage_as_quoted"] = coverage_json(*c.coverage, say);
}

} // namespace

int calibrate_joint(const std::string& spec_path, const ExecutionContext& context,
                    const std::filesystem::path& output_dir, bool text, bool json_out,
                    const std::string& predict_from) {
  const JointSpec spec = read_joint_spec(spec_path);
  const TextOutput say{text};
  RunCache prediction_runs, series_runs;
  const JointSimulator simulator = joint_simulator(context, &prediction_runs, &series_runs);
  const std::size_t points = series_data(spec).size();
  std::optional<FitReadBack> read_back;
  if (!predict_from.empty()) read_back = read_fit_back(spec, predict_from, points);
  say("calibrate: %zu parameter(s) jointly on %zu series, %zu points (%s); common random numbers\n",
      spec.parameters.size(), spec.series.size(), points, spec_path.c_str());
  if (read_back) say("parameters read from %s; the series are not simulated again\n", predict_from.c_str());
  nlohmann::ordered_json out;
  JointCalibrationProgress progress;
  std::size_t starts = 0;
  progress.start_ended = [&](const FitStart& start) { say_start(start, ++starts, say); };
  progress.adopted = [&](const JointCalibration& c) {
    show_adopted_fit(spec, c, context, series_runs, predict_from, say, out);
  };
  progress.held_out = [&](const HeldOutPoint& point) {
    say("  without %-30s x %-6g measured %-8.4g predicted %-8.4g %+6.2f %%\n", point.series.c_str(), point.x,
        point.measured, point.predicted, 100.0 * point.relative_error());
  };
  const JointCalibration c = calibrate_jointly(spec, simulator, progress, std::move(read_back));
  show_predictions(spec, c, predict_from, say, out);
  if (!series_runs.summaries.empty())
    say("\nfit: %zu series runs made, %zu answered by a run already made\n", series_runs.summaries.size(),
        series_runs.reused);
  if (!spec.predictions.empty())
    say("%spredictions: %zu runs made, %zu answered by a run already made for another\n",
        series_runs.summaries.empty() ? "\n" : "", prediction_runs.summaries.size(), prediction_runs.reused);
  throw_if_interrupted("the calibration was stopped before its results were written; nothing was written");
  write_file_atomically(
      output_dir / "predictions.md",
      predictions_markdown(spec, c.predictions, c.answers, c.adoption.values, c.adoption.adopted));
  // Last: a directory without calibration.json is not a finished calibration.
  write_file_atomically(output_dir / "calibration.json", json_text(out, 2) + "\n");
  say("\nwrote %s/calibration.json and predictions.md\n", output_dir.string().c_str());
  if (json_out) std::printf("%s\n", json_text(out, 1).c_str());
  return 0;
}

} // namespace sonicsim
