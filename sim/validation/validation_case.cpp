#include "sim/validation/validation_case.hpp"

#include "sim/metrics/figure_table.hpp"
#include "sim/scenario/input_error.hpp"
#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/yaml_walk_guard.hpp"
#include "sim/text/input_file.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace sonicsim {
namespace {

const std::set<std::string> known_keys{
    "id",        "title",    "source",    "observable",   "module",    "scenario",    "variant",
    "overrides", "baseline", "sweep",     "dataset",      "measured",  "tolerance",   "known_discrepancy",
    "fast",      "figure",   "reference", "replications", "predicted", "uncalibrated"};

[[noreturn]] void fail(const std::string& file, const YAML::Node& node, const std::string& key,
                       const std::string& message) {
  const auto mark = node.Mark();
  throw ScenarioError(file, mark.is_null() ? 0 : mark.line + 1, mark.is_null() ? 0 : mark.column + 1, key,
                      message);
}

// A key written twice in a map: yaml-cpp keeps one silently, so the case would say something the file does
// not. Each map or list once, bounded (sim/scenario/yaml_walk_guard.hpp): a node that contains itself or a
// document too deep or too large is refused.
void check_duplicate_keys(const std::string& file, const YAML::Node& node, const std::string& where,
                          YamlWalkGuard& guard) {
  if (!node.IsMap() && !node.IsSequence()) return;
  const auto entry = guard.enter(node);
  if (entry == YamlWalkGuard::Entry::seen_before) return;
  if (entry != YamlWalkGuard::Entry::first_time)
    fail(file, node, where.empty() ? std::string() : where.substr(0, where.size() - 1),
         YamlWalkGuard::problem(entry));
  if (node.IsMap()) {
    std::map<std::string, int> first_line;
    for (const auto& item : node) {
      if (!item.first.IsScalar()) fail(file, item.first, where, "a key that is not plain text");
      const auto key = item.first.as<std::string>();
      const auto [first, inserted] = first_line.emplace(key, item.first.Mark().line + 1);
      if (!inserted)
        fail(file, item.first, where + key,
             "duplicate key '" + key + "' (first written at line " + std::to_string(first->second) +
                 "); write each key once");
      check_duplicate_keys(file, item.second, where + key + ".", guard);
    }
  } else {
    for (const auto& item : node)
      check_duplicate_keys(file, item, where, guard);
  }
  guard.leave();
}

void check_duplicate_keys(const std::string& file, const YAML::Node& node, const std::string& where) {
  YamlWalkGuard guard;
  check_duplicate_keys(file, node, where, guard);
}

// A value that is text (a title, an id, a file name): a scalar, not a map or a list.
std::string text_value(const std::string& file, const YAML::Node& node, const std::string& key) {
  if (!node.IsScalar()) fail(file, node, key, "got a map or a list; expected text");
  return node.Scalar();
}

// A number that a verdict depends on: finite (YAML's .inf and .nan would make any result pass or fail).
double finite_number(const std::string& file, const YAML::Node& node, const std::string& key) {
  // A quoted value is text (yaml-cpp tags it "!"), as a scenario reads it: "12" is not a number here.
  if (node.IsScalar() && node.Tag() == "!")
    fail(file, node, key, "got the text \"" + node.Scalar() + "\"; expected a number, unquoted");
  const double value = node.as<double>();
  if (!std::isfinite(value)) fail(file, node, key, "got " + node.Scalar() + "; expected a finite number");
  return value;
}

// A tolerance: finite and > 0.
double positive_number(const std::string& file, const YAML::Node& node, const std::string& key) {
  const double value = finite_number(file, node, key);
  if (!(value > 0.0)) fail(file, node, key, "got " + node.Scalar() + "; expected a number > 0");
  return value;
}

// Scenario and data paths are relative to the repository root (two levels above the case file).
std::string resolve(const std::string& case_file, const std::string& path) {
  std::error_code unreadable; // a name too long reads as absent: the file check that follows names it
  if (fs::path(path).is_absolute() || fs::exists(path, unreadable)) return path;
  return (fs::path(case_file).parent_path().parent_path().parent_path() / path).lexically_normal().string();
}

RunSpec read_run(const std::string& file, const YAML::Node& node, const std::string& where) {
  RunSpec run;
  if (!node["scenario"])
    fail(file, node, where + "scenario", "missing; expected a scenario file, e.g. configs/x.yaml");
  run.scenario_path = resolve(file, node["scenario"].as<std::string>());
  if (const auto problem = input_file_problem(run.scenario_path))
    fail(file, node["scenario"], where + "scenario",
         run.scenario_path + ": " + *problem + "; expected a scenario file, e.g. configs/x.yaml");
  if (const auto variant = node["variant"]) {
    if (variant.IsScalar())
      run.variants.push_back(variant.as<std::string>());
    else if (variant.IsSequence())
      for (const auto& name : variant)
        run.variants.push_back(name.as<std::string>());
    else
      fail(file, variant, where + "variant", "expected a variant name of the scenario, or a list of them");
  }
  if (const auto overrides = node["overrides"]) {
    if (!overrides.IsSequence())
      fail(file, overrides, where + "overrides",
           "expected a list of KEY=VALUE strings, e.g. [\"workload.jobs=4\"]");
    for (const auto& item : overrides) {
      if (!item.IsScalar()) fail(file, item, where + "overrides", "expected a KEY=VALUE string");
      run.overrides.push_back(item.as<std::string>());
      run.override_positions.emplace_back(item.Mark().line + 1, item.Mark().column + 1);
    }
  }
  return run;
}

// A measured case's value, its uncertainty and the tolerance with its reason.
void read_measurement(const std::string& path, const YAML::Node& root, ValidationCase& c) {
  const auto measured = root["measured"];
  if (!measured.IsMap() || !measured["value"])
    fail(path, measured, "measured.value", "missing; expected measured: {value: X, uncertainty: U}");
  c.measured = finite_number(path, measured["value"], "measured.value");
  if (measured["uncertainty"]) {
    c.measured_uncertainty = finite_number(path, measured["uncertainty"], "measured.uncertainty");
    if (c.measured_uncertainty < 0.0)
      fail(path, measured["uncertainty"], "measured.uncertainty", "expected an uncertainty >= 0");
  }
  const auto tolerance = root["tolerance"];
  if (!tolerance.IsMap())
    fail(path, tolerance, "tolerance", "expected a map {relative, absolute, min, max, why}");
  if (tolerance["relative"]) {
    c.relative_tolerance = positive_number(path, tolerance["relative"], "tolerance.relative");
    // Above 100 % the case cannot fail on anything but the sign: it would not be a check.
    if (*c.relative_tolerance > 1.0)
      fail(path, tolerance["relative"], "tolerance.relative", "expected a fraction in (0, 1], e.g. 0.05");
  }
  if (tolerance["absolute"])
    c.absolute_tolerance = positive_number(path, tolerance["absolute"], "tolerance.absolute");
  if (tolerance["min"]) c.minimum = finite_number(path, tolerance["min"], "tolerance.min");
  if (tolerance["max"]) c.maximum = finite_number(path, tolerance["max"], "tolerance.max");
  if (!tolerance["why"])
    fail(path, tolerance, "tolerance.why", "missing; say where the tolerance comes from");
  c.tolerance_reason = tolerance["why"].as<std::string>();
  if (!c.relative_tolerance && !c.absolute_tolerance && !c.minimum && !c.maximum)
    fail(path, tolerance, "tolerance", "expected relative, absolute, min or max");
}

// A prediction case: its predicted value, its one 95 % interval (calibration.json `answers`), the tolerance a
// rerun of the same code is held to, and the command that made it.
void read_prediction(const std::string& path, const YAML::Node& root, ValidationCase& c) {
  const auto predicted = root["predicted"];
  for (const char* key : {"measured", "tolerance", "known_discrepancy"})
    if (root[key])
      fail(path, root[key], key, "a prediction case has no measurement; expected predicted: only");
  const char* expected =
      "expected {value: X, interval95: [LOW, HIGH] (null for an open side), "
      "reproduce_within: H, command: \"the sonicsim command that predicted it\", rests_on: "
      "[\"its top assumptions, each with the answer at both ends\", ...], pinned_by: \"the "
      "measurement that would pin the first\"}";
  if (!predicted.IsMap()) fail(path, predicted, "predicted", expected);
  // The interval once came in parts beside a wider envelope; a case written so says what it is now.
  for (const char* old : {"ci95_half_width", "ci95"})
    if (predicted[old])
      fail(path, predicted[old], std::string("predicted.") + old,
           "no longer read: a prediction has one 95 % interval, interval95: [LOW, HIGH] (its answer in "
           "calibration.json `answers`), and the check's tolerance is reproduce_within: H");
  if (!predicted["value"] || !predicted["interval95"] || !predicted["reproduce_within"] ||
      !predicted["command"] || !predicted["rests_on"] || !predicted["pinned_by"])
    fail(path, predicted, "predicted", expected);
  ValidationCase::Prediction p;
  p.value = finite_number(path, predicted["value"], "predicted.value");
  const YAML::Node ends = predicted["interval95"];
  if (!ends.IsSequence() || ends.size() != 2)
    fail(path, ends, "predicted.interval95", "[LOW, HIGH] with null for an open side");
  if (!ends[0].IsNull()) p.low = finite_number(path, ends[0], "predicted.interval95[0]");
  if (!ends[1].IsNull()) p.high = finite_number(path, ends[1], "predicted.interval95[1]");
  if ((p.low && *p.low > p.value) || (p.high && *p.high < p.value))
    fail(path, ends, "predicted.interval95", "ends on either side of the value " + std::to_string(p.value));
  p.reproduce_within = positive_number(path, predicted["reproduce_within"], "predicted.reproduce_within");
  p.command = predicted["command"].as<std::string>();
  const YAML::Node rests_on = predicted["rests_on"];
  if (!rests_on.IsSequence() || rests_on.size() == 0)
    fail(path, rests_on, "predicted.rests_on",
         "a list of the answer's top assumptions (calibration.json `answers`), largest swing first");
  for (const auto& assumption : rests_on) {
    if (!assumption.IsScalar() || assumption.Scalar().empty())
      fail(path, assumption, "predicted.rests_on", "each a non-empty text");
    p.rests_on.push_back(assumption.Scalar());
  }
  if (!predicted["pinned_by"].IsScalar() || predicted["pinned_by"].Scalar().empty())
    fail(path, predicted["pinned_by"], "predicted.pinned_by", "the measurement that would pin the first");
  p.pinned_by = predicted["pinned_by"].Scalar();
  c.predicted = p;
  c.measured = p.value;
  // The check: the simulation reproduces the prediction within the parts a rerun of the same code varies by
  // (seeds, the fit, the leave-one-out fits); the interval is wider (it holds what the data do not place).
  c.absolute_tolerance = p.reproduce_within;
  c.tolerance_reason =
      "the prediction's seeds', calibration's and model-form parts at its settings (" + p.command + ")";
}

// A knee case's sweep (a key or a --set template, at least 4 values) and a curve case's measured dataset.
void read_sweep_and_dataset(const std::string& path, const YAML::Node& root, ValidationCase& c) {
  if (const auto sweep = root["sweep"]) {
    if (sweep["key"]) c.sweep_key = sweep["key"].as<std::string>();
    if (sweep["set"]) c.sweep_template = sweep["set"].as<std::string>();
    if (c.sweep_key.empty() == c.sweep_template.empty())
      fail(path, sweep, "sweep", "expected either key (swept key) or set (a --set expression with {})");
    for (const auto& value : sweep["values"])
      c.sweep_values.push_back(finite_number(path, value, "sweep.values"));
    if (c.sweep_values.size() < 4)
      fail(path, sweep, "sweep.values", "expected at least 4 points to fit a knee");
  }
  if (const auto data = root["dataset"]) {
    CurveDataset dataset;
    dataset.file = resolve(path, data["file"].as<std::string>());
    if (const auto problem = input_file_problem(dataset.file))
      fail(path, data["file"], "dataset.file",
           dataset.file + ": " + *problem + "; expected a CSV of measured series");
    dataset.series = data["series"].as<std::string>();
    dataset.x_column = data["x"].as<std::string>();
    dataset.y_column = data["y"].as<std::string>();
    dataset.sd_column = data["sd"].as<std::string>();
    if (data["reference"]) dataset.reference_column = data["reference"].as<std::string>();
    c.dataset = dataset;
  }
}

} // namespace

