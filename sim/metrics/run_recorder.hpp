// Records what happens during one run (events, batches, transfers, rejections) and reduces it to the summary
// a user reads. Pure code: the SimGrid actors call it with times they read from the engine. Memory is bounded
// by the number of jobs, links and time bins, not by the number of events: per-event rows are streamed to
// events.csv as they happen and percentiles come from log-binned histograms.
#pragma once

#include "sim/metrics/histogram_peaks.hpp"
#include "sim/metrics/log_histogram.hpp"
#include "sim/metrics/time_bins.hpp"
#include "sim/scenario/scenario.hpp"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

struct EventRecord {
  int job = 0;
  int event_index = 0;
  double start_s = 0.0;
  double end_s = 0.0;
  std::vector<double> module_s; // one time per pipeline module, in pipeline order
  int requests = 0;             // requests sent (including retries)
  int retries = 0;
  std::int64_t inferences = 0;
  bool failed = false; // a request was rejected more often than the client retries
  bool warmup = false; // among the job's first warmup_events: left out of the statistics
};

struct TimeStatistics {
  std::uint64_t count = 0;
  double mean_s = 0.0, p50_s = 0.0, p95_s = 0.0, p99_s = 0.0, min_s = 0.0, max_s = 0.0;
};

struct LinkUsage {
  std::string name;
  double capacity_bps = 0.0;
  double bytes = 0.0;       // over the whole run
  double utilisation = 0.0; // mean over the measurement window
};

// Campaign mode: what the 2022 operators looked at, reported at full scale (simulated values /
// campaign.scale).
struct CampaignSummary {
  double scale = 1.0;
  double mean_running_jobs = 0.0;  // over the measurement window
  double mean_outbound_gbps = 0.0; // site switch, outbound, over the window
  double events_completed_full_scale = 0.0;
  // Outbound Gb/s = intercept + slope x running jobs, least squares over the time-series intervals of the
  // window in which the switch was below the saturation threshold (on the capacity ceiling the traffic no
  // longer follows the jobs) and the running jobs were steady. slope: Gb/s per job = data per event / time
  // per event; intercept: background.
  bool fit_valid = false; // fewer than 3 usable intervals, or running jobs never changed
  double slope_gbps_per_job = 0.0;
  double intercept_gbps = 0.0;
  double slope_se_gbps_per_job = 0.0; // standard errors of the fit, from the scatter of its residuals
  double intercept_se_gbps = 0.0;
  double fit_r_squared = 0.0;
  std::uint64_t fit_intervals = 0;
  double fit_jobs_min = 0.0, fit_jobs_max = 0.0;   // range of running jobs over the fitted intervals
  double fit_mean_jobs = 0.0, fit_mean_gbps = 0.0; // their means
  // The line means something: the running jobs spanned at least 20 % of their maximum and the slope's
  // standard error is at most 25 % of it. Otherwise the slope is set by the noise of a narrow cloud of
  // points.
  bool fit_determined = false;
  std::uint64_t saturated_intervals = 0; // left out of the fit
  std::uint64_t transient_intervals = 0; // left out too: running jobs moved > 10 % since the interval before
  double histogram_bin_s = 1.0;
  std::vector<HistogramPeak> event_time_peaks; // see histogram_peaks.hpp for the rule
};

struct RunSummary {
  // Steady-state window: from the moment every job has finished its warm-up to the moment the first job ends.
  double window_start_s = 0.0;
  double window_end_s = 0.0;
  bool steady_state_window = true; // false: the window was empty and the whole run was used instead
  double simulated_end_s = 0.0;

  std::vector<std::pair<std::string, TimeStatistics>> modules;
  TimeStatistics event;
  std::uint64_t events_completed = 0; // outside warm-up, not failed
  std::uint64_t events_failed = 0;
  std::uint64_t events_warmup = 0;
  double events_per_s = 0.0;     // completions in the window per second
  double inferences_per_s = 0.0; // server-side inferences in the window per second
  std::uint64_t requests_sent = 0;
  std::uint64_t requests_rejected = 0;
  std::uint64_t requests_rejected_queue_full = 0;
  std::uint64_t requests_rejected_timeout = 0;
  std::uint64_t requests_rejected_too_large = 0;
  std::uint64_t retries = 0;
  std::uint64_t batches_executed = 0;
  double mean_executed_batch = 0.0;
  double mean_request_size = 0.0;
  double mean_queue_wait_s = 0.0;
  double gpu_utilisation = 0.0; // busy GPU-seconds / (GPUs x window)
  int gpus = 0;
  double bytes_to_servers = 0.0;
  double bytes_from_servers = 0.0;
  std::vector<LinkUsage> links; // each shared link, then the busiest worker NIC
  std::string bottleneck;       // the resource with the highest utilisation in the window
  double bottleneck_utilisation = 0.0;
  std::optional<CampaignSummary> campaign; // campaign mode only
  std::vector<std::string> warnings;       // conditions under which a result should not be trusted as is
};

