// What a run reports: the summary a user reads and summary.json holds, reduced by the RunRecorder from what
// happened. Plain data, no behaviour: the printer, the JSON writer, sweeps, plans and validation read it.
#pragma once

#include "sim/metrics/batch_means.hpp"
#include "sim/metrics/histogram_peaks.hpp"
#include "sim/metrics/operations_summary.hpp"
#include "sim/scenario/server_layout.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sonicsim {

struct TimeStatistics {
  std::uint64_t count = 0;
  double mean_s = 0.0, p50_s = 0.0, p95_s = 0.0, p99_s = 0.0, min_s = 0.0, max_s = 0.0;
};

struct LinkUsage {
  std::string name;
  double capacity_bps = 0.0;
  double bytes = 0.0;       // over the whole run
  double utilisation = 0.0; // mean over the measurement window
  ResourceKind kind = ResourceKind::site_switch;
  std::optional<int> group; // pod NICs: their server group's index
};

// Campaign mode: what the 2022 operators looked at, reported at full scale (simulated values /
// campaign.scale).
struct CampaignSummary {
  double scale = 1.0;
  double mean_running_jobs = 0.0;  // over the measurement window
  double mean_outbound_gbps = 0.0; // site switch, outbound, over the window
  double events_completed_full_scale = 0.0;
  // The intervals of the window in which the switch was below the saturation threshold (on the capacity
  // ceiling the traffic no longer follows the jobs) and the running jobs were steady: running jobs and
  // outbound Gb/s of each, at full scale. The recorder selects them; the traffic line below is fitted to them
  // (sim/analysis/campaign_traffic_fit.hpp).
  std::vector<double> fit_jobs, fit_gbps;
  // Outbound Gb/s = intercept + slope x running jobs, least squares over those intervals. slope: Gb/s per
  // job = data per event / time per event; intercept: background.
  bool fit_valid = false; // fewer than 3 usable intervals, or running jobs never changed
  double slope_gbps_per_job = 0.0;
  double intercept_gbps = 0.0;
  // Standard errors of the fit, from the scatter of its residuals, widened for their correlation from one
  // interval to the next (campaign_traffic_fit.cpp).
  double slope_se_gbps_per_job = 0.0;
  double intercept_se_gbps = 0.0;
  double fit_residual_lag1 = 0.0; // lag-1 autocorrelation of the residuals, in time order
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
  std::vector<double> event_time_counts;       // the histogram: measured events per bin, from 0 s
  std::vector<HistogramPeak> event_time_peaks; // see histogram_peaks.hpp for the rule
};

// One model's work on the servers (Triton's per-model nv_inference_exec_count and nv_inference_count).
struct ModelServerUsage {
  std::string model;
  std::uint64_t batches = 0;     // executed batches over the whole run
  double inferences = 0.0;       // in those batches
  double busy_device_s = 0.0;    // device-seconds (or core-seconds on CPU) of its batches in the window
  double share_of_devices = 0.0; // busy_device_s / (devices of its groups x window)
  int instances = 0;             // Triton instances over every pod
  // Instance-seconds held (from taking a batch to answering it) / (instances x window): the serial work of
  // an instance, at least its device's share, more when host work or a shared device adds to it.
  double instance_occupancy = 0.0;
};

// One server group's resources over the window, and the busiest of them. device_utilisation has the
// meaning of Triton's nv_gpu_utilization averaged over the group's devices: the fraction of time a device
// was executing a batch.
// A shared resource busier than this counts as saturated (the bottleneck).
constexpr double saturation_threshold = 0.9;

// The busiest shared resource of a run over its window, and whether it holds the jobs back. Code compares
// the kind, the group and saturated(); `busiest` and sentence() are made for people (and the files they
// read).
struct Bottleneck {
  ResourceKind kind = ResourceKind::device_pool;
  std::optional<int> group; // a server group's devices, host cores or pod NICs: its index
  std::string busiest;      // as displayed: "GPU pool", "host cores", "devices of <group>", a link's name
  double utilisation = 0.0;
  // The same resource (links of one kind and group differ by name: each pod NIC is its own).
  bool same_resource(const Bottleneck& other) const {
    return kind == other.kind && group == other.group && busiest == other.busiest;
  }
  bool saturated() const { return utilisation >= saturation_threshold; }
  // "GPU pool" when saturated; below the threshold the jobs' own CPUs set the pace:
  // "none (jobs' own CPUs; busiest shared resource: GPU pool)".
  std::string sentence() const {
    return saturated() ? busiest : "none (jobs' own CPUs; busiest shared resource: " + busiest + ")";
  }
};

