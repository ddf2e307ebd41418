#include "sim/app/plan/plan_autoscaler.hpp"
#include "sim/metrics/json_fields.hpp"

#include "sim/app/commands.hpp"
#include "sim/app/run/html_report.hpp"
#include "sim/execution/local_pool.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/metrics/figure_table.hpp"
#include "sim/metrics/number_text.hpp"
#include "sim/planning/autoscaler_plan.hpp"
#include "sim/random/replication_seed.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "sim/scenario/units.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace sonicsim {
namespace {

using planning::AutoscalerSetting;
using planning::PooledFigures;

ServerGroup& autoscaled_group(Scenario& scenario) {
  for (auto& group : scenario.platform.server_groups)
    if (group.autoscaler) return group;
  throw InputError("plan --autoscaler: the scenario has no server group with an autoscaler "
                   "(platform.server_groups.NAME.autoscaler)");
}

double threshold_of(const std::string& text, LoadMetric metric) {
  try {
    if (load_metric_in_seconds(metric)) return parse_duration_s(text);
    std::size_t used = 0;
    const double value = std::stod(text, &used);
    if (used == text.size()) return value;
  } catch (const std::exception&) {
  }
  throw InputError(
      "--thresholds '" + text + "': expected " +
      (load_metric_in_seconds(metric) ? std::string("a queue time such as 100ms") : std::string("a number")));
}

std::string threshold_text(double threshold, LoadMetric metric) {
  return load_metric_in_seconds(metric) ? significant(threshold * 1e3) + " ms" : significant(threshold);
}

// Every combination of the lists (a missing list: the scenario's value), in the order given.
std::vector<AutoscalerSetting> settings_grid(const AutoscalerSettings& base,
                                             const AutoscalerPlanArguments& a) {
  std::vector<double> thresholds, delays;
  for (const auto& text : a.thresholds)
    thresholds.push_back(threshold_of(text, base.metric));
  for (const auto& text : a.startup_delays) {
    double delay_s = 0;
    try {
      delay_s = parse_duration_s(text);
    } catch (const std::exception& e) {
      throw InputError("--startup-delays '" + text + "': " + e.what());
    }
    // The scenario key's own bound (autoscaler.startup_delay: 0..24h): a pod that starts later than a day is
    // no deployment's, and a day of simulated traffic would never see it.
    if (!(delay_s >= 0 && delay_s <= 86400))
      throw InputError("--startup-delays '" + text + "': expected a duration from 0s to 24h");
    delays.push_back(delay_s);
  }
  if (thresholds.empty()) thresholds = {base.threshold};
  if (delays.empty()) delays = {base.startup_delay_s};
  const std::vector<int> mins = a.min_pods.empty() ? std::vector<int>{base.min_pods} : a.min_pods;
  const std::vector<int> maxes = a.max_pods.empty() ? std::vector<int>{base.max_pods} : a.max_pods;
  std::vector<AutoscalerSetting> grid;
  for (const double t : thresholds)
    for (const int lo : mins)
      for (const int hi : maxes)
        for (const double d : delays) {
          if (!(t > 0) || !(d >= 0)) throw InputError("--thresholds and --startup-delays must be positive");
          if (lo > hi)
            throw InputError("--min-pods " + std::to_string(lo) + " above --max-pods " + std::to_string(hi));
          grid.push_back({t, lo, hi, d});
        }
  if (grid.size() > 64)
    throw InputError("plan --autoscaler: " + std::to_string(grid.size()) +
                     " settings; at most 64 (each runs every replication): give shorter lists");
  return grid;
}

Scenario with_setting(Scenario scenario, const AutoscalerSetting& s) {
  ServerGroup& group = autoscaled_group(scenario);
  group.autoscaler->threshold = s.threshold;
  group.autoscaler->min_pods = s.min_pods;
  group.autoscaler->max_pods = s.max_pods;
  group.autoscaler->startup_delay_s = s.startup_delay_s;
  group.pods = s.max_pods; // the pool holds max pods
  return scenario;
}

PooledFigures figures_of(const RunSummary& summary, const Scenario& scenario) {
  const FigureContext context = served_figure_context(scenario);
  PooledFigures f;
  f.event_mean_s = value_of(Figure::event_mean_s, summary, context);
  f.device_hours = value_of(Figure::device_hours, summary, context);
  f.cost_usd_per_event = value_of(Figure::cost_usd_per_event, summary, context);
  return f;
}

nlohmann::ordered_json interval_json(const ConfidenceInterval& ci) {
  return {{"mean", ci.mean}, {"ci95_low", ci.low()}, {"ci95_high", ci.high()}, {"replications", ci.n}};
}

void print_plan(const planning::AutoscalerPlan& plan, LoadMetric metric, const std::string& reference,
                double wall_s, int simulations) {
  std::printf("plan --autoscaler: the fewest device-hours with the event time within %s of %s\n",
              percent_text(plan.tolerance).c_str(), reference.c_str());
  std::printf("reference: event %s s (%s-%s), %s device-h\n",
              significant(plan.reference_event_mean_s.mean).c_str(),
              significant(plan.reference_event_mean_s.low()).c_str(),
              significant(plan.reference_event_mean_s.high()).c_str(),
              significant(plan.reference_device_hours.mean).c_str());
  std::printf("\n%-12s %5s %5s %9s %12s %22s %22s %10s\n", "threshold", "min", "max", "start-up", "event s",
              "event / reference", "device-h", "verdict");
  for (std::size_t i = 0; i < plan.options.size(); ++i) {
    const auto& o = plan.options[i];
    const std::string ratio = significant(o.event_ratio.mean) + " (" + significant(o.event_ratio.low()) +
                              "-" + significant(o.event_ratio.high()) + ")";
    const std::string hours = significant(o.device_hours.mean) + " (" + significant(o.device_hours.low()) +
                              "-" + significant(o.device_hours.high()) + ")";
    std::printf("%-12s %5d %5d %8ss %12s %22s %22s %10s%s\n",
                threshold_text(o.setting.threshold, metric).c_str(), o.setting.min_pods, o.setting.max_pods,
                significant(o.setting.startup_delay_s).c_str(), significant(o.event_mean_s.mean).c_str(),
                ratio.c_str(), hours.c_str(), verdict_name(o.verdict),
                plan.answer && *plan.answer == i ? "  <- answer" : "");
  }
  std::printf(
      "  (means over %d replications with common random numbers; 95 %% intervals in brackets; a setting "
      "meets when the upper bound of its event-time ratio is at most %s)\n",
      plan.options.empty() ? 0 : plan.options.front().event_ratio.n,
      significant(1.0 + plan.tolerance).c_str());
  if (plan.answer) {
    const auto& o = plan.options[*plan.answer];
    std::printf("\nanswer: threshold %s, min %d, max %d, start-up %s s: %s device-h against %s static (%s)\n",
                threshold_text(o.setting.threshold, metric).c_str(), o.setting.min_pods, o.setting.max_pods,
                significant(o.setting.startup_delay_s).c_str(), significant(o.device_hours.mean).c_str(),
                significant(plan.reference_device_hours.mean).c_str(),
                percent_text(o.device_hours.mean / plan.reference_device_hours.mean - 1.0).c_str());
  }
  if (!plan.reason.empty())
    std::printf("%s%s\n", plan.answer ? "note: " : "\nno answer: ", plan.reason.c_str());
  std::printf("limited by: the settings tried (the grid above) and the replications; rests on the scenario's "
              "load, its start-up delay and its server curve\n%d simulations, %s s wall\n",
              simulations, significant(wall_s).c_str());
}

} // namespace

