#include "sim/app/run/campaign_windows_run.hpp"
#include "sim/metrics/json_fields.hpp"

#include "sim/analysis/campaign_windows.hpp"
#include "sim/app/commands.hpp"
#include "sim/app/run/summary_printer.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/execution/run_or_submit.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/metrics/histogram_peaks.hpp"
#include "sim/metrics/number_text.hpp"
#include "sim/metrics/summary_json.hpp"
#include "sim/scenario/input_error.hpp"

#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace fs = std::filesystem;

namespace sonicsim {
namespace {

// One simulation per window: what makes it the campaign's window, as overrides a process elsewhere applies;
// run here, its own files (and metrics.om, stamped from the window's start in the campaign).
std::vector<SimulationRequest> window_requests(const std::vector<analysis::CampaignWindow>& windows,
                                               const ScenarioSource& source, const fs::path& output_dir,
                                               bool on_cluster, std::optional<double> metrics_start_epoch_s,
                                               double metrics_interval_s) {
  std::vector<SimulationRequest> requests;
  for (std::size_t k = 0; k < windows.size(); ++k) {
    const Campaign& c = *windows[k].scenario.workload.campaign;
    // What makes the window of the campaign, as overrides a process elsewhere applies.
    const std::vector<std::string> window_overrides{
        "workload.campaign.start=" + exact_number_text(c.start_s) + "s",
        "workload.campaign.window=" + exact_number_text(*c.window_s) + "s",
        "workload.campaign.total_events=null",
        "workload.campaign.schedule_seed=" + std::to_string(*c.schedule_seed),
        std::string("workload.campaign.finish_events=") + (c.finish_events ? "true" : "false")};
    SimulationRequest request{windows[k].scenario, source.recipe(windows[k].scenario, window_overrides), {}};
    if (!on_cluster) {
      request.here.output_dir = output_dir / ("window_" + std::to_string(k));
      ensure_writable_directory(*request.here.output_dir);
      if (metrics_start_epoch_s) {
        request.here.openmetrics_start_epoch_s = *metrics_start_epoch_s + c.start_s;
        request.here.openmetrics_interval_s = metrics_interval_s;
      }
    }
    requests.push_back(std::move(request));
  }
  return requests;
}

// The merged campaign's event times as a histogram, raw and smoothed as the peak rule smooths them.
void write_event_time_histogram(const fs::path& path, const CampaignSummary& merged) {
  std::ostringstream histogram;
  const std::vector<double> smoothed =
      smooth_counts(merged.event_time_counts, PeakRule{}.smoothing_sigma_bins);
  histogram << "bin_start_s,bin_end_s,events,smoothed_events\n" << std::setprecision(9);
  for (std::size_t i = 0; i < merged.event_time_counts.size(); ++i)
    histogram << static_cast<double>(i) * merged.histogram_bin_s << ','
              << static_cast<double>(i + 1) * merged.histogram_bin_s << ',' << merged.event_time_counts[i]
              << ',' << smoothed[i] << '\n';
  write_file_atomically(path, histogram.str());
}

} // namespace

int run_campaign_windows(const Scenario& scenario, const ScenarioSource& source, const fs::path& output_dir,
                         int window_count, const ExecutionOptions& execution,
                         std::optional<double> metrics_start_epoch_s, double metrics_interval_s) {
  if (!scenario.workload.campaign || !scenario.workload.campaign->window_s)
    throw InputError("--campaign-windows: the scenario must be a campaign with a window "
                     "(workload.campaign.window), whose measured span is cut into the windows");
  const auto windows = analysis::split_campaign(scenario, window_count);
  const auto started = std::chrono::steady_clock::now();
  const bool on_cluster = execution.on_cluster();
  std::vector<SimulationRequest> requests =
      window_requests(windows, source, output_dir, on_cluster, metrics_start_epoch_s, metrics_interval_s);
  const ExecutionContext context{execution, output_dir, "run: campaign windows",
                                 (output_dir / "campaign_windows.json").string()};
  const auto outcomes = run_or_submit(context, requests);
  if (!outcomes) return exit_ok; // submitted: the merge job writes campaign_windows.json
  std::vector<RunSummary> summaries(windows.size());
  std::vector<std::string> failures;
  for (std::size_t k = 0; k < windows.size(); ++k) {
    if ((*outcomes)[k].ok)
      summaries[k] = (*outcomes)[k].summary;
    else
      failures.push_back("window " + std::to_string(k) + ": " + (*outcomes)[k].error);
  }
  if (!failures.empty()) {
    for (const auto& failure : failures)
      std::cerr << "sonicsim: error: " << failure << "\n";
    std::cerr << "sonicsim: campaign_windows.json not written: " << failures.size() << " of "
              << windows.size() << " windows failed\n";
    return exit_run_failed;
  }

  std::vector<CampaignSummary> campaigns;
  std::vector<double> measured_s;
  double events = 0.0, event_time_sum_s = 0.0;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < windows.size(); ++k) {
    if (!summaries[k].campaign) throw std::logic_error("a campaign window without its campaign summary");
    campaigns.push_back(*summaries[k].campaign);
    measured_s.push_back(windows[k].measured_s);
    events += static_cast<double>(summaries[k].events_completed);
    event_time_sum_s += summaries[k].event.mean_s * static_cast<double>(summaries[k].events_completed);
    rows.push_back({{"window", k},
                    {"measured_from_s", windows[k].measured_from_s},
                    {"measured_s", windows[k].measured_s},
                    {"seed", windows[k].scenario.seed},
                    {"events_completed", summaries[k].events_completed},
                    {"event_mean_s", summaries[k].event.mean_s},
                    {"mean_running_jobs", campaigns.back().mean_running_jobs},
                    {"mean_outbound_gbps", campaigns.back().mean_outbound_gbps}});
  }
  const CampaignSummary merged = analysis::merge_campaign_windows(campaigns, measured_s);
  const double elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  write_event_time_histogram(output_dir / "event_time_histogram.csv", merged);
  const nlohmann::ordered_json out{{"scenario", scenario.name},
                                   {"windows", window_count},
                                   {"warmup_s", scenario.workload.campaign->warmup_s},
                                   {"where", batch_system_name(execution.system)},
                                   {"events_completed", events},
                                   {"event_mean_s", events > 0 ? event_time_sum_s / events : 0.0},
                                   {"campaign", campaign_summary_to_json(merged)},
                                   {"per_window", rows}};
  // Last: a directory without campaign_windows.json is not a finished result.
  write_file_atomically(output_dir / "campaign_windows.json", json_text(out, 1) + "\n");

  if (!execution.quiet) {
    std::printf("campaign %s in %d time windows of %.4g h, each after its own %.4g h warm-up (%s, %.1f s)\n",
                scenario.name.c_str(), window_count, windows.front().measured_s / 3600.0,
                scenario.workload.campaign->warmup_s / 3600.0, on_cluster ? "Slurm job array" : "here",
                elapsed_s);
    std::printf("events              %.0f measured, mean %.4g s\n", events,
                events > 0 ? event_time_sum_s / events : 0.0);
    print_campaign_lines(std::cout, merged);
    std::printf("\nwrote %s, event_time_histogram.csv%s\n", (output_dir / "campaign_windows.json").c_str(),
                on_cluster ? "" : ", window_<k>/");
  }
  return events > 0 ? exit_ok : exit_run_failed;
}

} // namespace sonicsim
