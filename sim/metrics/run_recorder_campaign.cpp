// The campaign-mode part of RunRecorder: the per-event time histogram and its peaks, running jobs and
// outbound traffic per interval, and the intervals the operators' straight line of outbound traffic against
// running jobs is fitted to (the fit itself: sim/analysis/campaign_traffic_fit.hpp).
#include "sim/metrics/run_recorder.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numeric>
#include <ostream>
#include <stdexcept>
#include <utility>

namespace sonicsim {
namespace {
// Relative change of the running jobs between consecutive intervals above which an interval is a transient.
constexpr double transient_change = 0.10;
} // namespace

const RunRecorder::TrackedLink* RunRecorder::site_outbound() const {
  for (const auto& link : links_)
    if (link.link.kind == LinkKind::site_outbound) return &link;
  return nullptr;
}

double RunRecorder::full_scale() const {
  return scenario_.workload.campaign ? 1.0 / scenario_.workload.campaign->scale : 1.0;
}

CampaignSummary RunRecorder::summarize_campaign(const RunSummary& summary) const {
  const Campaign& campaign = *scenario_.workload.campaign;
  CampaignSummary out;
  out.scale = campaign.scale;
  out.histogram_bin_s = campaign.histogram_bin_s;
  out.events_completed_full_scale = static_cast<double>(summary.events_completed) * full_scale();
  out.event_time_counts = event_time_counts_;
  out.event_time_peaks = find_peaks(event_time_counts_, campaign.histogram_bin_s);
  const double window_s = std::max(summary.window_end_s - summary.window_start_s, 1e-12);
  out.mean_running_jobs =
      jobs_running_s_.sum_between(summary.window_start_s, summary.window_end_s) / window_s * full_scale();

  const TrackedLink* outbound = site_outbound();
  if (!outbound || !outbound->bytes_over_time) return out;
  out.mean_outbound_gbps =
      8.0 * outbound->bytes_over_time->sum_between(summary.window_start_s, summary.window_end_s) / window_s /
      1e9 * full_scale();

  // Whole intervals of the time series inside the window, as the operators' monitoring binned them.
  const double interval_s = scenario_.output.timeseries_interval_s;
  std::vector<double> jobs, gbps;
  const auto running_jobs_in = [&](double from_s) {
    return jobs_running_s_.sum_between(from_s, from_s + interval_s) / interval_s;
  };
  const double first_s = std::ceil(summary.window_start_s / interval_s) * interval_s;
  double before = running_jobs_in(first_s - interval_s); // running jobs in the interval before t
  for (double t = first_s; t + interval_s <= summary.window_end_s + 1e-9; t += interval_s) {
    const double running = running_jobs_in(t);
    const double running_before = std::exchange(before, running);
    const double simulated_gbps =
        8.0 * outbound->bytes_over_time->sum_between(t, t + interval_s) / interval_s / 1e9;
    if (simulated_gbps * 1e9 >= saturation_threshold * outbound->link.capacity_bps) {
      ++out.saturated_intervals;
      continue;
    }
    // Jobs send their first inputs only after their first CPU modules, so for about one event after the slots
    // change the traffic lags the running jobs: such intervals would pull the line towards the lag, not the
    // jobs' traffic. An interval is left out when the running jobs moved by more than 10 % since the one
    // before.
    if (std::abs(running - running_before) > transient_change * std::max(running_before, 1.0)) {
      ++out.transient_intervals;
      continue;
    }
    jobs.push_back(running * full_scale());
    gbps.push_back(simulated_gbps * full_scale());
  }
  out.fit_jobs = std::move(jobs);
  out.fit_gbps = std::move(gbps);
  return out;
}

void RunRecorder::write_event_histogram_csv(std::ostream& out) const {
  if (!scenario_.workload.campaign) return;
  const double bin_s = scenario_.workload.campaign->histogram_bin_s;
  const PeakRule rule;
  const std::vector<double> smoothed = smooth_counts(event_time_counts_, rule.smoothing_sigma_bins);
  out << "bin_start_s,bin_end_s,events,smoothed_events\n" << std::setprecision(9);
  for (std::size_t i = 0; i < event_time_counts_.size(); ++i)
    out << static_cast<double>(i) * bin_s << ',' << static_cast<double>(i + 1) * bin_s << ','
        << event_time_counts_[i] << ',' << smoothed[i] << '\n';
}

void RunRecorder::write_campaign_csv(std::ostream& out) const {
  if (!scenario_.workload.campaign) return;
  const TrackedLink* outbound = site_outbound();
  const double interval_s = row_interval_s();
  out << "time_s,jobs_running,site_switch_out_gbps\n" << std::setprecision(9);
  const double end_s =
      std::max(jobs_running_s_.horizon_s(),
               outbound && outbound->bytes_over_time ? outbound->bytes_over_time->horizon_s() : 0.0);
  for (double t = 0.0; t < end_s; t += interval_s) {
    const double gbps =
        outbound && outbound->bytes_over_time
            ? 8.0 * outbound->bytes_over_time->sum_between(t, t + interval_s) / interval_s / 1e9
            : 0.0;
    out << t << ',' << jobs_running_s_.sum_between(t, t + interval_s) / interval_s * full_scale() << ','
        << gbps * full_scale() << '\n';
  }
}

} // namespace sonicsim
