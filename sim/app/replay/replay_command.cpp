// `sonicsim replay [SCENARIO] --clients FILE --series NAME=FILE ...`: an operator's recorded day replayed
// against the scenario's autoscaler. The recorded number of clients (a Prometheus range query's JSON, e.g.
// sum(envoy_http_downstream_cx_active)) becomes the campaign's cap on running jobs, sample by sample; the
// run's time series is then compared with each recorded series at the recorded times (sim/analysis/
// replay_comparison.hpp). Any --variant or --set is a what-if on the recorded load.
#include "sim/analysis/replay_comparison.hpp"
#include "sim/app/commands.hpp"
#include "sim/app/common/output_options.hpp"
#include "sim/app/common/scenario_source.hpp"
#include "sim/app/replay/replay_series.hpp"
#include "sim/app/run/html_report.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/execution/progress.hpp"
#include "sim/measurements/prometheus_matrix.hpp"
#include "sim/metrics/json_fields.hpp"
#include "sim/metrics/number_text.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

namespace sonicsim {
namespace {

struct ReplayArguments {
  ScenarioSource source;
  std::string clients_file;
  std::vector<std::string> series; // NAME=FILE
  std::string group;               // the pooled group compared (default: the only one, or the first)
  std::string output_dir;
  bool quiet = false;
  bool json = false;
  bool html = false; // --html: report.html beside the results
};

// The campaign's caps from the recorded clients: during the step before each sample, (t[i] - step, t[i]], at
// most the count recorded at t[i], so that the running jobs reach it by the sample (the batch system fills
// slots every 10 s), as the sample's own jobs had; the simulation's time 0 is one step before the first
// sample (replay_origin_s).
std::vector<std::string> drive_overrides(const measurements::PrometheusSeries& clients, double step_s,
                                         int scenario_jobs) {
  const double t0 = replay_origin_s(clients, step_s);
  std::string caps;
  long previous = -1, peak = 1;
  for (std::size_t i = 0; i < clients.times_s.size(); ++i) {
    const double v = clients.values[i];
    if (std::isnan(v)) continue; // nothing recorded: the cap before stands
    // The scenario's bound on jobs (workload.jobs): a count beyond it is no recording of clients.
    if (!(v >= 0 && v <= 1e6))
      throw InputError("--clients: " + significant(v) + " clients at unix time " +
                       significant(clients.times_s[i], 12) +
                       "; expected a count from 0 to 1,000,000 (the query's sum of connections or jobs)");
    const long jobs = std::lround(v);
    peak = std::max(peak, jobs);
    if (jobs == previous) continue;
    previous = jobs;
    caps += std::string(caps.empty() ? "" : ", ") + "{from: \"" +
            significant(std::max(0.0, clients.times_s[i] - step_s - t0), 12) +
            "s\", jobs: " + std::to_string(jobs) + "}";
  }
  if (caps.empty())
    throw InputError("--clients: every recorded sample is NaN or negative: nothing to replay");
  // A step beyond the last sample, so that a gauge's mean around it is whole.
  const double window_s = clients.times_s.back() - t0 + step_s;
  return {"workload.campaign.max_concurrent=[" + caps + "]",
          "workload.campaign.window=" + significant(window_s, 12) + "s",
          "workload.campaign.total_events=null",
          "workload.jobs=" + std::to_string(std::max<long>(peak, scenario_jobs)),
          "output.timeseries_interval=" + significant(step_s, 12) + "s"};
}

std::string pooled_group(const Scenario& scenario, const std::string& asked) {
  for (const auto& group : scenario.platform.server_groups)
    if (asked.empty() ? group.autoscaler.has_value() : group.name == asked) return group.name;
  if (!asked.empty())
    throw InputError("--group " + asked + ": the scenario has no server group of that name");
  throw InputError("the scenario has no server group with an autoscaler: replay compares a recorded day with "
                   "the scenario's autoscaler (name a group with --group)");
}

void print_table(const std::vector<ReplayComparison>& rows) {
  std::printf("\n%-30s %7s %12s %12s %12s %12s %9s %8s %9s\n", "series", "points", "recorded", "simulated",
              "bias", "mean |err|", "rel |err|", "match", "lag (s)");
  for (const auto& r : rows) {
    const auto& c = r.comparison;
    std::printf("%-30s %7zu %12s %12s %12s %12s %8.1f%% %8s %9s\n", (r.name + " (" + r.unit + ")").c_str(),
                c.points, significant(c.mean_recorded).c_str(), significant(c.mean_simulated).c_str(),
                significant(c.mean_error).c_str(), significant(c.mean_absolute_error).c_str(),
                100.0 * c.relative_error,
                c.decision_match_rate ? (significant(100.0 * *c.decision_match_rate, 3) + "%").c_str() : "-",
                c.lag_s ? significant(*c.lag_s).c_str() : "-");
  }
}

int replay(const ReplayArguments& arguments) {
  const measurements::PrometheusMatrix recorded_clients =
      measurements::read_prometheus_matrix(arguments.clients_file);
  const double step_s = recorded_clients.step_s();
  const measurements::PrometheusSeries clients = recorded_clients.summed();
  const double span_s = clients.times_s.back() - clients.times_s.front();
  constexpr double max_recording_s = 3.1536e8; // ten years: a campaign's longest window
  if (!(step_s >= 1.0 && step_s <= 3600.0) || span_s > max_recording_s)
    throw InputError(
        "--clients " + arguments.clients_file + ": samples " + significant(step_s) + " s apart over " +
        significant(span_s) +
        " s; expected a query step from 1 s to 1 h over at most 10 years (a campaign's longest window)");
  std::vector<RecordedSeries> compared = read_recorded_series(arguments.series, step_s);
  const Scenario base = arguments.source.load();
  const std::string group = pooled_group(base, arguments.group);
  const Scenario scenario = arguments.source.load(drive_overrides(clients, step_s, base.workload.jobs));
  const std::filesystem::path output_dir = arguments.output_dir.empty()
                                               ? std::filesystem::path("out") / (scenario.name + "_replay")
                                               : std::filesystem::path(arguments.output_dir);
  ensure_writable_directory(output_dir);
  RunOptions options;
  options.output_dir = output_dir;
  Progress progress("replay", 1, "runs", arguments.quiet || arguments.json);
  options.on_progress = [&](const RunProgress& at) {
    if (progress.elapsed_s() >= 3.0)
      progress.update_fraction(at.fraction_done, "simulated " + significant(at.simulated_s) + " s");
  };
  const RunResult result = run_simulation(scenario, options);
  const SimulatedSeries simulated = read_simulated_series(output_dir / "timeseries.csv", group, step_s);
  compared.insert(compared.begin(), RecordedSeries{"clients", "jobs", arguments.clients_file, clients});
  const double origin_s = replay_origin_s(clients, step_s);
  const std::vector<ReplayComparison> rows = compare_recorded(compared, simulated, origin_s, step_s);
  const nlohmann::ordered_json document =
      replay_document(scenario, group, arguments.clients_file, origin_s, step_s, rows);
  write_replay_files(output_dir, document, rows);
  if (arguments.json) {
    std::cout << json_text(document, 1) << "\n";
  } else if (!arguments.quiet) {
    std::printf("replay of %s on scenario %s, group %s: %zu samples %s s apart (%s s), %llu events\n",
                arguments.clients_file.c_str(), scenario.name.c_str(), group.c_str(), clients.times_s.size(),
                significant(step_s).c_str(),
                significant(clients.times_s.back() - clients.times_s.front()).c_str(),
                static_cast<unsigned long long>(result.summary.events_completed));
    print_table(rows);
    if (result.summary.operations)
      for (const auto& pool : result.summary.operations->pools)
        if (pool.group == group)
          std::printf("\nsimulated on the recorded load: event time %s s, %s device-h held (peak %d pods, %d "
                      "added, %d removed)\n",
                      significant(result.summary.event.mean_s).c_str(),
                      significant(pool.device_hours).c_str(), pool.peak_pods, pool.pods_added,
                      pool.pods_removed);
    std::printf(
        "\n  bias: simulated - recorded, averaged; match: the steps whose change (up, down, none) the "
        "simulation took too; lag: the shift of the simulated series that best fits the recorded one "
        "(positive: the simulation acts later)\n");
    for (const auto& note : replay_assumptions())
      std::printf("  - %s\n", note.c_str());
    std::printf("\nwrote %s, replay.csv, and the run's summary.json, timeseries.csv\n",
                (output_dir / "replay.json").string().c_str());
  }
  std::cout.flush();
  write_html_report_if_asked(arguments.html, output_dir, arguments.quiet, arguments.json);
  return result.summary.events_completed > 0 ? exit_ok : exit_run_failed;
}

} // namespace

void register_replay_command(CLI::App& app, int& result) {
  auto arguments = std::make_shared<ReplayArguments>();
  auto* command = app.add_subcommand(
      "replay",
      "Replay a recorded day (Prometheus range queries' JSON) against the scenario's autoscaler: the "
      "recorded clients drive the campaign, each recorded series is compared with the simulated one");
  arguments->source.add_options(*command);
  command
      ->add_option(
          "--clients", arguments->clients_file,
          "The recorded number of clients over the day: a Prometheus range query's JSON (/api/v1/"
          "query_range or Grafana's query inspector), e.g. sum(envoy_http_downstream_cx_active); several "
          "series are summed")
      ->required();
  command->add_option("--series", arguments->series,
                      "NAME=FILE, repeatable: a recorded series to compare, NAME one of " +
                          replay_series_names() +
                          " (a range query's JSON, one series, or several summed for "
                          "counts and rates)");
  command->add_option("--group", arguments->group,
                      "The server group compared (default: the first with an autoscaler)");
  command
      ->add_option("--out", arguments->output_dir, "Output directory (default: out/<scenario name>_replay)")
      ->check(directory_path);
  add_output_options(*command, arguments->quiet, &arguments->json);
  add_html_option(*command, arguments->html);
  command->callback([arguments, &result]() { result = guarded(*arguments, replay); });
}

} // namespace sonicsim
