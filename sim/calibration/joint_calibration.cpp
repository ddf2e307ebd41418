#include "sim/calibration/joint_calibration.hpp"

#include "sim/metrics/number_text.hpp"
#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <string>
#include <utility>

namespace sonicsim {
namespace {

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
                              "the parameter at this bound (" + significant(values[i], 4) + p.fit.unit +
                                  ") is refused by series " + series.name + "'s scenario (" +
                                  series.scenario + "): " + spec_override_problem(e));
        }
      }
}

// The fit from every start, then what it adopts: a parameter not adopted is held at its kept value and the
// others fitted again beside it (sim/calibration/conditional_fit.hpp).
void fit_and_adopt(const JointSpec& spec, const JointSimulator& simulator,
                   const JointCalibrationProgress& progress, JointCalibration& out) {
  out.result = fit_joint(spec, simulator, [&](const FitStart& start) {
                 out.starts.push_back(start);
                 if (progress.start_ended) progress.start_ended(start);
               }).result;
  ConditionalFit conditional = fit_conditionally(spec, simulator, out.result, {});
  out.refit_rounds = conditional.rounds;
  out.unconditional = std::move(conditional.unconditional);
  if (conditional.rounds > 0) out.result = std::move(conditional.result);
  out.adoption = std::move(conditional.adoption);
}

} // namespace

JointCalibration calibrate_jointly(const JointSpec& spec, const JointSimulator& simulator,
                                   const JointCalibrationProgress& progress,
                                   std::optional<FitReadBack> read_back) {
  check_spec_loads(spec);
  JointCalibration out;
  out.fitted = !read_back;
  if (read_back) {
    out.result = std::move(read_back->result);
    out.starts = std::move(read_back->starts);
    out.adoption = adopt(spec, out.result);
    out.model_form = std::move(read_back->model_form);
  } else {
    fit_and_adopt(spec, simulator, progress, out);
  }
  if (progress.adopted) progress.adopted(out);
  const std::vector<double>& values = out.adoption.values;
  if (spec.leave_one_series_out && out.fitted)
    out.model_form = leave_one_series_out(spec, simulator, values, progress.held_out, out.adoption.adopted);
  out.rivals = rival_fits(out.starts, series_data(spec).size(), spec.parameters.size());
  for (const auto& prediction : spec.predictions) {
    out.predictions.push_back(predict(spec, prediction, simulator, values, out.result.covariance,
                                      out.adoption.adopted, out.rivals));
    if (out.model_form)
      add_model_form(spec, prediction, simulator, *out.model_form, values, out.predictions.back());
  }
  out.answers = answers_of(spec, out.predictions);
  if (out.model_form)
    out.coverage = held_out_coverage(spec, simulator, *out.model_form, out.result.covariance,
                                     out.adoption.adopted, spec.seeds);
  return out;
}

} // namespace sonicsim