// The static reference: a named variant, or the pool fixed at the largest maximum tried, with its name. The
// variant is applied after the user's --set, not before: a --set meant for the autoscaled candidates (its
// start-up delay, its metric) must not be read into the static pool the variant writes, while a --set of the
// load (workload.jobs) still reaches the reference, which then serves the same day.
std::pair<Scenario, std::string> static_reference(const ScenarioSource& source, const Scenario& scenario,
                                                  const AutoscalerPlanArguments& arguments,
                                                  const std::vector<AutoscalerSetting>& grid) {
  if (arguments.reference_variant.empty()) {
    int largest = 0;
    for (const auto& s : grid)
      largest = std::max(largest, s.max_pods);
    Scenario reference = scenario;
    ServerGroup& fixed = autoscaled_group(reference);
    fixed.autoscaler.reset();
    fixed.pods = largest;
    return {reference, "a static " + std::to_string(largest) + " pods"};
  }
  const auto named = std::find_if(scenario.variants.begin(), scenario.variants.end(),
                                  [&](const Variant& v) { return v.name == arguments.reference_variant; });
  if (named == scenario.variants.end()) {
    source.load_variants({arguments.reference_variant}); // throws, naming the variants there are
    throw InputError("--reference " + arguments.reference_variant + ": no such variant");
  }
  try {
    return {source.load_variants(source.variants, named->overrides),
            "variant " + arguments.reference_variant};
  } catch (const ScenarioError& e) {
    throw ScenarioError("--reference " + arguments.reference_variant +
                            " (its overrides applied after --set) at " + e.file,
                        e.line, e.column, e.key_path, e.message);
  }
}

