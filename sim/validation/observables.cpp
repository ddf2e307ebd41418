#include "sim/validation/observables.hpp"

#include "sim/validation/case_crossing.hpp"
#include "sim/validation/dataset_points.hpp"

#include "models/crossing.hpp"
#include "models/fits.hpp"
#include "models/student_t.hpp"
#include "sim/analysis/scenario_parameters.hpp"
#include "sim/metrics/figure_table.hpp"
#include "sim/scenario/input_error.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace sonicsim {
namespace {

const std::vector<std::string> speedups{"module_speedup", "event_speedup"};
const std::vector<std::string> sweeps{"knee_jobs",         "plateau_s",       "saturated_slope_s_per_job",
                                      "cpu_per_gpu_ratio", "event_knee_jobs", "crossing_jobs"};

bool is_one_of(const std::string& name, const std::vector<std::string>& names) {
  for (const auto& n : names)
    if (n == name) return true;
  return false;
}

double module_mean(const RunSummary& summary, const std::string& module) {
  for (const auto& [name, stats] : summary.modules)
    if (name == module) return stats.mean_s;
  throw InputError("no module '" + module + "' in the scenario");
}

// A single-run observable is any figure of the table (sim/metrics/figure_table.hpp); none for the derived
// observables (speedups, fits, curves).
std::optional<FigureName> table_figure(const ValidationCase& c) {
  if (is_one_of(c.observable, speedups) || is_one_of(c.observable, sweeps) ||
      c.observable == "curve_fraction_within_2sd")
    return std::nullopt;
  try {
    return parse_figure_name(c.observable, c.file + ": observable");
  } catch (const InputError&) {
    return std::nullopt; // runs_for() reports the unknown name with the whole list
  }
}

std::optional<double> single_value(const FigureName& name, const ValidationCase& c,
                                   const RunSummary& summary) {
  FigureContext context;
  const std::string module = name.module.empty() ? c.module : name.module;
  if (spec_of(name.figure).per_module) {
    if (module.empty()) throw InputError(c.file + ": observable " + c.observable + " needs a module");
    module_mean(summary, module); // throws naming a module the scenario does not have
    context.modules = {module};
  }
  return value_of(name.figure, summary, context);
}

// The analytic model's value for the case, from the same scenario the simulator ran.
std::optional<double> analytic_value(const ValidationCase& c) {
  try {
    const auto scenario = load_variant_file(c.run.scenario_path, c.run.variants, c.run.overrides);
    const auto parameters = analysis::derive_parameters(scenario);
    const auto model = parameters.latency_model();
    // The model's n_cpu: CPU processes with an event in flight, a job's threads each.
    const double processes = scenario.workload.jobs * parameters.threads;
    if (c.observable == "module_mean_s") return model.t_module_s(processes);
    if (c.observable == "event_mean_s") return model.t_sonic_s(processes);
    // In jobs: the model counts CPU processes, a job's threads.
    if (c.observable == "knee_jobs") return model.knee_jobs() / parameters.threads;
    if (c.observable == "event_knee_jobs")
      return parameters.network_limited_jobs(model.t_ideal_s()) / parameters.threads;
    if (c.observable == "cpu_per_gpu_ratio") return model.optimal_cpu_per_gpu() / parameters.threads;
    if (c.observable == "plateau_s") return model.t_module_s(1.0);
    if (c.observable == "mean_request_size") return parameters.mean_request_size;
    if (c.observable == "inferences_per_s" && model.saturated(processes))
      return parameters.inferences * parameters.n_gpu / parameters.t_gpu_s;
  } catch (const std::exception&) {
    // No accelerated module (CPU-only): the analytic model has nothing to say.
  }
  return std::nullopt;
}

// The runs of one replication.
std::vector<RunSpec> one_replication_runs(const ValidationCase& c) {
  if (table_figure(c)) return {c.run};
  if (is_one_of(c.observable, speedups)) {
    if (!c.baseline) throw InputError(c.file + ": observable " + c.observable + " needs a baseline run");
    return {*c.baseline, c.run};
  }
  std::vector<RunSpec> runs;
  if (is_one_of(c.observable, sweeps)) {
    if (c.sweep_values.empty()) throw InputError(c.file + ": observable " + c.observable + " needs a sweep");
    for (const double value : c.sweep_values) {
      RunSpec run = c.run;
      if (c.sweep_template.empty()) {
        run.overrides.push_back(c.sweep_key + "=" + case_value_text(value));
      } else {
        std::string expression = c.sweep_template;
        const auto at = expression.find("{}");
        if (at == std::string::npos) throw InputError(c.file + ": sweep.set has no {} for the value");
        expression.replace(at, 2, case_value_text(value));
        run.overrides.push_back(expression);
      }
      runs.push_back(run);
    }
    return runs;
  }
  if (c.observable == "curve_fraction_within_2sd") {
    if (!c.dataset) throw InputError(c.file + ": observable " + c.observable + " needs a dataset");
    for (const auto& point : read_dataset(*c.dataset)) {
      RunSpec run = c.run;
      run.overrides.push_back("workload.jobs=" + case_value_text(point.x));
      // The point passes within 2 sd of its value: its run need be known only to a fraction of that.
      if (point.y != 0.0 && point.sd > 0.0) run.point_tolerance = 2.0 * point.sd / std::abs(point.y);
      runs.push_back(run);
    }
    return runs;
  }
  throw InputError(
      c.file + ": unknown observable '" + c.observable +
      "'; expected module_speedup, event_speedup, knee_jobs, plateau_s, saturated_slope_s_per_job, "
      "cpu_per_gpu_ratio, event_knee_jobs, crossing_jobs, curve_fraction_within_2sd or a figure: " +
      figure_names_text());
}

// A curve case: how many of the measured points the simulated curve meets within 2 sd, and where it misses.
void curve_outcome(const ValidationCase& c, const std::vector<RunSummary>& summaries, CaseOutcome& outcome) {
  const auto points = read_dataset(*c.dataset);
  int within = 0, valued = 0;
  double relative_error_sum = 0.0;
  std::string outside; // the points that miss, so that a reader sees where the curve departs
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto value = compared_figure(c, summaries.at(i));
    if (!value) {
      outside +=
          std::string(outside.empty() ? "" : "; ") + "at " + case_value_text(points[i].x) + ": no value";
      continue; // missed; left out of the mean relative error below
    }
    const double simulated = *value;
    if (std::abs(simulated - points[i].y) <= 2.0 * points[i].sd) {
      ++within;
    } else {
      outside += std::string(outside.empty() ? "" : "; ") + "at " + case_value_text(points[i].x) + ": " +
                 case_value_text(std::round(simulated * 1000) / 1000) + " against " +
                 case_value_text(points[i].y) + " +- " + case_value_text(points[i].sd);
    }
    relative_error_sum += std::abs(simulated - points[i].y) / points[i].y;
    ++valued;
  }
  outcome.simulated = static_cast<double>(within) / static_cast<double>(points.size());
  outcome.measured = 1.0;
  outcome.detail = std::to_string(within) + "/" + std::to_string(points.size()) +
                   " points within 2 sd; mean relative error " +
                   case_value_text(std::round(1000.0 * relative_error_sum / std::max(valued, 1)) / 10.0) +
                   " %";
  if (!outside.empty()) outcome.detail += " (outside 2 sd: " + outside + ")";
}

