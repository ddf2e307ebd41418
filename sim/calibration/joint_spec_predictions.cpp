// A calibration spec's `predictions:` (sim/calibration/joint_spec.hpp): each read, and checked against the
// spec read before it (its series, its set, the prediction it is a reading of).
#include "sim/calibration/spec_cursor.hpp"

#include "sim/scenario/input_error.hpp"
#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <algorithm>
#include <cmath>

namespace sonicsim::spec_cursor {
namespace {

JointPrediction read_prediction(const std::string& spec, const Cursor& c) {
  only_keys(c, {"id", "title", "scenario", "variant", "overrides", "observable", "figure", "sweep", "series",
                "replications", "set", "reading_of", "assumes", "pinned_by"});
  JointPrediction p;
  p.id = read_string(c["id"]);
  p.title = read_string(c["title"]);
  p.scenario = resolve(spec, c["scenario"]);
  p.variants = strings(c["variant"]);
  p.overrides = overrides(c["overrides"]);
  p.observable = read_string(c["observable"]);
  if (c["figure"].present()) p.figure = read_string(c["figure"]);
  std::string module; // the module the observable (or a crossing's figure) names, if any
  if (p.observable == "crossing_jobs") {
    const Cursor sweep = c["sweep"];
    require(sweep, sweep.present() && sweep.node().IsSequence() && sweep.node().size() >= 2,
            "sweep: a list of at least 2 increasing job counts");
    for (std::size_t i = 0; i < sweep.node().size(); ++i) {
      p.sweep.push_back(read_number(sweep[i]));
      require(sweep[i], i == 0 || p.sweep[i] > p.sweep[i - 1], "increasing job counts");
    }
    try {
      module = parse_figure_name(p.figure, "figure").module;
    } catch (const InputError& error) {
      c["figure"].fail(error.what());
    }
  } else {
    if (c["sweep"].present())
      c["sweep"].fail("a sweep is for observable crossing_jobs; this prediction's observable is " +
                      p.observable + ", read at one point: remove sweep");
    try {
      module = parse_figure_name(p.observable, "observable").module;
    } catch (const InputError& error) {
      c["observable"].fail(std::string(error.what()) + " (or crossing_jobs)");
    }
  }
  check_scenario_runs(c, p.scenario, p.variants, p.overrides, module,
                      p.observable == "crossing_jobs" && c["figure"].present() ? c["figure"]
                                                                               : c["observable"]);
  p.series = strings(c["series"]);
  if (c["replications"].present()) p.replications = read_int(c["replications"], 2, 100);
  if (c["reading_of"].present()) {
    p.reading_of = read_string(c["reading_of"]);
    // Leaving the key out says "no other reading"; an empty id names nothing.
    if (p.reading_of.empty())
      c["reading_of"].fail_value(
          "the id of an earlier prediction (leave the key out when this is no reading)");
  }
  if (c["assumes"].present()) p.assumes = read_string(c["assumes"]);
  if (c["pinned_by"].present()) p.pinned_by = read_string(c["pinned_by"]);
  if (const Cursor set = c["set"]; set.present()) {
    require(set, set.node().IsMap(), "a map {PARAMETER_KEY: [KEY=VALUE with {} for its value, ...]}");
    for (const auto& entry : set.node())
      p.set[entry.first.Scalar()] = strings(set[entry.first.Scalar()]);
  }
  return p;
}

// A prediction's id is new, and its `reading_of` names an earlier prediction of its own (not another reading)
// with the same observable: an envelope over readings of different figures would mean nothing.
void check_reading_of(const JointSpec& spec, const Cursor& c) {
  const JointPrediction& p = spec.predictions.back();
  for (std::size_t i = 0; i + 1 < spec.predictions.size(); ++i)
    require(c["id"], spec.predictions[i].id != p.id,
            "an id no other prediction has ('" + p.id + "' is taken)");
  if (p.reading_of.empty()) return;
  for (std::size_t i = 0; i + 1 < spec.predictions.size(); ++i) {
    const JointPrediction& other = spec.predictions[i];
    if (other.id != p.reading_of) continue;
    require(c["reading_of"], other.reading_of.empty(),
            "the id of a prediction of its own ('" + other.id + "' is itself a reading of '" +
                other.reading_of + "')");
    require(c["reading_of"], other.observable == p.observable,
            "a prediction of the same observable ('" + other.id + "' predicts " + other.observable +
                ", this one " + p.observable + ")");
    require(c["pinned_by"], p.pinned_by.empty(),
            "no pinned_by on a reading: the prediction it is a reading of ('" + other.id +
                "') names the measurement that chooses between its readings");
    return;
  }
  c["reading_of"].fail("the id of an earlier prediction of this spec (none is '" + p.reading_of + "')");
}

// A prediction's `set:` names parameters of the spec, each expression expands (at the parameter's start),
// and the prediction's scenario loads with them, told at the entry's line.
void check_prediction_set(const JointSpec& spec, const Cursor& c, const JointPrediction& p) {
  if (p.set.empty()) return;
  const Cursor set = c["set"];
  std::vector<std::string> overrides = p.overrides;
  for (const auto& entry : set.node()) {
    const std::string key = entry.first.Scalar();
    const JointParameter& named = parameter_named(spec, set, entry.first, "a parameter of this spec");
    try {
      for (auto& o : expand_set(p.set.at(key), named.initial))
        overrides.push_back(std::move(o));
    } catch (const InputError& error) {
      set[key].fail(error.what());
    }
  }
  try {
    load_variant_file(p.scenario, p.variants, overrides);
  } catch (const ScenarioError& e) {
    set.fail("expressions the prediction's scenario takes (" + p.scenario + "): " + spec_override_problem(e));
  }
}

} // namespace

void read_predictions(JointSpec& spec, const Cursor& predictions) {
  for (std::size_t i = 0; i < predictions.node().size(); ++i) {
    spec.predictions.push_back(read_prediction(spec.file, predictions[i]));
    require_series_of(spec, predictions[i]["series"], spec.predictions.back().series);
    check_prediction_set(spec, predictions[i], spec.predictions.back());
    check_reading_of(spec, predictions[i]);
  }
}

} // namespace sonicsim::spec_cursor
