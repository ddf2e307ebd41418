#include "sim/calibration/joint_spec.hpp"

#include "sim/calibration/spec_cursor.hpp"

#include "sim/text/input_file.hpp"

#include "sim/measurements/measurement_error.hpp"

#include "sim/scenario/input_error.hpp"
#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "sim/scenario/yaml_cursor.hpp"
#include "sim/scenario/yaml_values.hpp"

#include <cmath>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <set>

namespace fs = std::filesystem;

namespace sonicsim {
namespace {

using spec_cursor::check_scenario_runs;
using spec_cursor::only_keys;
using spec_cursor::overrides;
using spec_cursor::parameter_named;
using spec_cursor::read_predictions;
using spec_cursor::require_series_of;
using spec_cursor::resolve;
using spec_cursor::strings;

// An unknown's key is its own, and each prediction it names is one of the spec's own (not a reading: a
// reading takes the unknowns of the prediction it is a reading of), its expressions accepted by the
// prediction's scenario at both ends of the range.
void check_unknown(const JointSpec& spec, const Cursor& c) {
  const JointUnknown& u = spec.unknowns.back();
  for (const auto& p : spec.parameters)
    require(c["key"], p.fit.key != u.key, "a name no parameter has (" + u.key + " is fitted)");
  for (std::size_t j = 0; j + 1 < spec.unknowns.size(); ++j)
    require(c["key"], spec.unknowns[j].key != u.key, "a name no other unknown has");
  for (std::size_t i = 0; i < u.predictions.size(); ++i) {
    const Cursor at = c["predictions"].node().IsSequence() ? c["predictions"][i] : c["predictions"];
    const auto named = std::find_if(spec.predictions.begin(), spec.predictions.end(),
                                    [&](const JointPrediction& p) { return p.id == u.predictions[i]; });
    require(at, named != spec.predictions.end(),
            "the id of a prediction of this spec (none is " + u.predictions[i] + ")");
    require(at, named->reading_of.empty(),
            "a prediction of its own; " + named->id + " is a reading of " + named->reading_of +
                ", and takes that one's unknowns");
    for (const double end : {u.lower, u.upper}) {
      auto overrides = named->overrides;
      for (const auto& o : expand_set(u.sets, end))
        overrides.push_back(o);
      check_scenario_runs(c["set"], named->scenario, named->variants, overrides, "", c["set"]);
    }
  }
}

JointParameter read_parameter(const Cursor& c) {
  only_keys(c,
            {"key", "lower", "upper", "initial", "assumed", "unit", "set", "series", "meaning", "pinned_by"});
  JointParameter p;
  p.fit.key = read_string(c["key"]);
  p.fit.lower = read_number(c["lower"]);
  p.fit.upper = read_number(c["upper"]);
  require(c["upper"], p.fit.lower < p.fit.upper, "upper above lower");
  p.initial = c["initial"].present() ? read_number(c["initial"]) : p.fit.lower;
  require(c["initial"], p.initial >= p.fit.lower && p.initial <= p.fit.upper, "a start within the bounds");
  p.assumed = c["assumed"].present() ? read_number(c["assumed"]) : p.initial;
  require(c["assumed"], p.assumed >= p.fit.lower && p.assumed <= p.fit.upper, "a value within the bounds");
  if (c["unit"].present()) p.fit.unit = read_string(c["unit"]);
  p.sets = c["set"].present() ? strings(c["set"]) : std::vector<std::string>{p.fit.key + "={}" + p.fit.unit};
  for (const auto& expression : p.sets)
    require(
        c["set"], expression.find('{') != std::string::npos && expression.find('=') != std::string::npos,
        "--set expressions KEY=VALUE with {} (the value), {C-} (C minus the value) or {C-/N} (that over N)");
  try {
    parameter_override(p, "", p.initial);
  } catch (const InputError& error) {
    c["set"].fail(error.what());
  }
  p.series = strings(c["series"]);
  if (c["meaning"].present()) p.meaning = read_string(c["meaning"]);
  if (c["pinned_by"].present()) p.pinned_by = read_string(c["pinned_by"]);
  p.lower_at = {c["lower"].mark().line + 1, c["lower"].mark().column + 1};
  p.upper_at = {c["upper"].mark().line + 1, c["upper"].mark().column + 1};
  return p;
}

// A series' reference names another series of the spec that measures the direct-inference level, with one
// point or a point at each of this series' x.
void check_reference(const JointSpec& spec, const JointSeries& series, const Cursor& c) {
  if (series.reference.empty()) return;
  const auto named = std::find_if(spec.series.begin(), spec.series.end(),
                                  [&](const JointSeries& s) { return s.name == series.reference; });
  std::string names;
  for (const auto& s : spec.series)
    if (s.name != series.name && s.observable.figure == Figure::direct_events_per_s_per_job)
      names += (names.empty() ? "" : ", ") + s.name;
  if (named == spec.series.end() || named->name == series.name)
    c.fail("the name of another series of this spec measuring direct_events_per_s_per_job (" +
           (names.empty() ? std::string("there is none") : names) + ")");
  if (named->observable.figure != Figure::direct_events_per_s_per_job)
    c.fail("a series measuring direct_events_per_s_per_job; " + named->name + " measures " +
           named->observable.text());
  if (series.observable.figure == Figure::direct_events_per_s_per_job)
    c.fail("no reference: this series measures the direct level itself");
  if (named->points.size() == 1) return;
  for (const auto& point : series.points)
    if (std::none_of(named->points.begin(), named->points.end(),
                     [&](const calibration::MeasuredPoint& r) { return r.x == point.x; }))
      c.fail("a reference with one point or one at each of this series' x; " + named->name + " has " +
             std::to_string(named->points.size()) + " and none at x = " + std::to_string(point.x));
}

JointSeries read_series(const std::string& spec, const Cursor& c) {
  only_keys(c, {"name", "scenario", "variant", "overrides", "data", "x", "y", "sd", "x_key", "observable",
                "why_sd", "reference", "points"});
  JointSeries s;
  s.name = read_string(c["name"]);
  s.scenario = resolve(spec, c["scenario"]);
  s.variants = strings(c["variant"]);
  s.overrides = overrides(c["overrides"]);
  s.data = resolve(spec, c["data"]);
  s.columns = {read_string(c["x"]), read_string(c["y"]), read_string(c["sd"])};
  if (c["x_key"].present()) s.x_key = read_string(c["x_key"]);
  try {
    s.observable = parse_figure_name(read_string(c["observable"]), "observable");
  } catch (const InputError& error) {
    c["observable"].fail(error.what());
  }
  check_scenario_runs(c, s.scenario, s.variants, s.overrides, s.observable.module, c["observable"]);
  require(c["why_sd"], c["why_sd"].present(), "why_sd: where the points' sd come from");
  s.why_sd = read_string(c["why_sd"]);
  if (c["reference"].present()) s.reference = read_string(c["reference"]);
  try {
    s.points = calibration::read_measured_series(s.data, s.name, s.columns, {});
  } catch (const measurements::MeasurementError& error) {
    c["data"].fail(error.what()); // at the spec's line, with the file's own line in the message
  }
  // `points: [X, ...]`: only the rows at these x values (one measurement of a scan, say), each one there.
  if (const Cursor only = c["points"]; only.present()) {
    require(only, only.node().IsSequence() && only.node().size() > 0,
            "a list of x values of the data's rows");
    std::vector<calibration::MeasuredPoint> kept;
    for (std::size_t i = 0; i < only.node().size(); ++i) {
      const double x = read_number(only[i]);
      const auto at = std::find_if(s.points.begin(), s.points.end(), [x](const auto& p) { return p.x == x; });
      require(only[i], at != s.points.end(), "an x value of a row of series " + s.name + " in " + s.data);
      kept.push_back(*at);
    }
    s.points = kept;
  }
  return s;
}

JointConstraint read_constraint(const std::string& spec, const Cursor& c) {
  only_keys(c, {"name", "scenario", "variant", "series", "quantity", "module", "value", "sd", "why"});
  JointConstraint k;
  k.name = read_string(c["name"]);
  k.scenario = resolve(spec, c["scenario"]);
  k.variants = strings(c["variant"]);
  k.series = strings(c["series"]);
  k.quantity = read_choice(c["quantity"], {"inferences_per_event", "input_bytes_per_event"});
  k.module = read_string(c["module"]);
  k.value = read_number(c["value"]);
  k.sd = read_number(c["sd"]);
  require(c["value"], k.value > 0.0 && std::isfinite(k.value), "a measured value > 0");
  require(c["sd"], k.sd > 0.0 && std::isfinite(k.sd), "its standard deviation, > 0");
  k.why = read_string(c["why"]);
  check_scenario_runs(c, k.scenario, k.variants, {}, k.module, c["module"]);
  return k;
}

// Further starts of the fit: maps {KEY: VALUE}, every parameter not named at its initial value.
void read_starts(JointSpec& spec, const Cursor& starts) {
  require(starts, starts.node().IsSequence(), "a list of maps {KEY: VALUE} of parameters' start values");
  for (std::size_t s = 0; s < starts.node().size(); ++s) {
    const Cursor start = starts[s];
    require(start, start.node().IsMap(), "a map {KEY: VALUE} of parameters' start values");
    std::vector<double> values;
    for (const auto& p : spec.parameters)
      values.push_back(p.initial);
    for (const auto& entry : start.node()) {
      const std::string key = entry.first.Scalar();
      const JointParameter* at = &parameter_named(spec, start, entry.first, "not a parameter of this spec");
      const double value = read_number(start[key]);
      require(start[key], value >= at->fit.lower && value <= at->fit.upper, "a start within the bounds");
      values[static_cast<std::size_t>(at - spec.parameters.data())] = value;
    }
    spec.starts.push_back(values);
  }
}

} // namespace

std::string spec_override_problem(const ScenarioError& error) {
  std::string message = error.message;
  for (auto set = message.find("--set "); set != std::string::npos; set = message.find("--set ", set))
    message.erase(set, 6);
  return (error.key_path.empty() ? "" : "key '" + error.key_path + "': ") + message;
}

JointSpec read_joint_spec(const std::string& path) {
  YAML::Node root;
  std::string text;
  try {
    text = read_input_file(path);
  } catch (const std::runtime_error& e) {
    throw ScenarioError(path, 0, 0, "", std::string(e.what()) + "; expected a calibration spec (YAML)");
  }
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& error) {
    throw ScenarioError(path, error.mark.line + 1, error.mark.column + 1, "", "malformed YAML: " + error.msg);
  }
  SourceInfo source{path, {}};
  const Cursor c(source, root);
  c.check_keys();
  only_keys(c, {"parameters", "series", "predictions", "constraints", "model_form", "max_evaluations",
                "starts", "seeds", "rival_fits_pinned_by", "unknowns"});
  JointSpec spec;
  spec.file = path;
  if (c["rival_fits_pinned_by"].present()) spec.rival_fits_pinned_by = read_string(c["rival_fits_pinned_by"]);
  require(c["parameters"], c["parameters"].node().IsSequence() && c["parameters"].node().size() > 0,
          "a list of parameters to fit");
  for (std::size_t i = 0; i < c["parameters"].node().size(); ++i) {
    spec.parameters.push_back(read_parameter(c["parameters"][i]));
    for (std::size_t j = 0; j < i; ++j)
      if (spec.parameters[j].fit.key == spec.parameters[i].fit.key)
        c["parameters"][i]["key"].fail("a key fitted once; parameters[" + std::to_string(j) + "] fits " +
                                       spec.parameters[i].fit.key + " already");
  }
  require(c["series"], c["series"].node().IsSequence() && c["series"].node().size() > 0,
          "a list of measured series");
  std::size_t points = 0;
  for (std::size_t i = 0; i < c["series"].node().size(); ++i) {
    spec.series.push_back(read_series(path, c["series"][i]));
    points += spec.series.back().points.size();
  }
  for (std::size_t i = 0; i < spec.series.size(); ++i)
    check_reference(spec, spec.series[i], c["series"][i]["reference"]);
  for (std::size_t i = 0; i < spec.parameters.size(); ++i)
    require_series_of(spec, c["parameters"][i]["series"], spec.parameters[i].series);
  require(c["series"], points > spec.parameters.size(),
          "more measured points (" + std::to_string(points) + ") than parameters (" +
              std::to_string(spec.parameters.size()) + ")");
  if (c["predictions"].present()) read_predictions(spec, c["predictions"]);
  if (const Cursor unknowns = c["unknowns"]; unknowns.present()) {
    require(unknowns, unknowns.node().IsSequence(),
            "a list of inputs no series measures, each with its range");
    for (std::size_t i = 0; i < unknowns.node().size(); ++i) {
      spec.unknowns.push_back(read_unknown(unknowns[i]));
      check_unknown(spec, unknowns[i]);
    }
  }
  if (c["model_form"].present()) {
    spec.leave_one_series_out = read_choice(c["model_form"], {"none", "leave_one_series_out"}) != "none";
    require(c["model_form"], !spec.leave_one_series_out || spec.series.size() >= 2,
            "at least 2 series to leave one out (this spec has " + std::to_string(spec.series.size()) + ")");
  }
  if (const Cursor constraints = c["constraints"]; constraints.present()) {
    require(constraints, constraints.node().IsSequence(), "a list of released facts the fit must respect");
    for (std::size_t i = 0; i < constraints.node().size(); ++i) {
      spec.constraints.push_back(read_constraint(path, constraints[i]));
      require_series_of(spec, constraints[i]["series"], spec.constraints.back().series);
    }
  }
  if (const Cursor starts = c["starts"]; starts.present()) read_starts(spec, starts);
  if (c["max_evaluations"].present()) spec.max_evaluations = read_int(c["max_evaluations"], 2, 1000);
  if (c["seeds"].present()) spec.seeds = read_int(c["seeds"], 1, 20);
  return spec;
}

} // namespace sonicsim