CaseOutcome evaluate_one(const ValidationCase& c, const std::vector<RunSummary>& summaries) {
  CaseOutcome outcome;
  outcome.measured = c.measured;
  outcome.measured_uncertainty = c.measured_uncertainty;
  if (const auto name = table_figure(c)) {
    outcome.simulated = single_value(*name, c, summaries.at(0));
  } else if (is_one_of(c.observable, speedups)) {
    const bool module = c.observable == "module_speedup";
    const double baseline = module ? module_mean(summaries.at(0), c.module) : summaries.at(0).event.mean_s;
    const double accelerated = module ? module_mean(summaries.at(1), c.module) : summaries.at(1).event.mean_s;
    outcome.simulated = baseline / accelerated;
  } else if (is_one_of(c.observable, sweeps)) {
    std::vector<double> jobs, times;
    const bool event_curve = c.observable == "event_knee_jobs";
    for (std::size_t i = 0; i < summaries.size(); ++i) {
      const auto& campaign = summaries[i].campaign;
      jobs.push_back(event_curve && campaign ? campaign->mean_running_jobs : c.sweep_values[i]);
      times.push_back(event_curve ? summaries[i].event.mean_s : module_mean(summaries[i], c.module));
    }
    const auto fit = models::fit_plateau_knee(jobs, times);
    auto pick = [&c](const models::PlateauKneeFit& f, double gpus) {
      if (c.observable == "knee_jobs" || c.observable == "event_knee_jobs") return f.knee;
      if (c.observable == "plateau_s") return f.plateau;
      if (c.observable == "saturated_slope_s_per_job") return f.slope;
      return f.knee / gpus;
    };
    const double gpus = summaries.front().gpus;
    outcome.simulated = pick(fit, gpus);
    if (c.dataset) {
      // The same fit on the measured points, so that measured and simulated numbers mean the same thing.
      // Each point weighs by its error bar: the paper's bars are sd / sqrt(clients), weight clients / sd^2.
      std::vector<double> measured_x, measured_y, weights;
      for (const auto& point : read_dataset(*c.dataset)) {
        measured_x.push_back(point.x);
        measured_y.push_back(point.y);
        weights.push_back(point.x / (point.sd * point.sd));
      }
      const auto measured_fit = models::fit_plateau_knee(measured_x, measured_y, weights);
      outcome.measured = pick(measured_fit, gpus);
      outcome.measured_uncertainty = c.observable == "plateau_s"   ? measured_fit.plateau_se
                                     : c.observable == "knee_jobs" ? measured_fit.knee_se
                                     : c.observable == "saturated_slope_s_per_job"
                                         ? measured_fit.slope_se
                                         : measured_fit.knee_se / gpus;
    }
    outcome.detail = "fit: plateau " + case_value_text(std::round(fit.plateau * 100) / 100) + " s, knee " +
                     case_value_text(std::round(fit.knee)) + " jobs, slope " +
                     case_value_text(std::round(fit.slope * 1000) / 1000) + " s/job";
  } else {
    curve_outcome(c, summaries, outcome);
  }
  return outcome;
}

