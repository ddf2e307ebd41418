// `sonicsim plan`: the fewest GPUs (and pods) that keep the accelerated module within a tolerance of its
// unsaturated time at N jobs (--jobs), or the most jobs G GPUs serve so (--gpus). The analytic models (MVA of
// the closed network, the network limits) bracket the answer; simulations around the bracket confirm it, a
// batch of parallel runs at a time (sim/planning/boundary_search.hpp), and every run is printed as evidence.
#include "sim/app/commands.hpp"

#include "sim/analysis/analytic_curve.hpp"
#include "sim/app/plan_report.hpp"
#include "sim/app/simulation_batch.hpp"
#include "sim/app/variant_source.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/planning/boundary_search.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <thread>

namespace sonicsim {
namespace {

using planning::Plan;
using planning::PlanRun;
using planning::PodLayout;

// Below this many jobs a reference run has too few events to be a stable yardstick.
constexpr int min_reference_jobs = 20;
// A reference at a tenth of the knee sees essentially no queueing (MVA: < 0.5 % above one job).
constexpr double reference_load_fraction = 0.1;

struct PlanArguments {
  ScenarioSource source;
  std::string variant;
  int jobs = 0;
  int gpus = 0;
  double tolerance = 0.10;
  int max_gpus_per_pod = 8;
  int max_gpus = 256;
  bool cost = false;
  int parallel = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::string output_dir;
};

class Planner {
public:
  Planner(const PlanArguments& arguments, Scenario scenario)
      : arguments_(arguments), scenario_(std::move(scenario)),
        modules_(analysis::derive_parameters(scenario_).accelerated_modules),
        inferences_per_event_(analysis::derive_parameters(scenario_).inferences) {
    plan_.scenario = scenario_.name;
    plan_.variant = arguments.variant;
    plan_.tolerance = arguments.tolerance;
    plan_.max_gpus_per_pod = arguments.max_gpus_per_pod;
  }

  Plan fewest_gpus(int jobs) {
    plan_.mode = Plan::Mode::fewest_gpus;
    plan_.requested = jobs;
    plan_.jobs = jobs;
    const auto one_gpu = planning::analyse_layout(scenario_, PodLayout{1, 1});
    check_fixed_network(one_gpu, jobs);
    const int min_pods = planning::pods_for_network(one_gpu, jobs, saturation_threshold);
    plan_.layout_rule = planning::layout_rule(arguments_.max_gpus_per_pod, min_pods);
    const auto layouts =
        planning::candidate_layouts(min_pods, arguments_.max_gpus_per_pod, arguments_.max_gpus);
    if (layouts.empty())
      throw InputError("no layout of at most " + std::to_string(arguments_.max_gpus) + " GPUs has the " +
                       std::to_string(min_pods) + " pods the pod NICs need for " + std::to_string(jobs) +
                       " jobs; raise --max-gpus");
    // Analytic bracket: the first layout whose MVA module time at `jobs` is within tolerance.
    plan_.analytic_module_low_load_s = one_gpu.module_low_load_s;
    std::size_t start = layouts.size() - 1;
    for (std::size_t i = 0; i < layouts.size(); ++i) {
      if (planning::analyse_layout(scenario_, layouts[i]).first().jobs_at_saturation < jobs * 0.8) continue;
      if (planning::mva_module_s(scenario_, layouts[i], jobs) <=
          (1.0 + arguments_.tolerance) * plan_.analytic_module_low_load_s) {
        start = i;
        break;
      }
    }
    plan_.analytic_layout = layouts[start];
    const PodLayout roomy = layouts[std::min(start + 1, layouts.size() - 1)];
    const int reference_jobs =
        reference_job_count(jobs, planning::analyse_layout(scenario_, roomy).first().jobs_at_saturation);

    auto evaluate = [&](const std::vector<int>& indices) {
      std::vector<std::pair<PodLayout, int>> points;
      for (const int i : indices)
        points.emplace_back(layouts[static_cast<std::size_t>(i)], jobs);
      const auto runs = run_points(points, roomy, reference_jobs);
      std::vector<bool> within;
      for (const auto& run : runs)
        within.push_back(run.within_tolerance);
      return within;
    };
    const auto search = planning::find_first_true(0, static_cast<int>(layouts.size()) - 1,
                                                  static_cast<int>(start), arguments_.parallel, evaluate);
    plan_.batches = search.batches;
    if (!search.first_true) {
      plan_.not_found_reason = "no layout of up to " + std::to_string(layouts.back().gpus()) +
                               " GPUs keeps the module within tolerance at " + std::to_string(jobs) +
                               " jobs (the last run's bottleneck: " + plan_.runs.back().bottleneck +
                               "); raise --max-gpus or the tolerance";
      return plan_;
    }
    plan_.found = true;
    plan_.layout = layouts[static_cast<std::size_t>(*search.first_true)];
    plan_.answer_run = find_run(plan_.layout, jobs);
    if (*search.first_true > 0)
      plan_.first_failing = find_run(layouts[static_cast<std::size_t>(*search.first_true - 1)], jobs);
    finish();
    return plan_;
  }

