// A joint calibration, as a file says it (`sonicsim calibrate --spec FILE`): the unknowns, each with its
// bounds, start and the series it acts on; several measured series, each from its own scenario (and
// variants), data file and observable; and the predictions to make with the fitted values. Read and checked
// before the first simulation: every error names the spec file, line and key. The format is documented in
// docs/calibration.md.
#pragma once

#include "sim/calibration/calibration.hpp"
#include "sim/calibration/joint_unknowns.hpp"
#include "sim/calibration/measured_series.hpp"
#include "sim/metrics/figure_table.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace sonicsim {

struct JointParameter {
  calibration::FitParameter fit; // key: the name the results give it; bounds and unit
  double initial = 0.0;          // where the fit starts
  // Where it stays when the data do not measure it (not adopted): the best value the sources give, which
  // need not be a good start for the fit. Default: initial.
  double assumed = 0.0;
  // The --set expressions that put the value in a run (default: KEY={}UNIT), {} standing for the value: a
  // value inside a larger one (the mean of a distribution). {C-} stands for C minus the value: two
  // quantities whose sum is measured, e.g. two models' shares of one measured direct-inference time; {C-/N}
  // that shared by N.
  std::vector<std::string> sets;
  std::vector<std::string> series; // the series it acts on; empty: all
  std::string meaning;             // one line for the report: what the value is
  std::string pinned_by; // held: the measurement that would place it (a prediction's ranking says it)
  // Where the bounds are written in the spec file (line, column from 1), for errors about them.
  std::pair<int, int> lower_at{0, 0}, upper_at{0, 0};
};

struct JointSeries {
  std::string name; // the series' name in the data file
  std::string scenario;
  std::vector<std::string> variants;
  std::vector<std::string> overrides;
  std::string data;
  calibration::SeriesColumns columns;
  std::string x_key = "workload.jobs";
  FigureName observable;
  std::string why_sd; // where the points' sd come from
  // The series measuring the direct-inference level this one is compared with ("" for none): a crossing or
  // a gain rests on the ratio of the two, whose held-out error the model form reports apart.
  std::string reference;
  std::vector<calibration::MeasuredPoint> points;
};

// A quantity predicted with the fitted values: a figure at one x, or the x at which a figure falls below the
// direct-inference level over a sweep (crossing_jobs).
struct JointPrediction {
  std::string id;
  std::string title;
  std::string scenario;
  std::vector<std::string> variants;
  std::vector<std::string> overrides;
  std::string observable;                      // crossing_jobs, or a figure's name
  std::string figure = "events_per_s_per_job"; // crossing_jobs: the figure that falls below direct
  std::vector<double> sweep;                   // crossing_jobs: the workload.jobs values
  std::vector<std::string> series;             // the parameters of these series apply (their set_for_series)
  int replications = 3;
  // A parameter's expressions in this prediction's scenario, by the parameter's key ({} its value, as in a
  // parameter's set): a parameter named here acts on the prediction besides those of `series`. For a
  // calibrated value whose key differs in the scenario predicted (the T4 switch time of the all-models
  // series, in the large-scale run's AK8 pool).
  std::map<std::string, std::vector<std::string>> set;
  // crossing_jobs: the direct level the curve is compared with, times this (not a spec key: the model-form
  // term asks where the curve crosses when it is off by the held-out error, sim/calibration/model_form.hpp;
  // the same runs, only the crossing moves).
  double level_scale = 1.0;
  // The id of an earlier prediction this one is another reading of (a mechanism's setting the released data
  // cannot choose): the answer to that prediction holds its readings' spans in its one interval
  // (sim/calibration/prediction_answer.hpp). Empty: a prediction of its own.
  std::string reading_of;
  // What this reading takes as given, in a few words ("the batcher's limit in inferences, 9"), for the ranked
  // assumptions of the answer (sim/calibration/prediction_answer.hpp); default: the id.
  std::string assumes;
  // On a prediction of its own with readings: the measurement that would choose between them.
  std::string pinned_by;
};

// A released measurement the fitted scenarios must respect that is not a series: a count or a size per event
// (the CMS data README's byte rates, say), with its uncertainty. `calibrate` prints the fitted scenario's
// value beside it in units of its sd and refuses to adopt a parameter that moves the scenario away from it by
// more than 3 sd (sim/calibration/joint_constraints.hpp).
struct JointConstraint {
  std::string name;
  std::string scenario;
  std::vector<std::string> variants;
  std::vector<std::string> series; // whose parameters apply (their set_for_series)
  std::string quantity;            // inferences_per_event or input_bytes_per_event
  std::string module;              // the pipeline module it is of
  double value = 0.0;
  double sd = 0.0;
  std::string why; // where the value and its sd come from
};

struct JointSpec {
  std::string file;
  std::vector<JointParameter> parameters;
  // Further starting points of the fit (each: the initial values with some replaced): Levenberg-Marquardt
  // finds the minimum nearest its start, and a knee that the start puts outside the measured range gives it
  // no slope to follow. The fit with the lowest chi-square is kept; every start's is reported.
  std::vector<std::vector<double>> starts;
  std::vector<JointSeries> series;
  std::vector<JointPrediction> predictions;
  std::vector<JointConstraint> constraints;
  std::vector<JointUnknown> unknowns; // inputs no series measures: each prediction also at their ranges' ends
  // model_form: leave_one_series_out: each series also predicted by a fit to the others, and every
  // prediction's spread over those fits added to its interval (sim/calibration/model_form.hpp).
  bool leave_one_series_out = false;
  int max_evaluations = 30;
  // Seeds the fit is made at (sim/calibration/joint_fit.hpp): the answer is their fits' mean and the
  // seeds' spread is part of its interval. 1: the fit of one seed's simulations, its seed noise not counted.
  int seeds = 3;
  // The measurement that would decide between the rival fits (the answer's ranking names it).
  std::string rival_fits_pinned_by;
};

// Throws ScenarioError (file, line, key) or measurements::MeasurementError (a data cell) on bad input.
JointSpec read_joint_spec(const std::string& path);

struct ScenarioError;
// What a scenario refused of a spec's overrides, in the spec's words: "key 'K': MESSAGE", with no "--set "
// (the spec's overrides are not the command line's).
std::string spec_override_problem(const ScenarioError& error);

// The --set expressions that put `value` of parameter p into a run of `series`; none when p does not act on
// it. Throws InputError for a {C-} whose C is not a number.
std::vector<std::string> parameter_override(const JointParameter& p, const std::string& series, double value);

// The expressions with each {} (or {C-}, {C-/N}) filled in from `value`. Throws InputError for a {C-} whose C
// is not a number.
std::vector<std::string> expand_set(const std::vector<std::string>& expressions, double value);

// The overrides a prediction's runs get for these parameter values: a parameter in its `set` by those
// expressions, another acting on one of its series by its own; `values` beyond the parameters' are the
// unknowns' (spec order), each acting on it put in by its own expressions where it is not at its assumed
// value. And whether a parameter acts on it.
std::vector<std::string> prediction_overrides(const JointSpec& spec, const JointPrediction& prediction,
                                              const std::vector<double>& values);
bool acts_on_prediction(const JointParameter& p, const JointPrediction& prediction);

// The overrides a run of `series` (none: any) gets for these parameter values (those acting on it), once per
// parameter.
std::vector<std::string> parameter_overrides(const JointSpec& spec, const std::vector<std::string>& series,
                                             const std::vector<double>& values);

// Whether p acts on one of these series (a parameter naming no series acts on all).
bool acts_on(const JointParameter& p, const std::vector<std::string>& series);

} // namespace sonicsim