struct ServerGroupUsage {
  std::string name;
  std::string device_type;
  int pods = 0;
  int devices = 0;
  int host_cores = 0;
  double device_utilisation = 0.0;
  double host_utilisation = 0.0;   // busy core-seconds / (cores x window): request handling and CPU instances
  double nic_in_utilisation = 0.0; // its pods' NICs, requests in, mean over pods
  // The busiest of the three: its kind (device_pool, host_cores or pod_nics), the group's index, the name the
  // bottleneck uses and its utilisation.
  Bottleneck limit;
  // Per device, pod by pod, over the whole run: executed batches and busy seconds.
  std::vector<std::uint64_t> device_batches;
  std::vector<double> device_busy_s;
  // Its own saturation point: the requests its batches took in the window, their mean wait in its queues and
  // a batch's mean time from start to end (0 without batches: files written before these were kept).
  double requests = 0.0;
  double mean_queue_wait_s = 0.0;
  double mean_batch_s = 0.0;
  // Past its saturation point: a request waits longer than past_saturation_batches of its batches. Below it
  // a request waits at most for the batch in progress and then rides the next; longer means more requests
  // queued than its instances' next batches take (the batcher's limit binds), so the group serves at its
  // most and what it adds to an event grows with the load.
  bool past_saturation() const;
};

// How many batches' time in the queue marks a group past its saturation point (ServerGroupUsage).
constexpr double past_saturation_batches = 2.0;

inline bool ServerGroupUsage::past_saturation() const {
  return mean_batch_s > 0.0 && mean_queue_wait_s > past_saturation_batches * mean_batch_s;
}

// The same jobs with every model run on their own CPU (workload.inference: direct): the baseline SONIC's gain
// is quoted against (arXiv:2402.15366). Throughput per job on both sides is the completions per second per
// job in each run's steady-state window, the figure `run` prints, each run held to the precision rule.
struct DirectInferenceComparison {
  double event_mean_s = 0.0;                 // mean time per event, direct inference
  double events_per_s_per_job = 0.0;         // direct inference
  double service_events_per_s_per_job = 0.0; // this run
  double gain = 0.0; // service / direct - 1 (0.05: 5 % more events per second per job)
};

// How precisely one run measured its headline figures over its steady-state window (events_per_s,
// event_mean_s, module_mean_s, gpu_utilisation), by batch means (batch_means.hpp), and what the precision
// rule made of it: a run whose 95 % intervals are wider than output.precision (relative) is run again with
// more events per job, up to output.max_extension times what the scenario wrote (sim/engine/simulation.cpp).
struct RunPrecision {
  bool applies = true; // false in a campaign: its window is the campaign's own time, not a steady state
  double target_relative = 0.0; // output.precision; 0: the rule is off
  BatchMeans intervals;
  bool met = false; // every held figure's relative half-width is within the target
  // output.precision_figures: the figures the rule holds (empty: every figure measured).
  std::vector<std::string> held;
  // The measured figures the rule holds: those of `held` the run measured, or, when it names none of them,
  // every figure measured.
  std::vector<const BatchMeansFigure*> ruled() const;
  int events_per_job = 0;         // of the run reported
  int events_per_job_written = 0; // in the scenario
  int extensions = 0;             // runs discarded for being too short
  // The steady-state window judged: from the last job's warm-up to the check (0, 0: not known). The window
  // opens at the same date however long the jobs run, so a longer run widens it by more than its factor.
  double window_start_s = 0.0, window_end_s = 0.0;
  // The run stopped short of the rule because a figure's interval lay wholly beyond a bound of
  // output.stop_beyond: which, in words ("module_mean_s 17.9 +- 2.1 above 12"); empty otherwise.
  std::string stopped_beyond;
  // Why the target was not met: the widest figure, or the batch-means problem.
  std::string shortfall() const;
  // The rule applies and the run did not reach it, even extended, nor stopped beyond a bound: its figures
  // are not evidence.
  bool too_short() const { return applies && target_relative > 0 && !met && stopped_beyond.empty(); }
};