  Plan most_jobs(int gpus) {
    plan_.mode = Plan::Mode::most_jobs;
    plan_.requested = gpus;
    auto layout = planning::layout_for_gpus(gpus, 1, arguments_.max_gpus_per_pod);
    auto analysis = planning::analyse_layout(scenario_, *layout);
    int estimate = analytic_most_jobs(*layout, analysis);
    // Enough pods that their NICs do not stop the GPUs short, when the GPUs can be split that far.
    const int min_pods = planning::pods_for_network(analysis, estimate, saturation_threshold);
    if (min_pods > layout->pods) {
      layout = planning::layout_for_gpus(gpus, std::min(min_pods, gpus), arguments_.max_gpus_per_pod);
      analysis = planning::analyse_layout(scenario_, *layout);
      estimate = analytic_most_jobs(*layout, analysis);
    }
    plan_.layout_rule = planning::layout_rule(arguments_.max_gpus_per_pod, layout->pods);
    plan_.layout = *layout;
    plan_.analytic_layout = *layout;
    plan_.analytic_jobs = estimate;
    plan_.analytic_module_low_load_s = analysis.module_low_load_s;
    // The job search works on a grid of 2 % of the estimate: finer than the noise of short runs is wasted.
    const int step = std::max(1, static_cast<int>(std::lround(0.02 * estimate)));
    plan_.job_step = step;
    const int reference_jobs = reference_job_count(estimate, analysis.first().jobs_at_saturation);
    auto evaluate = [&](const std::vector<int>& indices) {
      std::vector<std::pair<PodLayout, int>> points;
      for (const int k : indices)
        points.emplace_back(*layout, k * step);
      const auto runs = run_points(points, *layout, reference_jobs);
      std::vector<bool> failing;
      for (const auto& run : runs)
        failing.push_back(!run.within_tolerance);
      return failing;
    };
    const int last = static_cast<int>(std::ceil(3.0 * estimate / step)) + 2;
    const auto search =
        planning::find_first_true(1, last, estimate / step + 1, arguments_.parallel, evaluate);
    plan_.batches = search.batches;
    if (search.first_true && *search.first_true == 1) {
      plan_.not_found_reason = "even " + std::to_string(step) + " jobs take the module beyond tolerance";
      return plan_;
    }
    plan_.found = true;
    plan_.jobs = search.first_true ? (*search.first_true - 1) * step : last * step;
    plan_.answer_run = find_run(*layout, plan_.jobs);
    if (search.first_true) plan_.first_failing = find_run(*layout, *search.first_true * step);
    finish();
    return plan_;
  }

private:
  static int reference_job_count(int jobs, double knee_jobs) {
    const int tenth = static_cast<int>(std::lround(reference_load_fraction * knee_jobs));
    return std::max(1, std::min(jobs, std::max(min_reference_jobs, tenth)));
  }

  // A link the pods cannot relieve (site switch, WAN) full before the jobs fit: no number of GPUs helps.
  void check_fixed_network(const planning::LayoutAnalysis& analysis, int jobs) const {
    const auto& fixed = planning::fixed_network_limit(analysis);
    const double usable_jobs = saturation_threshold * fixed.jobs_at_saturation;
    if (jobs <= usable_jobs) return;
    char text[512];
    std::snprintf(
        text, sizeof text,
        "impossible target: the %s (%s) saturates first: %d jobs at %.3g Gb/event every %.4g s need "
        "%.3g Gb/s, but it fills at %.0f jobs (%.0f %% busy at %.0f), so no number of GPUs serves "
        "%d jobs; give the network more capacity, compress the inputs or plan for fewer jobs",
        fixed.resource.c_str(), fixed.capacity.c_str(), jobs,
        analysis.job_traffic_bps * analysis.t_ideal_s / 1e9, analysis.t_ideal_s,
        jobs * analysis.job_traffic_bps / 1e9, fixed.jobs_at_saturation, saturation_threshold * 100.0,
        usable_jobs, jobs);
    throw InputError(text);
  }

