// `sonicsim plan`: the fewest GPUs (and pods) that keep the accelerated module within a tolerance of its
// unsaturated time at N jobs (--jobs), or the most jobs G GPUs serve so (--gpus). The analytic models (MVA of
// the closed network, the network limits) bracket the answer; simulations around the bracket confirm it, a
// batch of parallel runs at a time (sim/planning/confident_search.hpp), and every run is printed as evidence.
#include "sim/app/commands.hpp"
#include "sim/app/run/html_report.hpp"
#include "sim/metrics/json_fields.hpp"

#include "sim/metrics/number_text.hpp"

#include "sim/app/common/output_options.hpp"
#include "sim/app/common/scenario_source.hpp"
#include "sim/app/plan/plan_arguments.hpp"
#include "sim/app/plan/plan_autoscaler.hpp"
#include "sim/app/plan/plan_report.hpp"
#include "sim/app/plan/plan_run_store.hpp"
#include "sim/app/plan/plan_sensitivity.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/execution/interruption.hpp"
#include "sim/execution/progress.hpp"
#include "sim/execution/run_or_submit.hpp"
#include "sim/planning/planner.hpp"

#include "sim/scenario/units.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <thread>

namespace sonicsim {
namespace {

using planning::Plan;

// The --target list, with --tolerance as the relative module target when no relative target is given.
std::vector<planning::PlanTarget> plan_targets(const PlanArguments& arguments) {
  std::vector<planning::PlanTarget> targets;
  bool relative = false;
  for (const auto& text : arguments.targets) {
    targets.push_back(planning::parse_plan_target(text));
    const std::string notice = renamed_notice(targets.back().figure);
    if (!notice.empty()) std::fprintf(stderr, "sonicsim: note: --target %s\n", notice.c_str());
    relative = relative || targets.back().relative;
  }
  // --tolerance is the relative module target; with only absolute targets it is not added.
  if (targets.empty() || (!relative && arguments.tolerance_given))
    targets.insert(targets.begin(), planning::relative_module_target(arguments.tolerance));
  return targets;
}

// --nics as bandwidths, each within a scenario's bounds for nic_bandwidth.
std::vector<double> nic_bandwidths(const std::vector<std::string>& nics) {
  std::vector<double> nics_bps;
  for (const auto& text : nics) {
    double bps = 0.0;
    try {
      bps = parse_bandwidth_bps(text);
    } catch (const UnitError& e) {
      throw InputError("--nics '" + text + "': " + e.what());
    }
    // The bounds of a scenario's nic_bandwidth: at least 1 kbps, at most 1 Pb/s.
    if (!(bps >= 1e3 && bps <= 1e15))
      throw InputError("--nics '" + text + "': expected a bandwidth between 1kbps and 1Pbps, e.g. 100Gbps");
    nics_bps.push_back(bps);
  }
  return nics_bps;
}

// A target on one module needs that module; a cost (--cost, or a cost_usd_per_event target) needs the job
// slot's price and each searched device type's.
void check_targets(const PlanArguments& arguments, const Scenario& scenario,
                   const std::vector<planning::PlanTarget>& targets) {
  std::vector<std::string> missing = missing_prices(scenario);
  if (!arguments.device_types.empty()) {
    missing.clear();
    for (const auto& type : arguments.device_types)
      if (!scenario.costs || !scenario.costs->device_hour_usd.count(type))
        missing.push_back("costs.device_hour." + type);
    if (!scenario.costs || !scenario.costs->cpu_hour_usd) missing.push_back("costs.cpu_hour");
  }
  bool wants_cost = arguments.cost;
  for (const auto& target : targets)
    wants_cost = wants_cost || target.figure.figure == Figure::cost_usd_per_event;
  for (const auto& target : targets) {
    // A target on one module must name one the pipeline runs, or no run would ever decide it.
    const std::string& module = target.figure.module;
    bool known = module.empty();
    for (const auto& m : scenario.workload.pipeline)
      known = known || m.name == module;
    if (!known)
      throw InputError("--target '" + target.text + "': the scenario has no module '" + module + "'");
  }
  if (wants_cost && !missing.empty()) {
    std::string keys;
    for (const auto& key : missing)
      keys += (keys.empty() ? "" : " and ") + key;
    throw InputError(
        "--cost needs prices, but the scenario has no " + keys +
        ": add costs: {device_hour: {T4: USD, ...}, cpu_hour: USD} (US dollars per hour of one device "
        "of each type and of one CPU core of a job; optional pod_hour: one server pod's host) or --set " +
        missing.front() + "=...");
  }
}

int plan_settings(const PlanArguments& arguments) {
  if (arguments.jobs > 0 || arguments.gpus > 0 || !arguments.targets.empty() ||
      !arguments.device_types.empty() || !arguments.nics.empty() || arguments.cost || arguments.resume ||
      arguments.run_precision_given || arguments.sensitivity || arguments.size_every_option)
    throw InputError(
        "plan --autoscaler searches the autoscaler's settings on the scenario's own load: not with "
        "--jobs, --gpus, --target, --device-types, --nics, --cost, --resume, --run-precision, "
        "--sensitivity or --size-every-option");
  AutoscalerPlanArguments a = arguments.autoscaler_plan;
  a.tolerance = arguments.tolerance_given ? arguments.tolerance : 0.05;
  a.replications = arguments.replications;
  a.output_dir = arguments.output_dir;
  a.quiet = arguments.quiet;
  a.json = arguments.json;
  a.html = arguments.html;
  return plan_autoscaler(arguments.source, a,
                         execution_options(arguments.execution, arguments.quiet || arguments.json),
                         arguments.execution.parallel);
}

// The options that do not depend on the scenario, checked before it is read.
void check_plan_options(const PlanArguments& arguments) {
  if ((arguments.jobs > 0) == (arguments.gpus > 0))
    throw InputError(
        "give exactly one of --jobs N (the fewest GPUs for N jobs) and --gpus G (the most jobs G "
        "GPUs serve)");
  // A fraction in (0, 1]: "inf" or 1e308 would accept any layout, NaN none.
  if (!(arguments.tolerance > 0.0 && arguments.tolerance <= 1.0))
    throw InputError("--tolerance must be a fraction in (0, 1] (0.10 allows the module 10 % above its "
                     "unsaturated time); got " +
                     significant(arguments.tolerance));
  if (arguments.size_every_option && arguments.jobs == 0)
    throw InputError("--size-every-option applies to --jobs N (the fewest GPUs per option); --gpus sizes "
                     "every option already");
  if (arguments.max_replications < arguments.replications)
    throw InputError("--max-replications (" + std::to_string(arguments.max_replications) +
                     ") must be at least --replications (" + std::to_string(arguments.replications) + ")");
}

// The search's settings from the options (the outlook, which needs the progress line, is set by the caller).
planning::PlannerSettings planner_settings(const PlanArguments& arguments,
                                           const std::vector<planning::PlanTarget>& targets,
                                           const std::vector<double>& nics_bps, int parallel) {
  planning::PlannerSettings settings;
  for (const auto& variant : arguments.source.variants)
    settings.variant += (settings.variant.empty() ? "" : "+") + variant;
  settings.targets = targets;
  settings.replications = arguments.replications;
  settings.max_replications = arguments.max_replications;
  settings.indifference = arguments.indifference;
  if (arguments.run_precision_given) settings.run_precision = arguments.run_precision;
  settings.device_types = arguments.device_types;
  settings.nics_bps = nics_bps;
  settings.size_every_option = arguments.size_every_option;
  settings.max_gpus_per_pod = arguments.max_gpus_per_pod;
  settings.max_gpus = arguments.max_gpus;
  settings.max_jobs = arguments.max_jobs;
  settings.max_link_load = arguments.max_link_load;
  settings.parallel = parallel;
  return settings;
}

// What the plan searches, chosen before anything runs: the devices of every sized group for N jobs (several
// groups with devices), the fewest GPUs for N jobs, or the most jobs G GPUs serve.
enum class PlanMode { per_group, fewest_gpus, most_jobs };

PlanMode plan_mode(const PlanArguments& arguments, const Scenario& scenario) {
  int sized_groups = 0;
  for (const auto& group : scenario.platform.server_groups)
    sized_groups += group.on_client_nodes || group.devices_per_pod == 0 ? 0 : 1;
  if (sized_groups > 1 && arguments.gpus > 0)
    throw InputError("--gpus sizes the jobs of one server group; this scenario has " +
                     std::to_string(sized_groups) +
                     " groups with devices: plan it with --jobs N (the devices "
                     "of every group for N jobs)");
  if (sized_groups > 1 && (!arguments.device_types.empty() || !arguments.nics.empty()))
    throw InputError("--device-types and --nics search one server group; this scenario has " +
                     std::to_string(sized_groups) + " groups with devices (their counts are searched)");
  if (sized_groups > 1) return PlanMode::per_group;
  return arguments.jobs > 0 ? PlanMode::fewest_gpus : PlanMode::most_jobs;
}

// What an interrupted plan keeps, counted over the whole plan as its progress line counts (a batch's pool
// knows its batch only).
std::string kept_for_resume(const PlanRunStore& store) {
  return std::to_string(store.finished()) + " simulations of the plan had finished, all kept in " +
         store.directory().string() +
         " (the ones running were stopped and are not counted); plan.json is not written (a finished answer "
         "only): the same command with --resume takes them";
}

Plan search_plan(const PlanArguments& arguments, const Scenario& scenario,
                 const std::vector<std::string>& extra, const planning::PlannerSettings& settings,
                 PlanMode mode, const ExecutionContext& context, PlanRunStore& store);

int plan(const PlanArguments& arguments) {
  if (arguments.autoscaler) return plan_settings(arguments);
  check_plan_options(arguments);
  const std::vector<planning::PlanTarget> targets = plan_targets(arguments);
  const std::vector<double> nics_bps = nic_bandwidths(arguments.nics);
  const ExecutionOptions execution =
      execution_options(arguments.execution, arguments.quiet || arguments.json);
  Scenario scenario = arguments.source.load();
  if (scenario.workload.campaign)
    throw InputError("plan works on a fixed number of concurrent jobs; this scenario is a campaign "
                     "(workload.campaign)");
  check_targets(arguments, scenario, targets);
  const PlanMode mode = plan_mode(arguments, scenario);
  const std::filesystem::path output_dir = arguments.output_dir.empty()
                                               ? std::filesystem::path("out") / ("plan_" + scenario.name)
                                               : std::filesystem::path(arguments.output_dir);
  ensure_writable_directory(output_dir);
  planning::PlannerSettings settings = planner_settings(arguments, targets, nics_bps, execution.parallel);
  // One progress line for the whole plan, its estimate from the search's outlook (corrected as runs finish).
  Progress progress("plan", 0, "simulations", execution.quiet);
  settings.outlook = [&progress](std::optional<std::size_t> later, const std::string& open) {
    progress.expect_later(later, open);
  };
  // Each batch of simulations here (child processes), or on Slurm as a job array that this process waits for;
  // with --slurm alone, this process itself becomes a Slurm job that does so.
  const ExecutionContext context{execution, output_dir, "plan", (output_dir / "plan.json").string(),
                                 &progress};
  if (submit_as_driver(context, (output_dir / "plan.json").string())) return exit_ok;
  PlanRunStore store(output_dir / "runs", arguments.resume);
  // Every range end loaded before anything runs: a refused one is told before any simulation.
  std::optional<SensitivityRuns> ends;
  if (arguments.sensitivity) ends = sensitivity_runs(arguments.source, scenario);
  // The same search for the scenario and for each end (`extra`: the end's --set, for a process elsewhere).
  const auto search = [&](const Scenario& searched, const std::vector<std::string>& extra) {
    return search_plan(arguments, searched, extra, settings, mode, context, store);
  };
  Plan result = search(scenario, {});
  std::optional<PlanSensitivity> sensitivity;
  if (ends) sensitivity = plan_sensitivity(*ends, result, search);
  throw_if_interrupted(kept_for_resume(store));
  progress.finish();
  result.default_target = arguments.targets.empty();
  const bool text = !arguments.quiet && !arguments.json;
  if (text) print_plan(result);
  if (sensitivity && text) print_plan_sensitivity(*sensitivity);
  const auto json_path = output_dir / "plan.json";
  if (sensitivity) write_plan_sensitivity(output_dir / "plan_sensitivity.json", *sensitivity);
  write_plan_json(json_path, result);
  if (text) std::printf("\nwrote %s\n", json_path.string().c_str());
  if (arguments.json) std::printf("%s\n", json_text(plan_to_json(result), 1).c_str());
  std::fflush(stdout);
  write_html_report_if_asked(arguments.html, output_dir, !text);
  if (!result.found) {
    // A complete answer, and a negative one: no layout can meet the targets (impossible), or none within
    // the search's bounds (--max-gpus). Neither is a typo nor a failed run, so it has its own exit code.
    std::fprintf(stderr, "sonicsim: no configuration meets the targets: %s (plan.json: %s)\n",
                 result.not_found_reason.c_str(), json_path.string().c_str());
    return exit_no_configuration;
  }
  return exit_ok;
}

// One plan's search of `scenario` (the scenario or a range end, `extra` its --set for a process elsewhere):
// each batch of simulations here (child processes), or on Slurm as a job array that this process waits for,
// kept in `store` for --resume.
Plan search_plan(const PlanArguments& arguments, const Scenario& scenario,
                 const std::vector<std::string>& extra, const planning::PlannerSettings& settings,
                 PlanMode mode, const ExecutionContext& context, PlanRunStore& store) {
  planning::Planner planner(settings, scenario, [&](const std::vector<Scenario>& batch) {
    std::vector<SimulationRequest> requests;
    for (const Scenario& planned : batch) {
      std::vector<std::string> overrides = extra;
      for (auto& o : planning::plan_overrides(scenario, planned))
        overrides.push_back(std::move(o));
      requests.push_back(SimulationRequest{planned, arguments.source.recipe(planned, overrides), {}});
    }
    const int taken_before = store.taken();
    // Ctrl-C: plan.json is a finished answer only; the finished simulations are kept for --resume. Counted
    // over the whole plan, as its progress line counts them (the pool knows its batch only).
    std::vector<SimulationOutcome> outcomes;
    try {
      outcomes = store.run(context, requests);
    } catch (const Interrupted&) {
      throw Interrupted(kept_for_resume(store));
    }
    if (store.taken() > taken_before && !arguments.quiet)
      std::fprintf(stderr, "plan: %d of %zu simulations taken from %s (--resume)\n",
                   store.taken() - taken_before, requests.size(), store.directory().string().c_str());
    return outcomes;
  });
  switch (mode) {
  case PlanMode::per_group:
    return planner.per_group(arguments.jobs);
  case PlanMode::fewest_gpus:
    return planner.fewest_gpus(arguments.jobs);
  case PlanMode::most_jobs:
    break;
  }
  return planner.most_jobs(arguments.gpus);
}

} // namespace

void register_plan_command(CLI::App& app, int& result) {
  auto arguments = std::make_shared<PlanArguments>();
  auto* command = app.add_subcommand(
      "plan",
      "The fewest GPUs (and pods) for N jobs (--jobs), or the most jobs G GPUs serve (--gpus), with the "
      "targets met (default: the module within a tolerance of its unsaturated time): analytic bracket, "
      "confirmed by simulation");
  command->footer("Exit codes: 0 a plan; 1 a simulation failed; 2 bad input; 3 no configuration meets the "
                  "targets (plan.json says why).");
  add_plan_options(*command, *arguments);
  command->callback([arguments, &result]() { result = guarded_batches(*arguments, plan); });
}

} // namespace sonicsim