ValidationCase load_validation_case(const std::string& path) {
  YAML::Node root;
  std::string text;
  try {
    text = read_input_file(path);
  } catch (const std::runtime_error& e) {
    throw ScenarioError(path, 0, 0, "", std::string(e.what()) + "; expected a validation case (YAML)");
  }
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& error) {
    throw ScenarioError(path, error.mark.line + 1, error.mark.column + 1, "", "malformed YAML: " + error.msg);
  }
  if (!root.IsMap()) fail(path, root, "", "expected a map of case fields");
  try {
    check_duplicate_keys(path, root, "");
    for (const auto& entry : root) {
      const auto key = entry.first.as<std::string>();
      if (!known_keys.count(key)) fail(path, entry.first, key, "unknown key in a validation case");
    }
    ValidationCase c;
    c.file = path;
    for (const char* required : {"id", "title", "source", "observable"})
      if (!root[required]) fail(path, root, required, "missing; every case states it");
    if (!root["predicted"])
      for (const char* required : {"measured", "tolerance"})
        if (!root[required])
          fail(path, root, required, "missing; every case states it (or predicted: for a prediction case)");
    c.id = text_value(path, root["id"], "id");
    c.title = text_value(path, root["title"], "title");
    c.source = text_value(path, root["source"], "source");
    c.observable = text_value(path, root["observable"], "observable");
    // A figure's name from before the figure table is read as its current name, with a notice.
    try {
      const FigureName name = parse_figure_name(c.observable, "observable");
      c.renamed_notice = renamed_notice(name);
      c.observable = name.text();
    } catch (const InputError&) {
      // Not a figure: a derived observable, or unknown (runs_for() says which are known).
    }
    if (root["module"]) c.module = text_value(path, root["module"], "module");
    c.run = read_run(path, root, "");
    for (const char* section : {"baseline", "sweep", "dataset"})
      if (root[section] && !root[section].IsMap())
        fail(path, root[section], section, "got a list or a value; expected a map of its fields");
    if (root["baseline"]) c.baseline = read_run(path, root["baseline"], "baseline.");
    read_sweep_and_dataset(path, root, c);
    if (root["figure"]) c.figure = text_value(path, root["figure"], "figure");
    if (const auto reference = root["reference"]) {
      if (!(reference.IsScalar() && reference.Scalar() == "direct"))
        c.reference = positive_number(path, reference, "reference");
    }
    if (const auto replications = root["replications"]) {
      c.replications = replications.as<int>();
      // 2 is the fewest that give an interval; 100 simulations per point is more than any case needs.
      if (c.replications < 1 || c.replications > 100)
        fail(path, replications, "replications", "expected 1..100 seeds per run");
    }
    if (root["predicted"])
      read_prediction(path, root, c);
    else
      read_measurement(path, root, c);
    if (const auto before = root["uncalibrated"]) {
      if (!before.IsMap() || !before["value"] || !before["note"])
        fail(path, before, "uncalibrated", "expected {value: X, note: \"where it comes from\"}");
      c.uncalibrated = finite_number(path, before["value"], "uncalibrated.value");
      c.uncalibrated_note = before["note"].as<std::string>();
    }
    if (root["known_discrepancy"])
      c.known_discrepancy = text_value(path, root["known_discrepancy"], "known_discrepancy");
    if (root["fast"]) c.fast = root["fast"].as<bool>();
    return c;
  } catch (const YAML::Exception& error) {
    throw ScenarioError(path, error.mark.line + 1, error.mark.column + 1, "", "bad value: " + error.msg);
  }
}

} // namespace sonicsim
