// `sonicsim calibrate`: fit scenario parameters to a measured series by simulation (sim/calibration), report
// each value with its 95 % interval, the residuals, MAPE and Pearson r before and after, a held-out series
// predicted with and without the fit, and write the calibrated scenario.
#include "sim/app/commands.hpp"
#include "sim/app/html_report.hpp"
#include "sim/app/scenario_source.hpp"
#include "sim/app/simulation_batch.hpp"
#include "sim/calibration/calibration.hpp"
#include "sim/calibration/measured_series.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/scenario/overrides.hpp"
#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "sim/scenario/units.hpp"

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

namespace sonicsim {
namespace {

struct CalibrateArguments {
  bool html = false; // --html: report.html beside the results
  std::string scenario;
  std::vector<std::string> set_overrides;
  std::string data, series, x_column, y_column, sd_column;
  std::string x_key = "workload.jobs";
  std::string observable;
  std::vector<std::string> fits; // KEY=LO:HI[@INITIAL]
  std::string holdout;           // SCENARIO:SERIES
  std::vector<double> exclude;   // x values left out of the fit (a point known not to be described)
  int parallel = 2;
  int max_evaluations = 30;
  std::string output_dir;
};

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

calibration::FitParameter parse_fit(const std::string& argument, double& initial) {
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
  initial = lower;
  if (at != std::string::npos) {
    const auto [value, unit] = number_and_unit(argument.substr(at + 1), argument);
    if (unit != p.unit || value < lower || value > upper)
      throw InputError("--fit " + argument +
                       ": the initial value must be within the bounds, in the same unit");
    initial = value;
  }
  return p;
}

std::string value_text(double value, const std::string& unit) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.9g", value);
  return buffer + unit;
}

// A series as read (with each point's line, for errors) and as the fit takes it.
struct SeriesPoints {
  std::vector<calibration::MeasuredPoint> measured;
  std::vector<calibration::DataPoint> points;
};

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
      load_scenario_file(scenario_path, overrides);
    } catch (const ScenarioError& error) {
      rethrow_at_origin(error, overrides.back(),
                        a.data + ":" + std::to_string(point.line) + ": column '" + a.x_column +
                            "' = " + value_text(point.x, "") + " (sets " + a.x_key + ")");
    }
  }
}

double observable(const RunSummary& summary, const std::string& what) {
  if (what == "event") return summary.event.mean_s;
  if (what == "events_per_s") return summary.events_per_s;
  if (what == "inferences_per_s") return summary.inferences_per_s;
  if (what.rfind("module:", 0) == 0)
    for (const auto& [name, stats] : summary.modules)
      if (name == what.substr(7)) return stats.mean_s;
  throw InputError("--observable " + what +
                   ": expected event, events_per_s, inferences_per_s or "
                   "module:NAME with NAME a module of the pipeline");
}

// The simulated observable at each point, for the scenario with these parameter values.
std::vector<double> simulate_points(const CalibrateArguments& a, const std::string& scenario_path,
                                    const std::vector<calibration::DataPoint>& points,
                                    const std::vector<calibration::FitParameter>& parameters,
                                    const std::vector<double>& values) {
  std::vector<Scenario> scenarios;
  for (const auto& point : points) {
    std::vector<std::string> overrides = a.set_overrides;
    overrides.push_back(a.x_key + "=" + value_text(point.x, ""));
    for (std::size_t i = 0; i < parameters.size(); ++i)
      overrides.push_back(parameters[i].key + "=" + value_text(values[i], parameters[i].unit));
    scenarios.push_back(load_scenario_file(scenario_path, overrides));
  }
  const auto outcomes = simulate_batch(scenarios, a.parallel, "calibrate");
  std::vector<double> predicted;
  for (const auto& outcome : outcomes) {
    if (!outcome.ok) throw std::runtime_error("a calibration run failed: " + outcome.error);
    predicted.push_back(observable(outcome.summary, a.observable));
  }
  return predicted;
}

