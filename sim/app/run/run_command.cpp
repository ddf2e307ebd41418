#include "sim/analysis/figure_context.hpp"
#include "sim/app/commands.hpp"
#include "sim/app/run/html_report.hpp"
#include "sim/metrics/direct_baseline.hpp"
#include "sim/metrics/json_fields.hpp"

#include "sim/app/common/execution_flags.hpp"
#include "sim/app/common/output_options.hpp"
#include "sim/app/common/scenario_source.hpp"
#include "sim/app/run/campaign_windows_run.hpp"
#include "sim/app/run/run_sensitivity.hpp"
#include "sim/app/run/summary_printer.hpp"
#include "sim/engine/engine_arguments.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/execution/local_pool.hpp"
#include "sim/execution/progress.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/metrics/number_text.hpp"
#include "sim/metrics/openmetrics.hpp"
#include "sim/metrics/replicated_figures.hpp"
#include "sim/metrics/summary_json.hpp"
#include "sim/random/replication_seed.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>

namespace sonicsim {
namespace {

struct RunArguments {
  ScenarioSource source;
  std::string output_dir;
  bool quiet = false;
  bool json = false;    // the result file's content on stdout, and nothing else there
  bool verbose = false; // also how the engine timed the flows
  int replications = 1;
  int campaign_windows = 1;
  ExecutionFlags execution{hardware_threads()};
  bool openmetrics = false;
  std::string metrics_start = "2024-01-01T00:00:00Z";
  double metrics_interval_s = 5.0;
  bool html = false;        // --html: report.html beside the results
  bool sensitivity = false; // --sensitivity: the ranged values run again at their ends (run_sensitivity.hpp)
};

// The exit code and message when no event completed: the files are complete, but they describe no measured
// event.
int no_event_completed(const RunSummary& summary, const std::string& where) {
  std::cerr << "sonicsim: error: no event completed in the measurement window" << where << " ("
            << summary.events_failed << " failed, " << summary.events_warmup
            << " in warm-up): the figures above are not a result; see summary.json\n";
  return exit_run_failed;
}

// R independent replications, each in its own process and directory (replication_<r>/, replication 0 being
// the plain run with the scenario's seed), then replications.json and replications.csv with every figure's
// mean and 95 % interval. The aggregate files are written last, so a directory without them is not a finished
// result.
// `options`: what every replication writes besides its files (metrics.om, with its own start and interval).
int run_replications(const RunArguments& arguments, const Scenario& scenario,
                     const std::filesystem::path& output_dir, const RunOptions& options) {
  const int count = arguments.replications;
  const int parallel = arguments.execution.parallel;
  std::vector<SimulationRequest> replications;
  std::vector<std::uint64_t> seeds;
  for (int r = 0; r < count; ++r) {
    SimulationRequest replication;
    replication.scenario = scenario;
    replication.scenario.seed = replication_seed(scenario.seed, r);
    replication.here.openmetrics_start_epoch_s = options.openmetrics_start_epoch_s;
    replication.here.openmetrics_interval_s = options.openmetrics_interval_s;
    replication.here.output_dir = output_dir / ("replication_" + std::to_string(r));
    ensure_writable_directory(*replication.here.output_dir);
    seeds.push_back(replication.scenario.seed);
    replications.push_back(std::move(replication));
  }
  std::vector<SimulationRequest> directs;
  for (const auto& replication : replications)
    if (const auto direct = direct_inference_baseline(replication.scenario))
      directs.push_back(SimulationRequest{*direct, {}, {}});
  if (!directs.empty()) {
    const auto outcomes = run_here(directs, parallel, "run: direct-inference baselines", arguments.quiet);
    for (int r = 0; r < count; ++r) {
      if (!outcomes[r].ok)
        throw std::runtime_error("a direct-inference baseline failed: " + outcomes[r].error);
      replications[r].here.direct_baseline = outcomes[r].summary;
    }
  }
  std::vector<RunSummary> summaries(count);
  std::vector<std::string> failures;
  const auto outcomes = run_here(replications, parallel, "run: replications", arguments.quiet);
  for (int r = 0; r < count; ++r) {
    if (outcomes[r].ok)
      summaries[r] = outcomes[r].summary;
    else
      failures.push_back("replication " + std::to_string(r) + " (seed " + std::to_string(seeds[r]) +
                         "): " + outcomes[r].error);
  }
  if (!failures.empty()) {
    for (const auto& failure : failures)
      std::cerr << "sonicsim: error: " << failure << "\n";
    std::cerr << "sonicsim: no replications.json written: " << failures.size() << " of " << count
              << " replications failed\n";
    return exit_run_failed;
  }
  const ReplicatedRun replicated = replicate(seeds, summaries, analysis::figure_context(scenario));
  const bool text = !arguments.quiet && !arguments.json;
  if (text) print_replicated_summary(std::cout, scenario, replicated);
  std::ostringstream csv;
  write_replicated_csv(csv, replicated);
  write_file_atomically(output_dir / "replications.csv", csv.str());
  write_file_atomically(output_dir / "replications.json",
                        json_text(replicated_to_json(replicated), 1) + "\n");
  if (arguments.json) std::cout << json_text(replicated_to_json(replicated), 1) << "\n";
  if (text)
    std::cout << "\nwrote " << (output_dir / "replications.json").string()
              << ", replications.csv, replication_0/ .. replication_" << count - 1 << "/\n";
  for (int r = 0; r < count; ++r)
    if (summaries[r].events_completed == 0)
      return no_event_completed(summaries[r], " of replication " + std::to_string(r));
  return exit_ok;
}

// Windows are worth it only while each measures at least one warm-up: more would simulate more warm-up than
// campaign, and more work in all than the sequential run.
void check_campaign_windows(const Scenario& scenario, int windows) {
  const std::string option = "--campaign-windows " + std::to_string(windows);
  const auto& campaign = scenario.workload.campaign;
  if (!campaign || !campaign->window_s)
    throw InputError(option + ": the scenario has no campaign with a window (workload.campaign.window); "
                              "expected a campaign scenario such as configs/protodune_2022_campaign.yaml");
  const double measured_s = *campaign->window_s - campaign->warmup_s;
  const int most =
      static_cast<int>(std::min(1000.0, std::floor(measured_s / std::max(campaign->warmup_s, 1.0))));
  if (windows > most)
    throw InputError(option + ": each window would measure " + significant(measured_s / windows) +
                     " s after its own warm-up of " + significant(campaign->warmup_s) +
                     " s; expected at most " + std::to_string(std::max(most, 1)) +
                     " windows (each measuring at least one warm-up)");
}

int run(const RunArguments& arguments) {
  const ExecutionOptions execution = execution_options(arguments.execution, arguments.quiet);
  // A cluster's tasks return summaries alone: a flag that would silently write nothing is refused.
  if (arguments.openmetrics && execution.on_cluster())
    throw InputError("--openmetrics: the windows' metrics.om are written by runs here; not with --slurm");
  const Scenario scenario = arguments.source.load();
  const std::filesystem::path output_dir = arguments.output_dir.empty()
                                               ? std::filesystem::path("out") / scenario.name
                                               : std::filesystem::path(arguments.output_dir);
  ensure_writable_directory(output_dir);
  RunOptions options;
  options.output_dir = output_dir;
  if (arguments.openmetrics) {
    try {
      options.openmetrics_start_epoch_s = parse_utc_timestamp(arguments.metrics_start);
    } catch (const std::invalid_argument& error) {
      throw InputError("--metrics-start: " + std::string(error.what()));
    }
    options.openmetrics_interval_s = arguments.metrics_interval_s;
  }
  if (execution.on_cluster() && arguments.campaign_windows <= 1)
    throw InputError(
        "--slurm: run submits the time windows of a campaign (--campaign-windows N); a single run "
        "is one process");
  if (arguments.sensitivity && (arguments.campaign_windows > 1 || arguments.replications > 1))
    throw InputError("--sensitivity: on a single run (not with --replications or --campaign-windows)");
  if (arguments.campaign_windows > 1) {
    if (arguments.replications > 1) throw InputError("--campaign-windows: not with --replications");
    check_campaign_windows(scenario, arguments.campaign_windows);
    if (!arguments.json)
      return run_campaign_windows(scenario, arguments.source, output_dir, arguments.campaign_windows,
                                  execution, options.openmetrics_start_epoch_s,
                                  options.openmetrics_interval_s);
    // --json: the merged windows' file on stdout (the text, and the progress with it, left out).
    const int code = run_campaign_windows(scenario, arguments.source, output_dir, arguments.campaign_windows,
                                          execution_options(arguments.execution, true),
                                          options.openmetrics_start_epoch_s, options.openmetrics_interval_s);
    const auto merged = output_dir / "campaign_windows.json";
    if (code == exit_ok && std::filesystem::exists(merged)) std::cout << read_result_text(merged);
    return code;
  }
  if (arguments.replications > 1) return run_replications(arguments, scenario, output_dir, options);
  // Every range end loaded before anything runs: a refused one is told before the files are written.
  std::optional<SensitivityRuns> sensitivity;
  if (arguments.sensitivity) sensitivity = sensitivity_runs(arguments.source, scenario);
  if (const auto direct = direct_inference_baseline(scenario)) {
    // Its own process: SimGrid allows one engine per process.
    const SimulationOutcome baseline =
        run_here({SimulationRequest{*direct, {}, {}}}, 1, "run: direct-inference baseline", arguments.quiet)
            .front();
    if (!baseline.ok) throw std::runtime_error("the direct-inference baseline failed: " + baseline.error);
    options.direct_baseline = baseline.summary;
  }
  // A run that lasts more than a few seconds says how far it is (on stderr; never with -q).
  Progress progress("run", 1, "runs", arguments.quiet);
  bool reported = false;
  options.on_progress = [&](const RunProgress& at) {
    if (progress.elapsed_s() < 3.0) return;
    reported = true;
    progress.update_fraction(at.fraction_done, "simulated " + significant(at.simulated_s) + " s");
  };
  const RunResult result = run_simulation(scenario, options);
  if (reported) progress.finish();
  if (!arguments.quiet && !arguments.json) {
    print_run_summary(std::cout, scenario, result.summary, arguments.verbose);
    std::cout << "\nwrote " << (output_dir / "summary.json").string() << ", events.csv, timeseries.csv\n";
  }
  std::cout.flush();
  if (sensitivity && result.summary.events_completed > 0)
    run_sensitivity(*sensitivity, scenario, result.summary, output_dir, arguments.execution.parallel,
                    arguments.quiet || arguments.json, !arguments.quiet && !arguments.json);
  if (arguments.json) std::cout << read_result_text(output_dir / "summary.json");
  std::cout.flush();
  write_html_report_if_asked(arguments.html, output_dir, arguments.quiet, arguments.json);
  if (result.summary.events_completed > 0) return exit_ok;
  return no_event_completed(result.summary, "");
}

} // namespace

void register_run_command(CLI::App& app, int& result) {
  auto arguments = std::make_shared<RunArguments>();
  auto* command =
      app.add_subcommand("run", "Simulate one scenario (default: the embedded ProtoDUNE 2020 large-batch "
                                "scenario) and write summary.json, events.csv, timeseries.csv");
  arguments->source.add_options(*command);
  command->add_option("--out", arguments->output_dir, "Output directory (default: out/<scenario name>)")
      ->check(directory_path);
  add_output_options(*command, arguments->quiet, &arguments->json);
  command
      ->add_option(
          "--replications", arguments->replications,
          "Independent replications (seeds derived from the scenario's): each figure as mean and 95 % "
          "interval in replications.json/.csv, each replication's files in replication_<r>/")
      ->check(CLI::Range(1, 1000));
  command
      ->add_option("--campaign-windows", arguments->campaign_windows,
                   "Cut a campaign's measured span into N time windows, each simulated with its own warm-up, "
                   "at once (-j, or --slurm as a job array), and merge them (campaign_windows.json)")
      ->check(CLI::Range(1, 1000));
  command->add_flag(
      "--verbose", arguments->verbose,
      "Also print how the simulator timed the flows (through SimGrid's solver or not, links left "
      "out of its routes); summary.json always has them");
  command->add_flag(
      "--openmetrics", arguments->openmetrics,
      "Also write metrics.om (each replication's and each campaign window's too): the servers' metrics as "
      "SuperSONIC's Prometheus holds them (Triton's per pod and model, the GPUs', Envoy's; SuperSONIC's "
      "labels), and the jobs, events and links, in the OpenMetrics format");
  command->add_option("--metrics-start", arguments->metrics_start,
                      "UTC time of the simulation's start in metrics.om (default 2024-01-01T00:00:00Z)");
  command
      ->add_option("--metrics-interval", arguments->metrics_interval_s,
                   "Seconds between metrics.om's samples (default 5, as SuperSONIC's Prometheus scrapes; "
                   "a [30s] rate() needs at most 15)")
      ->check(CLI::Range(0.1, 3600.0));
  command->add_flag("--sensitivity", arguments->sensitivity,
                    "Also rank what the answer rests on: each value whose provenance gives a range (range: "
                    "{low, high, why}) run again at each end with the same seed, the time per event and "
                    "events/s per job at both, largest swing first (sensitivity.json; a tornado chart "
                    "with --html)");
  add_html_option(*command, arguments->html);
  add_execution_options(*command, arguments->execution, ExecutionShape::simulations,
                        "the campaign windows (--campaign-windows N; a single run is one process)");
  command->callback([arguments, &result]() { result = guarded(*arguments, run); });
}

} // namespace sonicsim