  int analytic_most_jobs(const PodLayout& layout, const planning::LayoutAnalysis& analysis) const {
    const auto parameters = analysis::derive_parameters(planning::with_layout(scenario_, layout));
    const int limit = static_cast<int>(std::ceil(2.0 * analysis.first().jobs_at_saturation)) + 2;
    std::vector<int> counts;
    for (int n = 1; n <= limit; ++n)
      counts.push_back(n);
    const auto curve = analysis::analytic_curve(parameters, counts);
    int best = 1;
    for (const auto& point : curve)
      if (point.mva_module_s <= (1.0 + arguments_.tolerance) * curve.front().mva_module_s) best = point.jobs;
    const double network_jobs = saturation_threshold * analysis.network_limit().jobs_at_saturation;
    return std::max(1, std::min(best, static_cast<int>(network_jobs)));
  }

  // Simulates the points (and the reference, the first time) in one parallel batch.
  std::vector<PlanRun> run_points(const std::vector<std::pair<PodLayout, int>>& points,
                                  const PodLayout& roomy, int reference_jobs) {
    std::vector<Scenario> scenarios;
    const bool with_reference = !plan_.reference.ok && plan_.reference.jobs == 0;
    if (with_reference) scenarios.push_back(at(roomy, reference_jobs));
    for (const auto& [layout, jobs] : points)
      scenarios.push_back(at(layout, jobs));
    const auto outcomes = simulate_batch(scenarios, arguments_.parallel, "plan");
    std::size_t k = 0;
    if (with_reference) {
      plan_.reference = to_run("reference", roomy, reference_jobs, outcomes[k++]);
      if (!plan_.reference.ok) throw std::runtime_error("the reference run failed: " + plan_.reference.error);
      plan_.reference.module_over_reference = 1.0;
      plan_.reference.within_tolerance = true;
    }
    std::vector<PlanRun> runs;
    for (const auto& [layout, jobs] : points) {
      PlanRun run = to_run("candidate", layout, jobs, outcomes[k++]);
      if (!run.ok) throw std::runtime_error("a confirming run failed: " + run.error);
      run.module_over_reference = run.module_s / plan_.reference.module_s;
      // Failed events (rejections) mean the server could not serve the load at all.
      run.within_tolerance = run.error.empty() && run.module_over_reference <= 1.0 + arguments_.tolerance;
      plan_.runs.push_back(run);
      runs.push_back(run);
    }
    return runs;
  }

  Scenario at(const PodLayout& layout, int jobs) const {
    Scenario s = planning::with_layout(scenario_, layout);
    s.workload.jobs = jobs;
    return s;
  }

  PlanRun to_run(const std::string& role, const PodLayout& layout, int jobs,
                 const SimulationOutcome& outcome) {
    PlanRun run;
    run.role = role;
    run.layout = layout;
    run.jobs = jobs;
    run.ok = outcome.ok;
    run.error = outcome.error;
    run.wall_clock_s = outcome.wall_clock_s;
    if (!outcome.ok) return run;
    const RunSummary& s = outcome.summary;
    run.module_s = planning::accelerated_module_s(s, modules_);
    run.event_s = s.event.mean_s;
    run.events_per_s = s.events_per_s;
    run.gpu_utilisation = s.gpu_utilisation;
    run.gpu_s_per_event = planning::gpu_seconds_per_event(s, inferences_per_event_);
    run.bottleneck = s.bottleneck;
    run.bottleneck_utilisation = s.bottleneck_utilisation;
    if (s.events_failed > 0) run.error = std::to_string(s.events_failed) + " events failed";
    return run;
  }

  std::optional<PlanRun> find_run(const PodLayout& layout, int jobs) const {
    for (const auto& run : plan_.runs)
      if (run.layout.gpus() == layout.gpus() && run.layout.pods == layout.pods && run.jobs == jobs)
        return run;
    return std::nullopt;
  }