void print_quality(const char* label, const calibration::FitQuality& q) {
  char pearson[32] = "   n/a"; // undefined when the prediction does not vary over the points
  if (std::isfinite(q.pearson_r)) std::snprintf(pearson, sizeof pearson, "%6.3f", q.pearson_r);
  std::printf("  %-30s MAPE %6.2f %%   Pearson r %s   chi-square %9.2f\n", label, 100.0 * q.mape, pearson,
              q.chi_square);
}

// The --fit parameter at `value` loads: a ScenarioError is told at the --fit argument.
void check_fit_value(const CalibrateArguments& a, const std::string& argument,
                     const calibration::FitParameter& p, double value, const char* which) {
  std::vector<std::string> overrides = a.set_overrides;
  overrides.push_back(p.key + "=" + value_text(value, p.unit));
  try {
    load_scenario_file(a.scenario, overrides);
  } catch (const ScenarioError& error) {
    rethrow_at_origin(error, overrides.back(),
                      "--fit " + argument + " (" + which + " " + value_text(value, p.unit) + ")");
  }
}

struct HoldoutSeries {
  std::string scenario;
  std::string series;
  SeriesPoints points;
};

struct CheckedInputs {
  std::vector<calibration::FitParameter> parameters;
  std::vector<double> initial;
  SeriesPoints series;
  std::optional<HoldoutSeries> holdout;
  std::filesystem::path output_dir;
};

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

