// Records what happens during one run (events, batches, transfers, rejections) and reduces it to the summary
// a user reads. Pure code: the SimGrid actors call it with times they read from the engine. Memory is bounded
// by the number of jobs, links and time bins, not by the number of events: per-event rows are streamed to
// events.csv as they happen and percentiles come from log-binned histograms.
#pragma once

#include "sim/metrics/link_descriptor.hpp"
#include "sim/metrics/log_histogram.hpp"
#include "sim/metrics/operations_recorder.hpp"
#include "sim/metrics/run_summary.hpp"
#include "sim/metrics/server_metrics.hpp"
#include "sim/metrics/time_bins.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/server_layout.hpp"

#include <cstdint>
#include <iosfwd>
#include <memory>
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
  // What became of it (runs with operations: events.csv's outcome column).
  EventOutcome outcome = EventOutcome::completed;
};

enum class Rejection { queue_full, timeout, too_large };

class RunRecorder {
public:
  // `links` are the links whose load is tracked, as the platform describes them; a transfer names them by
  // their index in that list. Worker NICs are many: they keep totals only (no time series). events_csv may be
  // null (benchmarks); when given, a header and one row per event are written to it.
  RunRecorder(const Scenario& scenario, const ServerLayout& layout, const std::vector<LinkDescriptor>& links,
              std::ostream* events_csv);

  void record_transfer(const std::vector<LinkId>& links, double bytes, double start_s, double end_s);
  void record_bytes_to_servers(double bytes) { bytes_to_servers_ += bytes; }
  void record_bytes_from_servers(double bytes) { bytes_from_servers_ += bytes; }

  void record_request_sent() { ++requests_sent_; }
  void record_retry() { ++retries_; }
  void record_rejection(Rejection why);
  // One executed batch of model `model` (its index in the layout's served_models) on a pod of group `group`:
  // its size, how many requests it merged and their summed time in the queue.
  void record_batch(int model, int group, double start_s, double end_s, int batch_size, int request_count,
                    double queue_wait_sum_s);
  // A pod's server of model `model` has this many Triton instances (called once per pod and model).
  void add_instances(int model, int instances);
  // One instance of model `model` was held from start to end: from taking a batch to answering it (input
  // handling, waiting for its device, execution, output handling), the serial work of a Triton instance.
  void record_instance_held(int model, double start_s, double end_s);
  // Device `device` (numbered over all groups, pod by pod) of group `group` executed a batch from start to
  // end.
  void record_device_busy(int group, int device, double start_s, double end_s);
  // A host core of a pod of group `group` was busy (request handling or a CPU instance) from start to end.
  void record_host_busy(int group, double start_s, double end_s);

  void record_event(const EventRecord& event);
  void record_job(double start_s, double warmup_end_s, double end_s);
  // A job of a fixed run has no event left to start (its first thread to find none; with one thread, its
  // end): the steady-state window closes at the first such time, where the precision rule judged the run's
  // length (sim/components/run_length.hpp), so the run's intervals are the ones it judged.
  void record_job_ran_out(double now_s);
  // A job's warm-up events have all ended (fixed runs): the steady-state window can start once every job's
  // have.
  void record_job_ready(double warmup_end_s);
  // The precision of the headline figures over the steady-state window up to now (the precision rule's
  // check while the run goes on, sim/components/run_length.hpp); not steady before every job is ready.
  RunPrecision precision_so_far(double now_s) const;
  // Every job of a fixed run has warmed up: its steady-state window is open.
  bool all_jobs_ready() const { return jobs_ready_ >= scenario_.workload.jobs; }
  // The end of the rate series' time bin that holds `time_s` (time_s itself on a bin's edge): a run that
  // stops there has every bin its window reads complete.
  double bin_end_after(double time_s) const;
  // Campaign mode: a grid slot held by a job from start to end (adds to jobs_running only).
  void record_job_interval(double start_s, double end_s);
  // Campaign mode: the measurement window is fixed (after the warm-up, up to the end of the run).
  void set_measurement_window(double start_s, double end_s);

  // Events ended so far (measured, in warm-up or failed): how far a run is.
  std::uint64_t events_ended() const { return events_completed_ + events_failed_ + events_warmup_; }

  // Per-event time histogram (campaign mode: fixed bins of campaign.histogram_bin; empty otherwise).
  const std::vector<double>& event_time_counts() const { return event_time_counts_; }
  void write_event_histogram_csv(std::ostream& out) const;
  // Running jobs and outbound Gb/s per time-series interval, at full scale.
  void write_campaign_csv(std::ostream& out) const;

  // The operations' recorder, in runs whose scenario has operations (OperationsRecorder::wanted); null
  // otherwise, and every caller checks, so a run without them pays one comparison.
  OperationsRecorder* operations() { return operations_.get(); }
  // Ends the operations' integrals at the run's end; call before summarize().
  void finish_operations(double end_s) {
    if (operations_) operations_->finish(end_s);
  }

  RunSummary summarize(double simulated_end_s) const;
  void write_timeseries_csv(std::ostream& out) const;

  // The servers' metrics as SuperSONIC's Prometheus holds them (sim/metrics/server_metrics.hpp, per pod,
  // model and device, sampled every `interval_s`), plus the jobs, events and links under sonicsim names
  // (run_recorder_openmetrics.cpp): recorded only once enabled, so that a run without them pays nothing.
  // Written in the OpenMetrics text format, stamped from start_epoch_s.
  void enable_openmetrics(double interval_s);
  void write_openmetrics(std::ostream& out, double start_epoch_s) const;
  // None unless enabled: the servers and pools feed it (batches as they are answered, pods as they start
  // and stop).
  ServerMetrics* server_metrics() { return server_metrics_ ? &*server_metrics_ : nullptr; }

