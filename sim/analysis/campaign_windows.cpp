#include "sim/analysis/campaign_windows.hpp"

#include "sim/analysis/campaign_traffic_fit.hpp"
#include "sim/metrics/histogram_peaks.hpp"
#include "sim/random/replication_seed.hpp"

#include <algorithm>
#include <stdexcept>

namespace sonicsim::analysis {

std::vector<CampaignWindow> split_campaign(const Scenario& scenario, int windows) {
  if (!scenario.workload.campaign || !scenario.workload.campaign->window_s)
    throw std::invalid_argument("campaign windows need a campaign with a window (workload.campaign.window)");
  if (windows < 1) throw std::invalid_argument("campaign windows: at least 1");
  const Campaign& campaign = *scenario.workload.campaign;
  const double measured_total_s = *campaign.window_s - campaign.warmup_s;
  const double each_s = measured_total_s / windows;
  std::vector<CampaignWindow> out;
  for (int k = 0; k < windows; ++k) {
    CampaignWindow window{scenario, campaign.start_s + campaign.warmup_s + k * each_s, each_s};
    Campaign& c = *window.scenario.workload.campaign;
    // Starts empty one warm-up before its measured span; the schedules are read at campaign time.
    c.start_s = window.measured_from_s - campaign.warmup_s;
    c.window_s = campaign.warmup_s + each_s;
    c.total_events.reset();
    c.schedule_seed = campaign.schedule_seed.value_or(scenario.seed);
    // An event crossing the end of a window is counted in the window it started in; the last window ends
    // where the whole run would.
    c.finish_events = k + 1 < windows || campaign.finish_events;
    window.scenario.seed = replication_seed(scenario.seed, k);
    out.push_back(std::move(window));
  }
  return out;
}

CampaignSummary merge_campaign_windows(const std::vector<CampaignSummary>& windows,
                                       const std::vector<double>& measured_s) {
  if (windows.empty() || windows.size() != measured_s.size())
    throw std::invalid_argument("merge_campaign_windows: one measured span per window");
  CampaignSummary merged;
  merged.scale = windows.front().scale;
  merged.histogram_bin_s = windows.front().histogram_bin_s;
  double total_s = 0.0;
  for (std::size_t k = 0; k < windows.size(); ++k) {
    const CampaignSummary& w = windows[k];
    total_s += measured_s[k];
    merged.mean_running_jobs += w.mean_running_jobs * measured_s[k];
    merged.mean_outbound_gbps += w.mean_outbound_gbps * measured_s[k];
    merged.events_completed_full_scale += w.events_completed_full_scale;
    merged.fit_jobs.insert(merged.fit_jobs.end(), w.fit_jobs.begin(), w.fit_jobs.end());
    merged.fit_gbps.insert(merged.fit_gbps.end(), w.fit_gbps.begin(), w.fit_gbps.end());
    merged.saturated_intervals += w.saturated_intervals;
    merged.transient_intervals += w.transient_intervals;
    if (merged.event_time_counts.size() < w.event_time_counts.size())
      merged.event_time_counts.resize(w.event_time_counts.size(), 0.0);
    for (std::size_t bin = 0; bin < w.event_time_counts.size(); ++bin)
      merged.event_time_counts[bin] += w.event_time_counts[bin];
  }
  merged.mean_running_jobs /= total_s;
  merged.mean_outbound_gbps /= total_s;
  fit_campaign_traffic(merged);
  merged.event_time_peaks = find_peaks(merged.event_time_counts, merged.histogram_bin_s);
  return merged;
}

} // namespace sonicsim::analysis