// Everything the calibration reads, checked before the first simulation: the scenario and every override,
// each parameter at both bounds and inside them (a key that takes text or only integers cannot be fitted),
// every data point's x in the scenario, the held-out series and the output directory.
CheckedInputs check_inputs(const CalibrateArguments& a) {
  CheckedInputs in;
  validate_key_path(a.x_key, "--x-key " + a.x_key);
  for (const auto& argument : a.fits) {
    double start = 0.0;
    in.parameters.push_back(parse_fit(argument, start));
    in.initial.push_back(start);
  }
  in.series = read_series(a, a.series);
  if (in.series.points.size() <= in.parameters.size())
    throw InputError(a.data + ": series '" + a.series + "' has " + std::to_string(in.series.points.size()) +
                     " point(s) for " + std::to_string(in.parameters.size()) +
                     " parameter(s); expected more points than parameters (the intervals need n - k >= 1 "
                     "degrees of freedom)");
  load_scenario_file(a.scenario, a.set_overrides);
  for (std::size_t i = 0; i < in.parameters.size(); ++i) {
    const auto& p = in.parameters[i];
    std::vector<std::string> overrides = a.set_overrides;
    overrides.push_back(p.key + "=not-a-number");
    bool takes_text = true;
    try {
      load_scenario_file(a.scenario, overrides);
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

int calibrate(const CalibrateArguments& a) {
  const CheckedInputs in = check_inputs(a);
  const auto& parameters = in.parameters;
  const auto& initial = in.initial;
  const auto& points = in.series.points;
  const calibration::Predictor predict = [&](const std::vector<double>& values) {
    return simulate_points(a, a.scenario, points, parameters, values);
  };
  std::printf("calibrate: %zu parameter(s) on %zu points of series '%s' (%s), common random numbers (seed of "
              "the scenario)\n",
              parameters.size(), points.size(), a.series.c_str(), a.data.c_str());
  const auto result = calibration::calibrate(parameters, initial, points, predict, a.max_evaluations);

  std::printf("\n%s after %d evaluations\n\n", result.status_text.c_str(), result.evaluations);
  // A value is adopted only when the data call for it: identifiable, and its 95 % interval excludes the start
  // (otherwise the fit cannot tell it from the uncalibrated value, and the scenario keeps that).
  std::vector<double> adopted = initial;
  std::vector<bool> significant(parameters.size(), false);
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const auto& p = parameters[i];
    std::printf("  %s = %s", p.key.c_str(), value_text(result.values[i], p.unit).c_str());
    if (!result.identifiable[i]) {
      std::printf("   NOT IDENTIFIABLE: the residuals do not move with it (flat direction); kept at %s\n",
                  value_text(initial[i], p.unit).c_str());
      continue;
    }
    significant[i] = std::fabs(result.values[i] - initial[i]) > result.ci95_half_width[i];
    if (result.at_bound[i])
      std::printf("   at its bound: the data want it beyond [%s, %s]", value_text(p.lower, p.unit).c_str(),
                  value_text(p.upper, p.unit).c_str());
    else
      std::printf("   +- %s (95 %%)", value_text(result.ci95_half_width[i], p.unit).c_str());
    if (significant[i] || result.at_bound[i]) {
      adopted[i] = result.values[i];
      std::printf("\n");
    } else {
      std::printf("; the interval includes the uncalibrated %s: not adopted\n",
                  value_text(initial[i], p.unit).c_str());
    }
  }
  std::printf("\n%10s %12s %10s %12s %12s %9s\n", "x", "measured", "sd", "before", "after", "residual");
  for (std::size_t j = 0; j < points.size(); ++j)
    std::printf("%10.6g %12.6g %10.4g %12.6g %12.6g %8.2f sd\n", points[j].x, points[j].y, points[j].sd,
                result.predicted_before[j], result.predicted_after[j],
                (result.predicted_after[j] - points[j].y) / points[j].sd);
  std::printf("\nfit series '%s':\n", a.series.c_str());
  print_quality("before", result.before);
  print_quality("after", result.after);

  nlohmann::ordered_json out;
  out["scenario"] = a.scenario;
  out["series"] = a.series;
  out["observable"] = a.observable;
  out["excluded_x"] = a.exclude;
  out["status"] = result.status_text;
  out["evaluations"] = result.evaluations;
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    nlohmann::ordered_json parameter{
        {"key", parameters[i].key}, {"unit", parameters[i].unit}, {"value", result.values[i]}};
    // No interval is written where the fit has none (not identifiable): "identifiable" says why.
    if (result.identifiable[i] && std::isfinite(result.ci95_half_width[i]))
      parameter["ci95_half_width"] = result.ci95_half_width[i];
    parameter["identifiable"] = static_cast<bool>(result.identifiable[i]);
    parameter["at_bound"] = static_cast<bool>(result.at_bound[i]);
    parameter["significant"] = static_cast<bool>(significant[i]);
    parameter["adopted"] = adopted[i];
    out["parameters"].push_back(parameter);
  }
  // A figure the data leave undefined (Pearson r of a constant prediction) is left out, not written as null.
  const auto quality_json = [](const calibration::FitQuality& q) {
    nlohmann::ordered_json json = nlohmann::ordered_json::object();
    for (const auto& [name, value] : {std::pair{"mape", q.mape}, std::pair{"pearson_r", q.pearson_r},
                                      std::pair{"chi_square", q.chi_square}})
      if (std::isfinite(value)) json[name] = value;
    return json;
  };
  out["fit"] = {{"before", quality_json(result.before)}, {"after", quality_json(result.after)}};
  for (std::size_t j = 0; j < points.size(); ++j)
    out["fit"]["points"].push_back({{"x", points[j].x},
                                    {"measured", points[j].y},
                                    {"sd", points[j].sd},
                                    {"before", result.predicted_before[j]},
                                    {"after", result.predicted_after[j]}});

  if (in.holdout) {
    const std::string& scenario = in.holdout->scenario;
    const std::string& series = in.holdout->series;
    const auto& held = in.holdout->points.points;
    const auto before = simulate_points(a, scenario, held, parameters, initial);
    const auto after = simulate_points(a, scenario, held, parameters, adopted);
    const auto q_before = calibration::fit_quality(held, before),
               q_after = calibration::fit_quality(held, after);
    std::printf("\nheld-out series '%s' (%s), predicted, not fitted:\n", series.c_str(), scenario.c_str());
    print_quality("uncalibrated", q_before);
    print_quality("calibrated", q_after);
    std::printf("  %s\n", q_after.mape <= q_before.mape
                              ? "the calibration does not make the held-out series worse"
                              : "WARNING: the fit makes the held-out series worse: it absorbs something the "
                                "parameter does not describe");
    out["holdout"] = {{"scenario", scenario},
                      {"series", series},
                      {"uncalibrated", quality_json(q_before)},
                      {"calibrated", quality_json(q_after)}};
  }

  // The calibrated scenario: the file with the fitted values set (comments are not kept).
  const std::string dir = in.output_dir.string();
  YAML::Node tree = YAML::LoadFile(a.scenario);
  SourceInfo source{a.scenario, {}};
  for (const auto& argument : a.set_overrides)
    apply_set_override(tree, argument, source);
  for (std::size_t i = 0; i < parameters.size(); ++i)
    apply_set_override(tree, parameters[i].key + "=" + value_text(result.values[i], parameters[i].unit),
                       source);
  YAML::Emitter yaml;
  yaml << tree;
  {
    std::ofstream file(dir + "/calibrated.yaml");
    file << "# " << a.scenario << " calibrated by `sonicsim calibrate` on series '" << a.series << "' of "
         << a.data << "\n"
         << yaml.c_str() << "\n";
    if (!file) throw InputError("cannot write " + dir + "/calibrated.yaml");
  }
  {
    std::ofstream file(dir + "/calibration.json");
    file << out.dump(2) << "\n";
    if (!file) throw InputError("cannot write " + dir + "/calibration.json");
  }
  std::printf("\nwrote %s/calibration.json and %s/calibrated.yaml\n", dir.c_str(), dir.c_str());
  std::fflush(stdout);
  write_html_report_if_asked(a.html, in.output_dir);
  return exit_ok;
}

} // namespace

