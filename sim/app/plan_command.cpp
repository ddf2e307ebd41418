// `sonicsim plan`: the fewest GPUs (and pods) that keep the accelerated module within a tolerance of its
// unsaturated time at N jobs (--jobs), or the most jobs G GPUs serve so (--gpus). The analytic models (MVA of
// the closed network, the network limits) bracket the answer; simulations around the bracket confirm it, a
// batch of parallel runs at a time (sim/planning/boundary_search.hpp), and every run is printed as evidence.
#include "sim/app/commands.hpp"

#include "sim/metrics/number_text.hpp"

#include "sim/app/plan_report.hpp"
#include "sim/app/simulation_batch.hpp"
#include "sim/app/variant_source.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/planning/planner.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <thread>

namespace sonicsim {
namespace {

using planning::Plan;

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

int plan(const PlanArguments& arguments) {
  if ((arguments.jobs > 0) == (arguments.gpus > 0))
    throw InputError(
        "give exactly one of --jobs N (the fewest GPUs for N jobs) and --gpus G (the most jobs G "
        "GPUs serve)");
  // A fraction in (0, 1]: "inf" or 1e308 would accept any layout, NaN none.
  if (!(arguments.tolerance > 0.0 && arguments.tolerance <= 1.0))
    throw InputError("--tolerance must be a fraction in (0, 1] (0.10 allows the module 10 % above its "
                     "unsaturated time); got " +
                     significant(arguments.tolerance));
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
  planning::PlannerSettings settings;
  settings.variant = arguments.variant;
  settings.tolerance = arguments.tolerance;
  settings.max_gpus_per_pod = arguments.max_gpus_per_pod;
  settings.max_gpus = arguments.max_gpus;
  settings.parallel = arguments.parallel;
  planning::Planner planner(settings, scenario,
                            [parallel = arguments.parallel](const std::vector<Scenario>& batch) {
                              return simulate_batch(batch, parallel, "plan");
                            });
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
