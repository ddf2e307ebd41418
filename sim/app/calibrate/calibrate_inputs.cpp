#include "sim/app/calibrate/calibrate_inputs.hpp"

#include "sim/app/calibrate/calibrated_scenario.hpp"

#include "sim/engine/output_files.hpp"
#include "sim/scenario/input_error.hpp"
#include "sim/scenario/overrides.hpp"
#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "sim/scenario/units.hpp"

#include <cmath>
#include <cstdio>
#include <optional>

namespace sonicsim {

// The calibrated scenario with its --variant and these overrides; another file (a held-out scenario) as
// written.
Scenario load_for(const CalibrateArguments& a, const std::string& path,
                  const std::vector<std::string>& overrides) {
  return path == a.scenario ? load_variant_file(path, a.variants, overrides)
                            : load_scenario_file(path, overrides);
}

std::string value_text(double value, const std::string& unit) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.9g", value);
  return buffer + unit;
}

namespace {

// "12.5ns" -> (12.5, "ns"); "3" -> (3, "").
std::pair<double, std::string> number_and_unit(const std::string& text, const std::string& argument) {
  std::size_t end = 0;
  double value = 0.0;
  try {
    value = std::stod(text, &end);
  } catch (const std::exception&) {
    end = 0;
  }
  if (end == 0 || !std::isfinite(value))
    throw InputError("--fit " + argument + ": got '" + text +
                     "'; expected a finite number with the key's unit, e.g. 2ns");
  return {value, text.substr(end)};
}

calibration::FitParameter parse_fit(const std::string& argument, std::optional<double>& initial) {
  const auto equals = argument.find('=');
  const auto colon = argument.find(':', equals == std::string::npos ? 0 : equals);
  if (equals == std::string::npos || colon == std::string::npos)
    throw InputError("--fit " + argument +
                     ": expected KEY=LOWER:UPPER[@INITIAL], e.g. "
                     "models.m.compute_input.per_byte=0ns:10ns");
  calibration::FitParameter p;
  p.key = argument.substr(0, equals);
  validate_key_path(p.key, "--fit " + argument);
  const auto at = argument.find('@', colon);
  const auto [lower, lower_unit] = number_and_unit(argument.substr(equals + 1, colon - equals - 1), argument);
  const auto [upper, upper_unit] = number_and_unit(
      argument.substr(colon + 1, at == std::string::npos ? std::string::npos : at - colon - 1), argument);
  if (lower_unit != upper_unit)
    throw InputError("--fit " + argument + ": the bounds must have the same unit ('" + lower_unit + "', '" +
                     upper_unit + "')");
  if (!(lower < upper)) throw InputError("--fit " + argument + ": expected LOWER < UPPER");
  p.lower = lower;
  p.upper = upper;
  p.unit = lower_unit;
  initial.reset();
  if (at != std::string::npos) {
    const auto [value, unit] = number_and_unit(argument.substr(at + 1), argument);
    if (unit != p.unit || value < lower || value > upper)
      throw InputError("--fit " + argument +
                       ": the initial value must be within the bounds, in the same unit");
    initial = value;
  }
  return p;
}

SeriesPoints read_series(const CalibrateArguments& a, const std::string& series) {
  SeriesPoints out{
      calibration::read_measured_series(a.data, series, {a.x_column, a.y_column, a.sd_column}, a.exclude),
      {}};
  for (const auto& point : out.measured)
    out.points.push_back({point.x, point.y, point.sd});
  return out;
}

// The override that sets a data point's x.
std::string x_override(const CalibrateArguments& a, double x) {
  return a.x_key + "=" + value_text(x, "");
}

// Every point of the series loads in `scenario_path`: its x is a valid value of --x-key there.
void check_points(const CalibrateArguments& a, const std::string& scenario_path, const SeriesPoints& series) {
  for (const auto& point : series.measured) {
    std::vector<std::string> overrides = a.set_overrides;
    overrides.push_back(x_override(a, point.x));
    try {
      load_for(a, scenario_path, overrides);
    } catch (const ScenarioError& error) {
      rethrow_at_origin(error, overrides.back(),
                        a.data + ":" + std::to_string(point.line) + ": column '" + a.x_column +
                            "' = " + value_text(point.x, "") + " (sets " + a.x_key + ")");
    }
  }
}

// The --fit parameter at `value` loads: a ScenarioError is told at the --fit argument.
void check_fit_value(const CalibrateArguments& a, const std::string& argument,
                     const calibration::FitParameter& p, double value, const char* which) {
  std::vector<std::string> overrides = a.set_overrides;
  overrides.push_back(p.key + "=" + value_text(value, p.unit));
  try {
    load_for(a, a.scenario, overrides);
  } catch (const ScenarioError& error) {
    rethrow_at_origin(error, overrides.back(),
                      "--fit " + argument + " (" + which + " " + value_text(value, p.unit) + ")");
  }
}

std::optional<HoldoutSeries> check_holdout(const CalibrateArguments& a) {
  if (a.holdout.empty()) return std::nullopt;
  const auto colon = a.holdout.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == a.holdout.size())
    throw InputError("--holdout " + a.holdout + ": expected SCENARIO:SERIES");
  HoldoutSeries held{a.holdout.substr(0, colon), a.holdout.substr(colon + 1), {}};
  try {
    load_scenario_file(held.scenario, a.set_overrides);
  } catch (const ScenarioError& error) {
    throw InputError("--holdout " + a.holdout + ": " + error.what());
  }
  held.points = read_series(a, held.series);
  check_points(a, held.scenario, held.points);
  return held;
}

