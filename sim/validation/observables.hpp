// What a validation case measures in the simulation: the runs it needs, and how their summaries reduce to one
// number compared with the measurement. Observables by name:
//   module_mean_s, event_mean_s, inferences_per_s, mean_executed_batch, mean_request_size  (one run)
//   module_speedup, event_speedup                          (baseline run / run)
//   knee_jobs, plateau_s, saturated_slope_s_per_job, cpu_per_gpu_ratio   (a sweep, flat-then-rising fit; with
//   a
//       dataset, the measured value is the same fit applied to the measured points)
//   event_knee_jobs                                       (a sweep; the knee of the event time against the
//   mean
//       running jobs in campaign mode, or against the swept value: where the shared network saturates)
//   crossing_jobs                                         (a sweep of workload.jobs; where `figure` first
//       falls below `reference`, or below the simulation's own direct-inference level; with a dataset, the
//       same interpolation on the measured points and their reference column)
//   curve_fraction_within_2sd                             (one run per measured point of a dataset; `figure`,
//       or the module time of `module`)
// With `replications: N` every run is repeated with N seeds and the simulated value is the mean of the
// replications' values, with its 95 % Student-t interval.
#pragma once

#include "sim/metrics/run_recorder.hpp"
#include "sim/validation/validation_case.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

// A case's verdict: within its tolerance, outside it, or outside it with a documented reason (which does not
// fail the validation).
enum class Verdict { pass, fail, known_discrepancy };
// As the report writes it: "pass", "FAIL", "known discrepancy".
inline const char* verdict_text(Verdict verdict) {
  switch (verdict) {
  case Verdict::pass:
    return "pass";
  case Verdict::fail:
    return "FAIL";
  case Verdict::known_discrepancy:
    return "known discrepancy";
  }
  return "FAIL";
}

struct CaseOutcome {
  double measured = 0.0; // the case's value, or the same fit applied to its dataset (fitted observables)
  double measured_uncertainty = 0.0; // the case's, or the fit's standard error
  // None when the simulation gives no value (no crossing within the sweep, a figure the run does not define):
  // the case then fails rather than passing on a default.
  std::optional<double> simulated;
  double simulated_half_width = 0.0; // 95 % interval over the case's replications (0 with one)
  std::optional<double> analytic;    // the analytic model's value, where it has one
  std::optional<double> error;       // (simulated - measured) / measured, when both are there
  bool within_tolerance = false;
  Verdict verdict = Verdict::fail;
  std::string detail; // e.g. the curve's mean relative error
};

// The runs a case needs, in the order evaluate() expects their summaries. Throws InputError for an unknown
// observable.
std::vector<RunSpec> runs_for(const ValidationCase& validation_case);
// The precision rule's headline figure a case's value rests on, for its runs' output.precision_figures: a
// case on events per second need not have its runs extended for the noise of a served module's time. None
// when the value rests on another figure (a batch size) or on several: the rule then holds them all.
std::optional<std::string> case_precision_figure(const ValidationCase& validation_case);
// The precision rule a run of a case is held to, on case_precision_figure: a relative tolerance of T (the
// case's, or a curve point's 2 sd / value) is decided by runs known to T / 2.5 (as 2 % decides a plan's 5 %
// targets), never finer than the scenario's own rule nor coarser than 4 x it. An absolute tolerance A on a
// headline figure the case reads as it is (module_mean_s, event_mean_s, ...) counts as A / |measured|. A
// measured crossing holds its rate to crossing_rate_precision, at most 4 x the scenario's rule. The
// scenario's own for every other case (bounds, absolute tolerances on derived values, predictions).
double case_run_precision(const ValidationCase& validation_case, const RunSpec& run,
                          double scenario_precision);
// `crossings`: a crossing case's replications' crossings, read in waves (validate): its summaries are then
// not read (they may stop at each replication's first fall).
CaseOutcome evaluate(const ValidationCase& validation_case, const std::vector<RunSummary>& summaries,
                     const std::vector<std::optional<double>>* crossings = nullptr);
// The figure a crossing or a curve compares: `figure`, or the module time of `module`; none where the run
// does not define it.
std::optional<double> compared_figure(const ValidationCase& validation_case, const RunSummary& summary);
// A number in a case's text (a sweep value in an override, a detail): as a stream writes it.
std::string case_value_text(double value);

} // namespace sonicsim