// Each setting tried: its figures over the replications and the verdict.
static nlohmann::ordered_json options_json(const planning::AutoscalerPlan& plan) {
  nlohmann::ordered_json options = nlohmann::ordered_json::array();
  for (const auto& o : plan.options)
    options.push_back({{"threshold", o.setting.threshold},
                       {"min", o.setting.min_pods},
                       {"max", o.setting.max_pods},
                       {"startup_delay_s", o.setting.startup_delay_s},
                       {"event_mean_s", interval_json(o.event_mean_s)},
                       {"event_ratio", interval_json(o.event_ratio)},
                       {"device_hours", interval_json(o.device_hours)},
                       {"cost_usd_per_event", o.cost_usd_per_event.n ? interval_json(o.cost_usd_per_event)
                                                                     : nlohmann::ordered_json(nullptr)},
                       {"verdict", verdict_name(o.verdict)}});
  return options;
}

int plan_autoscaler(const ScenarioSource& source, const AutoscalerPlanArguments& arguments,
                    const ExecutionOptions& execution, int parallel) {
  if (!(arguments.tolerance > 0.0 && arguments.tolerance <= 1.0))
    throw InputError("--tolerance must be a fraction in (0, 1]; got " + significant(arguments.tolerance));
  if (arguments.replications < 2)
    throw InputError("plan --autoscaler: --replications of at least 2 (a verdict needs an interval)");
  if (execution.on_cluster()) throw InputError("plan --autoscaler: runs here only; not with --slurm");
  const auto started = std::chrono::steady_clock::now();
  Scenario scenario = source.load();
  ServerGroup& group = autoscaled_group(scenario);
  if (!group.supersonic_values_file.empty() && arguments.reference_variant.empty())
    throw InputError("plan --autoscaler: the group reads its settings from " + group.supersonic_values_file +
                     "; name the static reference with --reference VARIANT");
  const std::vector<AutoscalerSetting> grid = settings_grid(*group.autoscaler, arguments);
  const LoadMetric metric = group.autoscaler->metric;
  const auto [reference, reference_name] = static_reference(source, scenario, arguments, grid);
  std::vector<SimulationRequest> requests;
  for (int r = 0; r < arguments.replications; ++r) {
    SimulationRequest request{reference, {}, {}};
    request.scenario.seed = replication_seed(scenario.seed, r);
    requests.push_back(request);
  }
  for (const auto& setting : grid)
    for (int r = 0; r < arguments.replications; ++r) {
      SimulationRequest request{with_setting(scenario, setting), {}, {}};
      request.scenario.seed = replication_seed(scenario.seed, r);
      requests.push_back(std::move(request));
    }
  const auto outcomes = run_here(requests, parallel, "plan --autoscaler", arguments.quiet || arguments.json);
  for (std::size_t i = 0; i < outcomes.size(); ++i)
    if (!outcomes[i].ok) throw std::runtime_error("a simulation of the plan failed: " + outcomes[i].error);
  const auto reps = static_cast<std::size_t>(arguments.replications);
  std::vector<PooledFigures> reference_figures;
  for (std::size_t r = 0; r < reps; ++r)
    reference_figures.push_back(figures_of(outcomes[r].summary, requests[r].scenario));
  std::vector<std::vector<PooledFigures>> runs(grid.size());
  for (std::size_t s = 0; s < grid.size(); ++s)
    for (std::size_t r = 0; r < reps; ++r) {
      const std::size_t i = reps + s * reps + r;
      runs[s].push_back(figures_of(outcomes[i].summary, requests[i].scenario));
    }
  const auto plan = planning::decide_autoscaler_plan(arguments.tolerance, reference_figures, grid, runs);
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const nlohmann::ordered_json out{
      {"scenario", scenario.name},
      {"group", group.name},
      {"metric", load_metric_name(metric)},
      {"tolerance", plan.tolerance},
      {"reference", reference_name},
      {"reference_event_mean_s", interval_json(plan.reference_event_mean_s)},
      {"reference_device_hours", interval_json(plan.reference_device_hours)},
      {"options", options_json(plan)},
      {"answer", plan.answer ? nlohmann::ordered_json(*plan.answer) : nlohmann::ordered_json(nullptr)},
      {"reason", plan.reason},
      {"simulations", requests.size()}};
  const std::filesystem::path dir = arguments.output_dir.empty()
                                        ? std::filesystem::path("out") / ("plan_autoscaler_" + scenario.name)
                                        : std::filesystem::path(arguments.output_dir);
  std::filesystem::create_directories(dir);
  write_file_atomically(dir / "plan_autoscaler.json", json_text(out, 2) + "\n");
  if (arguments.json)
    std::cout << json_text(out, 2) << "\n";
  else if (!arguments.quiet) {
    print_plan(plan, metric, reference_name, wall_s, static_cast<int>(requests.size()));
    std::printf("wrote %s\n", (dir / "plan_autoscaler.json").string().c_str());
  }
  write_html_report_if_asked(arguments.html, dir, arguments.quiet || arguments.json);
  return plan.answer ? exit_ok : exit_no_configuration;
}