// The verdict against the case's tolerance; a case without a simulated value fails.
void judge(const ValidationCase& c, CaseOutcome& outcome) {
  const double measured = outcome.measured;
  // A value arithmetic could not give (a speed-up over a zero time, a fit without a knee) is none as well.
  if (outcome.simulated && !std::isfinite(*outcome.simulated)) outcome.simulated.reset();
  outcome.error.reset();
  if (outcome.simulated && measured != 0) outcome.error = (*outcome.simulated - measured) / measured;
  const double simulated = outcome.simulated.value_or(0.0);
  bool ok = outcome.simulated.has_value();
  if (c.relative_tolerance)
    ok = ok && std::abs(simulated - measured) <= *c.relative_tolerance * std::abs(measured);
  if (c.absolute_tolerance) ok = ok && std::abs(simulated - measured) <= *c.absolute_tolerance;
  if (c.minimum) ok = ok && simulated >= *c.minimum;
  if (c.maximum) ok = ok && simulated <= *c.maximum;
  outcome.within_tolerance = ok;
  outcome.verdict =
      ok ? Verdict::pass : (c.known_discrepancy.empty() ? Verdict::fail : Verdict::known_discrepancy);
}

} // namespace

std::string case_value_text(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::optional<double> compared_figure(const ValidationCase& c, const RunSummary& summary) {
  if (c.figure.empty()) return module_mean(summary, c.module);
  const FigureName name = parse_figure_name(c.figure, c.file + ": figure");
  return single_value(name, c, summary);
}

std::vector<RunSpec> runs_for(const ValidationCase& c) {
  const auto base = one_replication_runs(c);
  std::vector<RunSpec> runs;
  for (int r = 0; r < c.replications; ++r)
    for (RunSpec run : base) {
      run.replication = r;
      runs.push_back(std::move(run));
    }
  return runs;
}

CaseOutcome evaluate(const ValidationCase& c, const std::vector<RunSummary>& summaries,
                     const std::vector<std::optional<double>>* crossings) {
  const std::size_t per_replication = summaries.size() / static_cast<std::size_t>(c.replications);
  std::vector<std::vector<RunSummary>> by_replication;
  for (int r = 0; r < c.replications; ++r)
    by_replication.emplace_back(summaries.begin() + static_cast<std::ptrdiff_t>(r * per_replication),
                                summaries.begin() + static_cast<std::ptrdiff_t>((r + 1) * per_replication));
  CaseOutcome outcome;
  if (c.observable == "crossing_jobs") {
    if (!crossings) {
      std::vector<std::optional<double>> each;
      for (const auto& replication : by_replication)
        each.push_back(simulated_crossing(c, replication));
      outcome = crossing_outcome(c, each);
    } else {
      outcome = crossing_outcome(c, *crossings);
    }
    if (!c.dataset) {
      outcome.measured = c.measured;
      outcome.measured_uncertainty = c.measured_uncertainty;
    }
  } else {
    // Other observables: each replication's value, then their mean with its 95 % interval.
    std::vector<CaseOutcome> outcomes;
    for (const auto& replication : by_replication)
      outcomes.push_back(evaluate_one(c, replication));
    outcome = outcomes.front();
    // A replication without a value leaves the case without one (not the mean of the others).
    double sum = 0.0, squares = 0.0;
    bool all = true;
    for (const auto& o : outcomes) {
      all = all && o.simulated.has_value();
      sum += o.simulated.value_or(0.0);
    }
    const double n = static_cast<double>(outcomes.size());
    const double mean = sum / n;
    outcome.simulated.reset();
    if (all) outcome.simulated = mean;
    for (const auto& o : outcomes)
      squares += (o.simulated.value_or(0.0) - mean) * (o.simulated.value_or(0.0) - mean);
    if (all && outcomes.size() > 1)
      outcome.simulated_half_width =
          models::student_t_975(static_cast<int>(outcomes.size()) - 1) * std::sqrt(squares / (n - 1) / n);
  }
  outcome.analytic = analytic_value(c);
  judge(c, outcome);
  return outcome;
}

std::optional<std::string> case_precision_figure(const ValidationCase& c) {
  // A crossing is read where the rate's curve meets a level: how precisely depends on the curve's slope
  // there. A measured crossing gives it (crossing_rate_precision): its runs hold the rate alone, to what its
  // tolerance needs. A prediction's slope no run knows beforehand: held on the rate alone at 2 %, the
  // crossings' intervals came out 2.4 to 4 times wider (the AK8 prediction 143 +- 5.5 -> +- 22.8), so its
  // runs keep every figure.
  if (c.observable == "crossing_jobs")
    return crossing_rate_precision(c) ? std::optional<std::string>("events_per_s") : std::nullopt;
  // The figure the case reads from each run: a sweep or a curve compares `figure` (a module's time when it
  // names none); a speed-up is a ratio of module or event times; any other observable is itself a figure.
  const bool compares = c.observable == "curve_fraction_within_2sd" || is_one_of(c.observable, sweeps);
  std::string read = c.observable;
  if (compares) read = c.figure.empty() ? "module_mean_s" : c.figure;
  if (c.observable == "module_speedup") read = "module_mean_s";
  if (c.observable == "event_speedup" || c.observable == "event_knee_jobs") read = "event_mean_s";
  // Figures that are a headline figure over the same window, times a constant of the run (jobs, inferences
  // per event) or a ratio of two runs' rates.
  for (const char* rate : {"events_per_s", "events_per_s_per_job", "direct_events_per_s_per_job",
                           "direct_inference_gain", "inferences_per_s"})
    if (read == rate) return "events_per_s";
  for (const std::string_view figure : headline_figures)
    if (read == figure) return std::string(figure);
  return std::nullopt;
}

double case_run_precision(const ValidationCase& c, const RunSpec& run, double scenario_precision) {
  if (scenario_precision <= 0.0 || c.predicted) return scenario_precision;
  if (c.observable == "crossing_jobs") {
    const auto rate = crossing_rate_precision(c);
    return rate ? std::min(*rate, 4.0 * scenario_precision) : scenario_precision;
  }
  std::optional<double> tolerance = run.point_tolerance ? run.point_tolerance : c.relative_tolerance;
  // An absolute tolerance on a figure the run measures itself (a module's or an event's time, a rate) is the
  // relative one it makes of the measured value. Not for what a run's figure enters in a difference (a gain
  // over direct inference of 0.10 +- 0.034 needs the rates to 1.4 %, not to 34 %) or in a fit.
  const bool figure_itself =
      std::find(headline_figures.begin(), headline_figures.end(), c.observable) != headline_figures.end();
  if (!tolerance && figure_itself && c.absolute_tolerance && c.measured != 0.0)
    tolerance = *c.absolute_tolerance / std::abs(c.measured);
  if (!tolerance) return scenario_precision;
  const double for_tolerance = *tolerance / 2.5;
  return std::min({std::max(scenario_precision, for_tolerance), 4.0 * scenario_precision, 0.5});
}

} // namespace sonicsim