void register_calibrate_command(CLI::App& app, int& result) {
  auto a = std::make_shared<CalibrateArguments>();
  auto* command = app.add_subcommand(
      "calibrate", "Fit scenario parameters to a measured series by simulation (Levenberg-Marquardt, common "
                   "random numbers); report intervals, residuals, MAPE, Pearson r and a held-out check");
  command->add_option("scenario", a->scenario, "Scenario YAML file")->required()->check(CLI::ExistingFile);
  command->add_option("--set", a->set_overrides, "Override a scenario field for every run (repeatable)");
  command->add_option("--data", a->data, "Measured series: CSV with a 'series' column")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--series", a->series, "The series to fit")->required();
  command->add_option("--x", a->x_column, "Column of the varied quantity (e.g. clients)")->required();
  command->add_option("--y", a->y_column, "Column of the measured observable")->required();
  command->add_option("--sd", a->sd_column, "Column of its standard deviation")->required();
  command->add_option("--x-key", a->x_key, "Scenario key the x column sets (default workload.jobs)");
  command
      ->add_option("--observable", a->observable,
                   "What is compared: event, events_per_s, inferences_per_s or module:NAME")
      ->required();
  command->add_option("--fit", a->fits, "KEY=LOWER:UPPER[@INITIAL], bounds with their unit (repeatable)")
      ->required();
  command->add_option("--holdout", a->holdout, "SCENARIO:SERIES predicted with and without the fit");
  command
      ->add_option("--exclude", a->exclude,
                   "Leave the point at this x out of the fit and the held-out check (repeatable): a point "
                   "known not to be described, e.g. a validation case's known discrepancy")
      ->check(CLI::Validator(
          [](const std::string& text) {
            char* end = nullptr;
            const double value = std::strtod(text.c_str(), &end);
            return !text.empty() && *end == '\0' && std::isfinite(value)
                       ? std::string()
                       : "expected a finite x value of the series, got '" + text + "'";
          },
          "X"));
  command->add_option("--max-evaluations", a->max_evaluations, "Budget of objective evaluations (default 30)")
      ->check(CLI::Range(2, 1000));
  command->add_option("-j,--parallel", a->parallel, "Simulations at once (default 2)")
      ->check(CLI::Range(1, 1024));
  command->add_option("--out", a->output_dir, "Output directory (default out/calibrate)")
      ->check(directory_path);
  add_html_option(*command, a->html);
  command->callback([a, &result]() { result = guarded(*a, calibrate); });
}

} // namespace sonicsim