// An option's value that must say something: an empty one (--reference '', a list ",") would otherwise be
// taken as the option left out.
static CLI::Validator not_empty(const std::string& expected) {
  return CLI::Validator(
      [expected](const std::string& text) {
        return text.empty() ? "an empty value; expected " + expected : std::string();
      },
      "VALUE");
}

// A comma-separated list read whole and split here: CLI11's delimiter drops empty items, so "--thresholds ,"
// left the option waiting for values and took the next option's for them.
static std::function<void(const std::string&)>
list_into(std::vector<std::string>& items, const std::string& option, const std::string& expected) {
  return [&items, option, expected](const std::string& text) {
    items.clear();
    std::size_t start = 0;
    for (;;) {
      const auto comma = text.find(',', start);
      const std::string item = text.substr(start, comma - start);
      if (item.empty())
        throw CLI::ValidationError(option + " '" + text + "': an empty item; expected a list of " + expected);
      items.push_back(item);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  };
}

void add_autoscaler_plan_options(CLI::App& command, bool& enabled, AutoscalerPlanArguments& plan) {
  command.add_flag("--autoscaler", enabled,
                   "On a scenario with an autoscaled group: the autoscaler settings (threshold, min, max, "
                   "start-up delay) with the fewest device-hours that keep the event time within --tolerance "
                   "(default 0.05 here) of a static pool, every setting and the reference on the same seeds; "
                   "the trade-off table and plan_autoscaler.json");
  command.add_option_function<std::string>(
      "--thresholds",
      list_into(plan.thresholds, "--thresholds", "thresholds in the metric's unit, e.g. 50ms,100ms"),
      "With --autoscaler: thresholds to try, in the metric's unit (e.g. 50ms,100ms,200ms)");
  command.add_option("--min-pods", plan.min_pods, "With --autoscaler: minimums to try")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(CLI::Range(1, 10000));
  command.add_option("--max-pods", plan.max_pods, "With --autoscaler: maximums to try")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(CLI::Range(1, 10000));
  command.add_option_function<std::string>(
      "--startup-delays", list_into(plan.startup_delays, "--startup-delays", "durations, e.g. 120s,240s"),
      "With --autoscaler: start-up delays to try, a what-if (e.g. 120s,240s)");
  command
      .add_option("--reference", plan.reference_variant,
                  "With --autoscaler: the static deployment to compare with, a variant (default: the pool "
                  "fixed at the largest maximum tried)")
      ->check(not_empty("the name of one of the scenario's variants"));
}

} // namespace sonicsim
