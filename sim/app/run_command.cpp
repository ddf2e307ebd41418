#include "sim/app/commands.hpp"

#include "sim/app/scenario_source.hpp"
#include "sim/app/simulation_batch.hpp"
#include "sim/app/summary_printer.hpp"
#include "sim/app/variant_source.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/scenario/campaign_scale.hpp"

#include <iostream>
#include <memory>

namespace sonicsim {
namespace {

struct RunArguments {
  ScenarioSource source;
  std::string output_dir;
  std::string variant; // empty: the scenario as written
  bool quiet = false;
};

// The same jobs with every model on their own CPU, when each remote module states its direct-inference time:
// the baseline CMS quotes SONIC's gain against. Not for campaigns (their jobs come and go).
std::optional<Scenario> direct_inference_baseline(const Scenario& scenario) {
  const Workload& workload = scenario.workload;
  if (workload.campaign) return std::nullopt;
  bool served = false;
  for (const Module& module : workload.pipeline) {
    if (module.type != Module::Type::remote_inference) continue;
    if (!module.direct_s) return std::nullopt;
    served = served || module.served();
  }
  if (!served) return std::nullopt; // this run is the baseline already
  Scenario direct = scenario;
  direct.workload.direct_inference = true;
  for (Module& module : direct.workload.pipeline)
    module.run_direct = module.type == Module::Type::remote_inference;
  return direct;
}

int run(const RunArguments& arguments) {
  const Scenario scenario = load_variant(arguments.source, arguments.variant);
  const std::filesystem::path output_dir = arguments.output_dir.empty()
                                               ? std::filesystem::path("out") / scenario.name
                                               : std::filesystem::path(arguments.output_dir);
  ensure_writable_directory(output_dir);
  RunOptions options{output_dir, std::nullopt};
  check_actor_limit(scaled_for_simulation(scenario)); // what run_simulation will build
  if (const auto direct = direct_inference_baseline(scenario)) {
    // Its own process: SimGrid allows one engine per process.
    const SimulationOutcome baseline = simulate_batch({*direct}, 1, "direct-inference baseline").front();
    if (!baseline.ok) throw std::runtime_error("the direct-inference baseline failed: " + baseline.error);
    options.direct_baseline = baseline.summary;
  }
  const RunResult result = run_simulation(scenario, options);
  if (!arguments.quiet) print_run_summary(std::cout, scenario, result.summary);
  std::cout << "\nwrote " << (output_dir / "summary.json").string() << ", events.csv, timeseries.csv\n";
  if (result.summary.events_completed > 0) return exit_ok;
  // The files are complete, but they describe no measured event: say why the exit code is 1.
  std::cerr << "sonicsim: error: no event completed in the measurement window ("
            << result.summary.events_failed << " failed, " << result.summary.events_warmup
            << " in warm-up): the figures above are not a result; see summary.json\n";
  return exit_run_failed;
}

} // namespace

void register_run_command(CLI::App& app, int& result) {
  auto arguments = std::make_shared<RunArguments>();
  auto* command =
      app.add_subcommand("run", "Simulate one scenario (default: the embedded ProtoDUNE 2020 large-batch "
                                "scenario) and write summary.json, events.csv, timeseries.csv");
  arguments->source.add_options(*command);
  command->add_option("--out", arguments->output_dir, "Output directory (default: out/<scenario name>)");
  command->add_option("--variant", arguments->variant,
                      "Apply one of the scenario's named variants (variants:) before --set");
  command->add_flag("--quiet", arguments->quiet, "Do not print the summary");
  command->callback([arguments, &result]() { result = guarded(*arguments, run); });
}

} // namespace sonicsim