// Where a parameter without @INITIAL starts: the scenario's own value, which is also the uncalibrated value
// a fitted one must be told apart from to be adopted. When the scenario does not write the key as a plain
// number in the bounds' unit (a default, a distribution), the lower bound, and a note says so.
double scenario_start(const CalibrateArguments& a, const std::string& argument,
                      const calibration::FitParameter& p, const YAML::Node& tree) {
  const auto value = number_at(tree, p.key, p.unit);
  if (!value) {
    if (!a.quiet && !a.json)
      std::fprintf(stderr,
                   "sonicsim: note: --fit %s: the scenario writes no plain number %s at %s; the fit starts "
                   "at the lower bound and takes it as the uncalibrated value (give @INITIAL to choose)\n",
                   argument.c_str(), p.unit.empty() ? "without a unit" : ("in " + p.unit).c_str(),
                   p.key.c_str());
    return p.lower;
  }
  if (*value < p.lower || *value > p.upper)
    throw InputError("--fit " + argument + ": the scenario's value " + value_text(*value, p.unit) +
                     " is outside the bounds; expected bounds that contain it, or @INITIAL");
  return *value;
}

// Everything the calibration reads, checked before the first simulation: the scenario and every override,
// each parameter at both bounds and inside them (a key that takes text or only integers cannot be fitted),
// every data point's x in the scenario, the held-out series and the output directory.
} // namespace

CheckedInputs check_inputs(const CalibrateArguments& a) {
  CheckedInputs in;
  validate_key_path(a.x_key, "--x-key " + a.x_key);
  const YAML::Node tree = scenario_tree(a);
  for (const auto& argument : a.fits) {
    std::optional<double> start;
    in.parameters.push_back(parse_fit(argument, start));
    in.initial.push_back(start ? *start : scenario_start(a, argument, in.parameters.back(), tree));
  }
  in.series = read_series(a, a.series);
  if (in.series.points.size() <= in.parameters.size())
    throw InputError(a.data + ": series '" + a.series + "' has " + std::to_string(in.series.points.size()) +
                     " point(s) for " + std::to_string(in.parameters.size()) +
                     " parameter(s); expected more points than parameters (the intervals need n - k >= 1 "
                     "degrees of freedom)");
  const Scenario base = load_for(a, a.scenario, a.set_overrides);
  in.observable = parse_figure_name(a.observable, "--observable");
  const std::string notice = renamed_notice(in.observable);
  if (!notice.empty() && !a.quiet && !a.json)
    std::fprintf(stderr, "sonicsim: note: --observable %s\n", notice.c_str());
  if (!in.observable.module.empty()) {
    bool known = false;
    for (const auto& module : base.workload.pipeline)
      known = known || module.name == in.observable.module;
    if (!known)
      throw InputError("--observable " + a.observable + ": the scenario has no module '" +
                       in.observable.module + "'");
  }
  for (std::size_t i = 0; i < in.parameters.size(); ++i) {
    const auto& p = in.parameters[i];
    std::vector<std::string> overrides = a.set_overrides;
    overrides.push_back(p.key + "=not-a-number");
    bool takes_text = true;
    try {
      load_for(a, a.scenario, overrides);
    } catch (const ScenarioError&) {
      takes_text = false;
    }
    if (takes_text)
      throw InputError("--fit " + a.fits[i] + ": the key takes text, not a number; expected a numeric key");
    check_fit_value(a, a.fits[i], p, p.lower, "lower bound");
    check_fit_value(a, a.fits[i], p, p.upper, "upper bound");
    // Levenberg-Marquardt moves through every value in between: a key that takes only integers fails here.
    check_fit_value(a, a.fits[i], p, p.lower + 0.382 * (p.upper - p.lower), "a value inside the bounds");
  }
  check_points(a, a.scenario, in.series);
  in.holdout = check_holdout(a);
  in.output_dir = a.output_dir.empty() ? "out/calibrate" : a.output_dir;
  ensure_writable_directory(in.output_dir);
  return in;
}

} // namespace sonicsim
