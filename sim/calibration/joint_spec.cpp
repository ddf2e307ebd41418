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

using spec_cursor::only_keys;
using spec_cursor::strings;

// Overrides of a series or a prediction: each KEY.PATH=VALUE, told at its own line when it is not.
std::vector<std::string> overrides(const Cursor& c) {
  std::vector<std::string> out = strings(c);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::size_t equals = out[i].find('=');
    require(c.node().IsSequence() ? c[i] : c, equals != std::string::npos && equals > 0,
            "KEY.PATH=VALUE, e.g. workload.jobs=200");
  }
  return out;
}

// Paths in the spec are relative to the repository root: the spec's folder's parent's parent
// (validation/calibration/x.yaml), or the working directory when the file is there.
std::string resolve(const std::string& spec, const Cursor& c) {
  const std::string path = read_string(c);
  std::error_code error;
  // A device or a folder is refused before anything reads it (/dev/zero would be read without end).
  const auto regular = [&c, &error](const fs::path& file) {
    require(c, fs::is_regular_file(file, error),
            "a regular file (a device or a folder holds no measured series)");
    return file.lexically_normal().string();
  };
  if (fs::path(path).is_absolute() || fs::exists(path, error)) return regular(path);
  const auto root = fs::path(spec).parent_path().parent_path().parent_path() / path;
  require(c, fs::exists(root, error), "an existing file (relative to the repository root)");
  return regular(root);
}

// The scenario a series or a prediction runs, loaded with its variants and overrides: an override it refuses
// is told at the overrides' line, and a module the observable names that its pipeline lacks at `named`'s.
void check_scenario_runs(const Cursor& c, const std::string& scenario,
                         const std::vector<std::string>& variants, const std::vector<std::string>& overrides,
                         const std::string& module, const Cursor& named) {
  Scenario loaded;
  try {
    loaded = load_variant_file(scenario, variants, overrides);
  } catch (const ScenarioError& e) {
    (c["overrides"].present() ? c["overrides"] : c["scenario"])
        .fail("refused by " + scenario + ": " + spec_override_problem(e));
  }
  if (module.empty()) return;
  std::string names;
  for (const auto& m : loaded.workload.pipeline) {
    if (m.name == module) return;
    names += (names.empty() ? "" : ", ") + m.name;
  }
  named.fail("module '" + module + "' is not in " + scenario + "'s pipeline (" + names + ")");
}

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

// The parameter of `key` a map's entry names (a prediction's set, a start), or a failure at that key's line.
const JointParameter& parameter_named(const JointSpec& spec, const Cursor& map, const YAML::Node& key,
                                      const std::string& otherwise) {
  for (const auto& p : spec.parameters)
    if (p.fit.key == key.Scalar()) return p;
  map.key_cursor(key).fail(otherwise);
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

// A parameter's, prediction's or constraint's `series:` names series of the spec, told at its line.
void require_series_of(const JointSpec& spec, const Cursor& at, const std::vector<std::string>& names) {
  for (const auto& name : names)
    require(at,
            std::any_of(spec.series.begin(), spec.series.end(),
                        [&name](const JointSeries& s) { return s.name == name; }),
            "names of series of this spec (no series '" + name + "')");
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
  if (c["predictions"].present())
    for (std::size_t i = 0; i < c["predictions"].node().size(); ++i) {
      spec.predictions.push_back(read_prediction(path, c["predictions"][i]));
      require_series_of(spec, c["predictions"][i]["series"], spec.predictions.back().series);
      check_prediction_set(spec, c["predictions"][i], spec.predictions.back());
      check_reading_of(spec, c["predictions"][i]);
    }
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
  if (const Cursor starts = c["starts"]; starts.present()) {
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
  if (c["max_evaluations"].present()) spec.max_evaluations = read_int(c["max_evaluations"], 2, 1000);
  if (c["seeds"].present()) spec.seeds = read_int(c["seeds"], 1, 20);
  return spec;
}

} // namespace sonicsim