  void finish() {
    plan_.analysis = planning::analyse_layout(scenario_, plan_.layout);
    if (plan_.answer_run) {
      plan_.ratio_simulated =
          planning::cpu_gpu_ratio(plan_.reference.event_s, plan_.answer_run->gpu_s_per_event);
      plan_.knee_sizing = plan_.mode == Plan::Mode::fewest_gpus
                              ? std::ceil(plan_.jobs / plan_.ratio_simulated)
                              : std::floor(plan_.ratio_simulated * plan_.layout.gpus());
      plan_.cost = planning::cost_per_event(scenario_, plan_.layout.gpus(), plan_.jobs,
                                            plan_.answer_run->events_per_s);
    }
  }

  const PlanArguments& arguments_;
  Scenario scenario_;
  std::vector<std::string> modules_;
  double inferences_per_event_;
  Plan plan_;
};

int plan(const PlanArguments& arguments) {
  if ((arguments.jobs > 0) == (arguments.gpus > 0))
    throw InputError(
        "give exactly one of --jobs N (the fewest GPUs for N jobs) and --gpus G (the most jobs G "
        "GPUs serve)");
  if (!(arguments.tolerance > 0.0))
    throw InputError(
        "--tolerance must be > 0 (a fraction: 0.10 allows the module 10 % above its unsaturated time)");
  Scenario scenario = load_variant(arguments.source, arguments.variant);
  if (scenario.workload.campaign)
    throw InputError("plan works on a fixed number of concurrent jobs; this scenario is a campaign "
                     "(workload.campaign)");
  const auto missing = planning::missing_prices(scenario);
  if (arguments.cost && !missing.empty()) {
    std::string keys;
    for (const auto& key : missing)
      keys += (keys.empty() ? "" : " and ") + key;
    throw InputError(
        "--cost needs prices, but the scenario has no " + keys +
        ": add costs: {gpu_hour: USD, cpu_hour: USD} (US dollars per hour of one GPU and one job "
        "slot) or --set " +
        missing.front() + "=...");
  }
  const std::filesystem::path output_dir = arguments.output_dir.empty()
                                               ? std::filesystem::path("out") / ("plan_" + scenario.name)
                                               : std::filesystem::path(arguments.output_dir);
  ensure_writable_directory(output_dir);
  Planner planner(arguments, scenario);
  const Plan result =
      arguments.jobs > 0 ? planner.fewest_gpus(arguments.jobs) : planner.most_jobs(arguments.gpus);
  print_plan(result);
  const auto json_path = output_dir / "plan.json";
  write_plan_json(json_path, result);
  std::printf("\nwrote %s\n", json_path.string().c_str());
  if (!result.found) {
    std::fprintf(stderr, "sonicsim: error: %s\n", result.not_found_reason.c_str());
    return exit_bad_input;
  }
  return exit_ok;
}

} // namespace

void register_plan_command(CLI::App& app, int& result) {
  auto arguments = std::make_shared<PlanArguments>();
  auto* command = app.add_subcommand(
      "plan",
      "The fewest GPUs (and pods) for N jobs (--jobs), or the most jobs G GPUs serve (--gpus), with the "
      "module within a tolerance of its unsaturated time: analytic bracket, confirmed by simulation");
  arguments->source.add_options(*command);
  command->add_option("--variant", arguments->variant, "Plan one of the scenario's variants (variants:)");
  command->add_option("--jobs", arguments->jobs, "Concurrent jobs to serve: find the fewest GPUs")
      ->check(CLI::Range(1, 10000000));
  command->add_option("--gpus", arguments->gpus, "GPUs available: find the most jobs they serve")
      ->check(CLI::Range(1, 100000));
  command->add_option("--tolerance", arguments->tolerance,
                      "Allowed rise of the module time over its unsaturated (low-load) time, a fraction "
                      "(default 0.10)");
  command
      ->add_option("--max-gpus-per-pod", arguments->max_gpus_per_pod,
                   "GPUs in one pod (one VM, one NIC) before another pod is added (default 8)")
      ->check(CLI::Range(1, 1024));
  command
      ->add_option("--max-gpus", arguments->max_gpus, "Largest number of GPUs the search tries (default 256)")
      ->check(CLI::Range(1, 100000));
  command->add_flag("--cost", arguments->cost,
                    "Require the cost per event (the scenario's costs: gpu_hour, cpu_hour in USD per hour)");
  command->add_option("-j,--parallel", arguments->parallel, "Simulations at once (default: hardware threads)")
      ->check(CLI::Range(1, 1024));
  command->add_option("--out", arguments->output_dir,
                      "Output directory for plan.json (default: out/plan_<scenario name>)");
  command->callback([arguments, &result]() { result = guarded(*arguments, plan); });
}

} // namespace sonicsim