  // timeseries.csv holds at most this many rows; a longer run gets rows a whole multiple of
  // output.timeseries_interval apart (and says so in its warnings).
  static constexpr std::size_t max_timeseries_rows = 1'000'000;
  // The campaign's event-time histogram holds at most this many bins (8 MB); longer events are counted apart.
  static constexpr std::size_t max_histogram_bins = 1'000'000;

private:
  CampaignSummary summarize_campaign(const RunSummary& summary) const;
  double horizon_s() const;      // simulated time covered by the time series
  double row_interval_s() const; // the time between rows of timeseries.csv and campaign.csv
  double full_scale() const;
  // Device-seconds the groups held between two times (width_s apart): every device, or, in a pooled group,
  // the held pods'.
  double device_seconds(double start_s, double end_s, double width_s) const;
  struct TrackedLink {
    LinkDescriptor link;
    double bytes = 0.0;
    std::optional<TimeBins> bytes_over_time; // shared links only
  };
  // The site switch's outbound direction (campaign figures), if the platform has one.
  const TrackedLink* site_outbound() const;
  void summarize_servers(RunSummary& summary, double window_s) const;
  void summarize_models(RunSummary& summary, double window_s) const; // each served model's usage
  void summarize_groups(RunSummary& summary, double window_s) const; // each server group's, and its limit
  void summarize_links(RunSummary& summary, double window_s, double simulated_end_s) const;
  void name_bottleneck(RunSummary& summary) const;
  // run_recorder_precision.cpp
  RunPrecision precision_over(double start_s, double end_s, bool steady) const;
  const Scenario& scenario_;
  ServerLayout layout_;
  int gpu_count_;
  struct ModelCounters {
    std::uint64_t batches = 0;
    double inferences = 0.0;
    TimeBins busy_s;
    TimeBins instance_held_s;
    int instances = 0; // over every pod
  };
  std::vector<ModelCounters> model_counters_; // per served model
  std::vector<TimeBins> group_device_busy_s_; // per server group
  std::vector<TimeBins> group_host_busy_s_;   // per server group
  // Per server group, by batch start: requests taken, their summed queue wait, batches and their summed time
  // from start to end (how long a request waits against how long a batch takes: its saturation check).
  struct GroupQueue {
    TimeBins requests, queue_wait_s, batches, batch_s;
  };
  std::vector<GroupQueue> group_queues_;
  std::vector<std::uint64_t> device_batches_; // per device, whole run
  std::vector<double> device_busy_s_;         // per device, whole run
  std::ostream* events_csv_;
  std::string events_csv_row_; // one row of events.csv, built before it is written (its buffer kept)
  double bin_width_s_;
  std::vector<TrackedLink> links_;
  // Module and event times: of every measured event, and (output.stop_at_window_end only, so that no other
  // run holds the histograms) of those ending inside the steady-state window, the whole run's standing in
  // when it has none.
  struct TimeHistograms {
    std::vector<LogHistogram> modules;
    LogHistogram event;
    void add(const EventRecord& event);
  };
  TimeHistograms all_times_;
  std::optional<TimeHistograms> window_times_;
  bool in_window(double end_s) const;
  // The steady-state window's end as far as known: the first job to run out of events (or to end); none yet.
  std::optional<double> window_end_s() const;
  std::uint64_t events_completed_ = 0, events_failed_ = 0, events_warmup_ = 0;
  std::uint64_t requests_sent_ = 0, retries_ = 0;
  std::uint64_t rejected_queue_full_ = 0, rejected_timeout_ = 0, rejected_too_large_ = 0;
  std::uint64_t batches_ = 0, requests_in_batches_ = 0;
  double inferences_in_batches_ = 0.0, queue_wait_sum_s_ = 0.0;
  double bytes_to_servers_ = 0.0, bytes_from_servers_ = 0.0;
  TimeBins inferences_;     // nv_inference_count
  TimeBins batches_binned_; // nv_inference_exec_count
  TimeBins queue_wait_us_;  // nv_inference_queue_duration_us
  TimeBins gpu_busy_s_;     // busy GPU-seconds
  TimeBins jobs_running_s_; // job-seconds
  TimeBins events_done_;    // completed events (outside warm-up)
  // The headline figures at a resolution the batch means can cut a short window with: a few thousand bins
  // over the whole run, however long (run_recorder_precision.cpp).
  struct PrecisionBins {
    TimeBins events, event_time_s, served_module_time_s, gpu_busy_s;
  };
  PrecisionBins precision_bins_;
  std::vector<bool> served_module_;    // per pipeline module: it calls a server (module_mean_s sums these)
  double latest_job_ready_s_ = 0.0;    // latest warm-up end over jobs
  int jobs_ready_ = 0;                 // jobs whose warm-up has ended (record_job_ready)
  double latest_ready_so_far_s_ = 0.0; // the latest of their warm-up ends
  std::optional<double> earliest_job_end_s_; // earliest job end; none before the first job ends
  std::optional<double> first_ran_out_s_;    // record_job_ran_out's earliest; none before
  std::optional<double> first_job_start_s_;
  std::optional<std::pair<double, double>> fixed_window_s_;
  std::vector<double> event_time_counts_;
  std::uint64_t events_beyond_histogram_ = 0;
  std::optional<ServerMetrics> server_metrics_;
  std::unique_ptr<OperationsRecorder> operations_;
};

} // namespace sonicsim