// How the engine timed a run (summary.json's network.flows, calendar_events and links_left_out; `run
// --verbose`), filled as one record when the run ends.
struct EngineCounts {
  // Flows of the jobs (requests, and replies too large to skip): started without SimGrid's solver (at their
  // cap, or shared on one full link) or in SimGrid; of the first, those handed to SimGrid when a link of
  // theirs filled up, those shared on one full link, and of those the ones moved to SimGrid when a flow there
  // needed it (sim/kernel/kernel_flows.hpp).
  std::uint64_t flows_fast = 0, flows_simgrid = 0, flows_handed = 0;
  std::uint64_t flows_shared = 0, flows_unshared = 0;
  // Every flow, and those timed without SimGrid's solver from start to end (never moved to it).
  std::uint64_t flows() const { return flows_fast + flows_simgrid; }
  std::uint64_t flows_without_solver() const { return flows_fast - flows_handed - flows_unshared; }
  // Classes of identical flows in SimGrid (kernel_flows.hpp) and the SimGrid comms they took: the flows in
  // SimGrid cost the solver this many comms instead of one each.
  std::uint64_t flow_classes = 0, flow_class_comms = 0;
  // The calendar's events (sim/kernel/event_calendar.hpp), and of them those run without stepping SimGrid.
  std::uint64_t calendar_events = 0, calendar_events_without_simgrid = 0;
  std::string links_left_out; // links never saturated, left out of SimGrid's routes (empty: none)
};

struct RunSummary {
  // Steady-state window: from the moment every job has finished its warm-up to the moment the first job ends.
  double window_start_s = 0.0;
  double window_end_s = 0.0;
  bool steady_state_window = true; // false: the window was empty and the whole run was used instead
  double simulated_end_s = 0.0;
  // The run stopped at its window's end (sim/components/window_stop.hpp): the jobs' remaining events, after
  // the window, were not simulated (output.stop_at_window_end).
  bool stopped_at_window_end = false;

  std::vector<std::pair<std::string, TimeStatistics>> modules;
  TimeStatistics event;
  std::uint64_t events_completed = 0; // outside warm-up, not failed
  std::uint64_t events_failed = 0;
  std::uint64_t events_warmup = 0;
  double events_per_s = 0.0;         // completions in the window per second
  double events_per_s_per_job = 0.0; // events_per_s / jobs (CMS's figure of merit for multi-threaded jobs)
  double inferences_per_s = 0.0;     // server-side inferences in the window per second
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
  double gpu_utilisation = 0.0; // busy GPU-seconds / (GPUs x window), over every group's devices
  int gpus = 0;
  std::vector<ModelServerUsage> model_usage; // per model served, in ServerLayout order
  std::vector<ServerGroupUsage> group_usage; // per server group, in the order written
  double bytes_to_servers = 0.0;
  double bytes_from_servers = 0.0;
  EngineCounts engine;                     // how the engine timed the run
  std::vector<LinkUsage> links;            // each shared link, then the busiest worker NIC
  Bottleneck bottleneck;                   // the shared resource with the highest utilisation in the window
  std::optional<CampaignSummary> campaign; // campaign mode only
  std::optional<DirectInferenceComparison> direct_inference; // when every remote module has a direct time
  std::optional<OperationsSummary> operations;               // when the scenario has operations
  RunPrecision precision;
  std::vector<std::string> warnings; // conditions under which a result should not be trusted as is
};

// One simulation run as a caller that runs several sees it (a child process's result).
struct SimulationOutcome {
  bool ok = false;
  RunSummary summary; // when ok
  std::string error;  // when not ok
  double wall_clock_s = 0.0;
};

} // namespace sonicsim