// A shared resource busier than this counts as saturated (the bottleneck).
constexpr double saturation_threshold = 0.9;

enum class Rejection { queue_full, timeout, too_large };

class RunRecorder {
public:
  // events_csv may be null (benchmarks); when given, a header and one row per event are written to it.
  RunRecorder(const Scenario& scenario, int gpu_count, std::ostream* events_csv);

  // Links whose load is tracked. Worker NICs are many: they keep totals only (no time series).
  // worker_nic: utilisation over the whole run, no time series (there are thousands); shared: a time series;
  // replies_only: shared, and on the inbound path that only replies use (pod NIC out, WAN and switch in).
  enum class LinkKind { worker_nic, shared, replies_only };
  int add_link(const std::string& name, double capacity_bps, LinkKind kind);
  void record_transfer(const std::vector<int>& link_ids, double bytes, double start_s, double end_s);
  void record_bytes_to_servers(double bytes) { bytes_to_servers_ += bytes; }
  void record_bytes_from_servers(double bytes) { bytes_from_servers_ += bytes; }

  void record_request_sent() { ++requests_sent_; }
  void record_retry() { ++retries_; }
  void record_rejection(Rejection why);
  // One executed batch: its size, how many requests it merged and their summed time in the queue.
  void record_batch(double start_s, double end_s, int batch_size, int request_count, double queue_wait_sum_s);
  // A GPU was busy (running at least one batch) from start to end.
  void record_gpu_busy(double start_s, double end_s);

  void record_event(const EventRecord& event);
  void record_job(double start_s, double warmup_end_s, double end_s);
  // Campaign mode: a grid slot held by a job from start to end (adds to jobs_running only).
  void record_job_interval(double start_s, double end_s);
  // Campaign mode: the measurement window is fixed (after the warm-up, up to the end of the run).
  void set_measurement_window(double start_s, double end_s);

  // Per-event time histogram (campaign mode: fixed bins of campaign.histogram_bin; empty otherwise).
  const std::vector<double>& event_time_counts() const { return event_time_counts_; }
  void write_event_histogram_csv(std::ostream& out) const;
  // Running jobs and outbound Gb/s per time-series interval, at full scale.
  void write_campaign_csv(std::ostream& out) const;

  RunSummary summarize(double simulated_end_s) const;
  void write_timeseries_csv(std::ostream& out) const;

private:
  CampaignSummary summarize_campaign(const RunSummary& summary) const;
  double full_scale() const;
  struct TrackedLink {
    std::string name;
    double capacity_bps;
    LinkKind kind;
    double bytes = 0.0;
    std::optional<TimeBins> bytes_over_time;
  };
  const Scenario& scenario_;
  int gpu_count_;
  std::ostream* events_csv_;
  double bin_width_s_;
  std::vector<TrackedLink> links_;
  std::vector<LogHistogram> module_histograms_;
  LogHistogram event_histogram_;
  std::uint64_t events_completed_ = 0, events_failed_ = 0, events_warmup_ = 0;
  std::uint64_t requests_sent_ = 0, retries_ = 0;
  std::uint64_t rejected_queue_full_ = 0, rejected_timeout_ = 0, rejected_too_large_ = 0;
  std::uint64_t batches_ = 0, requests_in_batches_ = 0;
  double inferences_in_batches_ = 0.0, queue_wait_sum_s_ = 0.0;
  double bytes_to_servers_ = 0.0, bytes_from_servers_ = 0.0;
  TimeBins inferences_;              // nv_inference_count
  TimeBins batches_binned_;          // nv_inference_exec_count
  TimeBins queue_wait_us_;           // nv_inference_queue_duration_us
  TimeBins gpu_busy_s_;              // busy GPU-seconds
  TimeBins jobs_running_s_;          // job-seconds
  TimeBins events_done_;             // completed events (outside warm-up)
  double latest_job_ready_s_ = 0.0;  // latest warm-up end over jobs
  double earliest_job_end_s_ = -1.0; // earliest job end
  double first_job_start_s_ = -1.0;
  std::optional<std::pair<double, double>> fixed_window_s_;
  std::vector<double> event_time_counts_;
};

} // namespace sonicsim
