#include "sim/metrics/run_recorder.hpp"

#include "sim/metrics/events_csv.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>

namespace sonicsim {
namespace {

// The precision bins start at 1 ms and double their width whenever the run outgrows 4,096 of them.
constexpr double precision_bin_width_s = 1e-3;
constexpr std::size_t precision_bin_limit = 4096;

// Internal resolution of the time bins: a tenth of the output interval, so the steady-state window (which
// does not fall on interval boundaries) is cut finely, but never finer than 0.1 s to bound memory on long
// runs.
double internal_bin_width_s(double interval_s) {
  return std::max(0.1, interval_s / 10.0);
}

TimeStatistics statistics_of(const LogHistogram& histogram) {
  TimeStatistics stats;
  stats.count = histogram.count();
  stats.mean_s = histogram.mean();
  stats.p50_s = histogram.quantile(0.50);
  stats.p95_s = histogram.quantile(0.95);
  stats.p99_s = histogram.quantile(0.99);
  stats.min_s = histogram.min();
  stats.max_s = histogram.max();
  return stats;
}

int device_count(const Scenario& scenario) {
  int devices = 0;
  for (const auto& group : scenario.platform.server_groups)
    devices += group.devices();
  return devices;
}

} // namespace

RunRecorder::RunRecorder(const Scenario& scenario, const ServerLayout& layout,
                         const std::vector<LinkDescriptor>& links, std::ostream* events_csv)
    : scenario_(scenario), layout_(layout), gpu_count_(device_count(scenario)), events_csv_(events_csv),
      bin_width_s_(internal_bin_width_s(scenario.output.timeseries_interval_s)),
      all_times_{std::vector<LogHistogram>(scenario.workload.pipeline.size()), LogHistogram()},
      inferences_(bin_width_s_), batches_binned_(bin_width_s_), queue_wait_us_(bin_width_s_),
      gpu_busy_s_(bin_width_s_), jobs_running_s_(bin_width_s_),
      events_done_(bin_width_s_), precision_bins_{TimeBins(precision_bin_width_s, precision_bin_limit),
                                                  TimeBins(precision_bin_width_s, precision_bin_limit),
                                                  TimeBins(precision_bin_width_s, precision_bin_limit),
                                                  TimeBins(precision_bin_width_s, precision_bin_limit)} {
  for (const auto& module : scenario.workload.pipeline)
    served_module_.push_back(module.served());
  if (stops_at_window_end(scenario))
    window_times_ =
        TimeHistograms{std::vector<LogHistogram>(scenario.workload.pipeline.size()), LogHistogram()};
  for (std::size_t m = 0; m < layout_.served_models.size(); ++m)
    model_counters_.push_back(ModelCounters{0, 0.0, TimeBins(bin_width_s_), TimeBins(bin_width_s_), 0});
  group_device_busy_s_.assign(scenario.platform.server_groups.size(), TimeBins(bin_width_s_));
  group_host_busy_s_.assign(scenario.platform.server_groups.size(), TimeBins(bin_width_s_));
  group_queues_.assign(scenario.platform.server_groups.size(),
                       GroupQueue{TimeBins(bin_width_s_), TimeBins(bin_width_s_), TimeBins(bin_width_s_),
                                  TimeBins(bin_width_s_)});
  device_batches_.assign(static_cast<std::size_t>(gpu_count_), 0);
  device_busy_s_.assign(static_cast<std::size_t>(gpu_count_), 0.0);
  if (OperationsRecorder::wanted(scenario))
    operations_ = std::make_unique<OperationsRecorder>(scenario, bin_width_s_);
  for (const auto& link : links) {
    links_.push_back(TrackedLink{link, 0.0, std::nullopt});
    if (is_shared(link.kind)) links_.back().bytes_over_time.emplace(bin_width_s_);
  }
  if (events_csv_) {
    std::vector<std::string> modules;
    for (const auto& module : scenario.workload.pipeline)
      modules.push_back(module.name);
    // Runs with operations (timeouts, retries, fallback, preemption, pools) say what became of each event.
    write_events_csv_header(*events_csv_, modules, operations_ != nullptr);
  }
}

void RunRecorder::record_transfer(const std::vector<LinkId>& links, double bytes, double start_s,
                                  double end_s) {
  for (const LinkId id : links) {
    auto& link = links_[id];
    link.bytes += bytes;
    if (link.bytes_over_time) link.bytes_over_time->add_spread(start_s, end_s, bytes);
  }
}

void RunRecorder::record_rejection(Rejection why) {
  switch (why) {
  case Rejection::queue_full:
    ++rejected_queue_full_;
    break;
  case Rejection::timeout:
    ++rejected_timeout_;
    break;
  case Rejection::too_large:
    ++rejected_too_large_;
    break;
  }
}

void RunRecorder::record_batch(int model, int group, double start_s, double end_s, int batch_size,
                               int request_count, double queue_wait_sum_s) {
  auto& queue = group_queues_[static_cast<std::size_t>(group)];
  queue.requests.add_at(start_s, request_count);
  queue.queue_wait_s.add_at(start_s, queue_wait_sum_s);
  queue.batches.add_at(start_s, 1.0);
  queue.batch_s.add_at(start_s, end_s - start_s);
  auto& counters = model_counters_[static_cast<std::size_t>(model)];
  ++counters.batches;
  counters.inferences += batch_size;
  counters.busy_s.add_spread(start_s, end_s, end_s - start_s);
  ++batches_;
  requests_in_batches_ += static_cast<std::uint64_t>(request_count);
  inferences_in_batches_ += batch_size;
  queue_wait_sum_s_ += queue_wait_sum_s;
  // Triton counts an inference when its batch completes.
  inferences_.add_at(end_s, batch_size);
  batches_binned_.add_at(end_s, 1.0);
  queue_wait_us_.add_at(start_s, queue_wait_sum_s * 1e6);
}

void RunRecorder::add_instances(int model, int instances) {
  model_counters_[static_cast<std::size_t>(model)].instances += instances;
}

void RunRecorder::record_instance_held(int model, double start_s, double end_s) {
  model_counters_[static_cast<std::size_t>(model)].instance_held_s.add_spread(start_s, end_s,
                                                                              end_s - start_s);
}

void RunRecorder::record_device_busy(int group, int device, double start_s, double end_s) {
  ++device_batches_[static_cast<std::size_t>(device)];
  device_busy_s_[static_cast<std::size_t>(device)] += end_s - start_s;
  gpu_busy_s_.add_spread(start_s, end_s, end_s - start_s);
  precision_bins_.gpu_busy_s.add_spread(start_s, end_s, end_s - start_s);
  group_device_busy_s_[static_cast<std::size_t>(group)].add_spread(start_s, end_s, end_s - start_s);
  if (server_metrics_) server_metrics_->device_busy(device, start_s, end_s);
}

void RunRecorder::record_host_busy(int group, double start_s, double end_s) {
  group_host_busy_s_[static_cast<std::size_t>(group)].add_spread(start_s, end_s, end_s - start_s);
}

void RunRecorder::record_event(const EventRecord& event) {
  if (event.warmup) {
    ++events_warmup_;
  } else if (event.failed) {
    ++events_failed_;
  } else {
    ++events_completed_;
    events_done_.add_at(event.end_s, 1.0);
    precision_bins_.events.add_at(event.end_s, 1.0);
    precision_bins_.event_time_s.add_at(event.end_s, event.end_s - event.start_s);
    double served_s = 0.0;
    for (std::size_t m = 0; m < event.module_s.size(); ++m)
      if (served_module_[m]) served_s += event.module_s[m];
    precision_bins_.served_module_time_s.add_at(event.end_s, served_s);
    if (scenario_.workload.campaign) {
      const double bin = (event.end_s - event.start_s) / scenario_.workload.campaign->histogram_bin_s;
      if (bin >= static_cast<double>(max_histogram_bins)) {
        ++events_beyond_histogram_;
      } else {
        const auto index = static_cast<std::size_t>(bin);
        if (index >= event_time_counts_.size()) event_time_counts_.resize(index + 1, 0.0);
        event_time_counts_[index] += 1.0;
      }
    }
    all_times_.add(event);
    if (window_times_ && in_window(event.end_s)) window_times_->add(event);
  }
  if (events_csv_) write_events_csv_row(*events_csv_, event, operations_ != nullptr, events_csv_row_);
}

void RunRecorder::record_job(double start_s, double warmup_end_s, double end_s) {
  jobs_running_s_.add_spread(start_s, end_s, end_s - start_s);
  if (server_metrics_) server_metrics_->job_interval(start_s, end_s);
  latest_job_ready_s_ = std::max(latest_job_ready_s_, warmup_end_s);
  earliest_job_end_s_ = std::min(earliest_job_end_s_.value_or(end_s), end_s);
  first_job_start_s_ = std::min(first_job_start_s_.value_or(start_s), start_s);
}

void RunRecorder::record_job_ran_out(double now_s) {
  first_ran_out_s_ = std::min(first_ran_out_s_.value_or(now_s), now_s);
}

void RunRecorder::record_job_ready(double warmup_end_s) {
  ++jobs_ready_;
  latest_ready_so_far_s_ = std::max(latest_ready_so_far_s_, warmup_end_s);
}

void RunRecorder::record_job_interval(double start_s, double end_s) {
  jobs_running_s_.add_spread(start_s, end_s, end_s - start_s);
  if (server_metrics_) server_metrics_->job_interval(start_s, end_s);
  first_job_start_s_ = std::min(first_job_start_s_.value_or(start_s), start_s);
}

void RunRecorder::set_measurement_window(double start_s, double end_s) {
  fixed_window_s_ = {start_s, end_s};
}

// Shared links over the window; worker NICs (no time series) over the whole run, the busiest one reported.
void RunRecorder::summarize_links(RunSummary& summary, double window_s, double simulated_end_s) const {
  const double run_s = std::max(simulated_end_s - std::max(0.0, first_job_start_s_.value_or(0.0)), 1e-12);
  LinkUsage busiest_nic;
  for (const auto& link : links_) {
    LinkUsage usage{
        link.link.name,        link.link.capacity_bps, link.bytes, 0.0, resource_kind(link.link.kind),
        link.link.server_group};
    if (link.bytes_over_time) {
      usage.utilisation = 8.0 *
                          link.bytes_over_time->sum_between(summary.window_start_s, summary.window_end_s) /
                          (link.link.capacity_bps * window_s);
      summary.links.push_back(usage);
      // Small replies are timed as if alone on the reply path (NetworkSettings::small_reply_max_bytes), which
      // holds while it is nearly idle. Above 10 % busy, replies overlap often enough to matter.
      constexpr double small_reply_busy_limit = 0.10;
      if (carries_replies_only(link.link.kind) && scenario_.platform.network.small_reply_max_bytes > 0 &&
          usage.utilisation > small_reply_busy_limit)
        summary.warnings.push_back(
            link.link.name + " is " + std::to_string(std::lround(100.0 * usage.utilisation)) +
            " % busy with replies, which platform.network.small_reply_max times as if alone on the path; "
            "rerun with --set platform.network.small_reply_max=0B to simulate them as flows");
    } else {
      usage.utilisation = 8.0 * link.bytes / (link.link.capacity_bps * run_s);
      if (usage.utilisation > busiest_nic.utilisation || busiest_nic.name.empty()) busiest_nic = usage;
    }
  }
  if (!busiest_nic.name.empty()) {
    busiest_nic.name = "busiest worker NIC (" + busiest_nic.name + ")";
    summary.links.push_back(busiest_nic);
  }
}

// The busiest of the devices and hosts of each group, then of every shared link (each pod NIC on its own);
// below the saturation threshold nothing shared holds the jobs back.
void RunRecorder::name_bottleneck(RunSummary& summary) const {
  Bottleneck& bottleneck = summary.bottleneck;
  bottleneck = Bottleneck{};
  if (summary.group_usage.empty()) bottleneck.busiest = "GPU pool";
  // Strictly busier replaces it: a tie keeps the earlier one.
  const auto consider = [&bottleneck](ResourceKind kind, std::optional<int> group, const std::string& name,
                                      double utilisation) {
    if (bottleneck.busiest.empty() || utilisation > bottleneck.utilisation)
      bottleneck = Bottleneck{kind, group, name, utilisation};
  };
  for (std::size_t g = 0; g < summary.group_usage.size(); ++g) {
    const auto& usage = summary.group_usage[g];
    const auto& group = scenario_.platform.server_groups[g];
    const int index = static_cast<int>(g);
    consider(ResourceKind::device_pool, index, device_pool_name(layout_, group), usage.device_utilisation);
    consider(ResourceKind::host_cores, index, host_cores_name(layout_, group), usage.host_utilisation);
  }
  for (const auto& link : summary.links)
    consider(link.kind, link.group, link.name, link.utilisation);
  // An instance holds its device while it executes, and also while it handles inputs and outputs on a host
  // core or waits for a device it shares. When that part is what keeps it busy, the instances (one's serial
  // work) are the limit, and more of them would help; when their devices are as busy (a saturated shared
  // device), the devices are. "As busy": within a percentage point, so rounding never decides the name.
  constexpr double instance_margin = 0.01;
  for (std::size_t m = 0; m < summary.model_usage.size(); ++m) {
    const auto& model = summary.model_usage[m];
    if (model.instances == 0) continue;
    double devices_busy = 0.0;
    for (const int g : layout_.model_groups[m]) {
      const auto& usage = summary.group_usage[static_cast<std::size_t>(g)];
      devices_busy =
          std::max(devices_busy, usage.devices > 0 ? usage.device_utilisation : usage.host_utilisation);
    }
    if (model.instance_occupancy > devices_busy + instance_margin)
      consider(ResourceKind::instances, std::nullopt, "instances of " + model.model,
               model.instance_occupancy);
  }
}

double RunRecorder::device_seconds(double start_s, double end_s, double width_s) const {
  if (!operations_) return gpu_count_ * width_s;
  double device_s = 0.0;
  const auto& groups = scenario_.platform.server_groups;
  for (std::size_t g = 0; g < groups.size(); ++g)
    device_s += groups[g].devices_per_pod * operations_->held_pod_s(static_cast<int>(g), start_s, end_s)
                                                .value_or(groups[g].pods * (end_s - start_s));
  return device_s > 0 ? device_s : 1.0;
}

RunSummary RunRecorder::summarize(double simulated_end_s) const {
  RunSummary summary;
  summary.simulated_end_s = simulated_end_s;
  summary.window_start_s = fixed_window_s_ ? fixed_window_s_->first : latest_job_ready_s_;
  // Before any job has ended there is no steady-state window: an empty one sends us to the whole run below.
  summary.window_end_s =
      fixed_window_s_ ? fixed_window_s_->second : window_end_s().value_or(summary.window_start_s);
  if (!(summary.window_end_s > summary.window_start_s)) {
    summary.steady_state_window = false;
    summary.window_start_s = std::max(0.0, first_job_start_s_.value_or(0.0));
    summary.window_end_s = simulated_end_s;
  }
  const double window_s = std::max(summary.window_end_s - summary.window_start_s, 1e-12);

  // With output.stop_at_window_end (a fixed run), the window's times unless the whole run stands in for it;
  // otherwise every measured event's.
  const TimeHistograms& times = window_times_ && summary.steady_state_window ? *window_times_ : all_times_;
  for (std::size_t m = 0; m < times.modules.size(); ++m)
    summary.modules.emplace_back(scenario_.workload.pipeline[m].name, statistics_of(times.modules[m]));
  summary.event = statistics_of(times.event);
  summary.events_completed = events_completed_;
  summary.events_failed = events_failed_;
  summary.events_warmup = events_warmup_;
  summary.events_per_s = events_done_.sum_between(summary.window_start_s, summary.window_end_s) / window_s;
  summary.inferences_per_s = inferences_.sum_between(summary.window_start_s, summary.window_end_s) / window_s;
  summary.events_per_s_per_job = summary.events_per_s / scenario_.workload.jobs;
  summary.requests_sent = requests_sent_;
  summary.requests_rejected_queue_full = rejected_queue_full_;
  summary.requests_rejected_timeout = rejected_timeout_;
  summary.requests_rejected_too_large = rejected_too_large_;
  summary.requests_rejected = rejected_queue_full_ + rejected_timeout_ + rejected_too_large_;
  summary.retries = retries_;
  summary.batches_executed = batches_;
  summary.mean_executed_batch = batches_ ? inferences_in_batches_ / static_cast<double>(batches_) : 0.0;
  summary.mean_request_size =
      requests_in_batches_ ? inferences_in_batches_ / static_cast<double>(requests_in_batches_) : 0.0;
  summary.mean_queue_wait_s =
      requests_in_batches_ ? queue_wait_sum_s_ / static_cast<double>(requests_in_batches_) : 0.0;
  summary.gpus = gpu_count_;
  summary.gpu_utilisation = gpu_count_
                                ? gpu_busy_s_.sum_between(summary.window_start_s, summary.window_end_s) /
                                      device_seconds(summary.window_start_s, summary.window_end_s, window_s)
                                : 0.0;
  summary.bytes_to_servers = bytes_to_servers_;
  summary.bytes_from_servers = bytes_from_servers_;

  summarize_links(summary, window_s, simulated_end_s);
  summarize_servers(summary, window_s);
  name_bottleneck(summary);
  if (scenario_.workload.campaign) summary.campaign = summarize_campaign(summary);
  if (operations_) summary.operations = operations_->summarize(simulated_end_s);
  summary.precision =
      precision_over(summary.window_start_s, summary.window_end_s, summary.steady_state_window);
  if (events_beyond_histogram_ > 0)
    summary.warnings.push_back(std::to_string(events_beyond_histogram_) + " events lasted longer than the " +
                               std::to_string(max_histogram_bins) +
                               " bins of the event-time histogram and are not in it: widen "
                               "workload.campaign.histogram_bin");
  if (row_interval_s() > scenario_.output.timeseries_interval_s)
    summary.warnings.push_back("the run lasted " + std::to_string(std::lround(horizon_s())) +
                               " s of simulated time: timeseries.csv has a row every " +
                               std::to_string(std::lround(row_interval_s())) +
                               " s instead of output.timeseries_interval, to stay within " +
                               std::to_string(max_timeseries_rows) + " rows");
  return summary;
}

double RunRecorder::horizon_s() const {
  return std::max({inferences_.horizon_s(), gpu_busy_s_.horizon_s(), jobs_running_s_.horizon_s()});
}

double RunRecorder::row_interval_s() const {
  const double interval_s = scenario_.output.timeseries_interval_s;
  const double rows = horizon_s() / interval_s;
  if (rows <= static_cast<double>(max_timeseries_rows)) return interval_s;
  return interval_s * std::ceil(rows / static_cast<double>(max_timeseries_rows));
}

void RunRecorder::write_timeseries_csv(std::ostream& out) const {
  const double interval_s = row_interval_s();
  out << "time_s,nv_inference_count,nv_inference_exec_count,nv_inference_queue_duration_us,nv_gpu_"
         "utilization,"
         "jobs_running";
  // The links with a series, found once: a row looping over every link (three per worker node) made the file
  // take rows x nodes (10^6 jobs: hours after the last event).
  std::vector<const TrackedLink*> series;
  for (const auto& link : links_)
    if (link.bytes_over_time) series.push_back(&link);
  for (const TrackedLink* link : series)
    out << ',' << link->link.name << "_gbps";
  if (operations_) operations_->write_timeseries_header(out);
  out << '\n' << std::setprecision(9);
  const double end_s = horizon_s();
  for (double t = 0.0; t < end_s; t += interval_s) {
    const double t_end = t + interval_s;
    out << t << ',' << inferences_.sum_between(t, t_end) << ',' << batches_binned_.sum_between(t, t_end)
        << ',' << queue_wait_us_.sum_between(t, t_end) << ','
        << (gpu_count_ ? gpu_busy_s_.sum_between(t, t_end) / device_seconds(t, t_end, interval_s) : 0.0)
        << ',' << jobs_running_s_.sum_between(t, t_end) / interval_s;
    for (const TrackedLink* link : series)
      out << ',' << 8.0 * link->bytes_over_time->sum_between(t, t_end) / interval_s / 1e9;
    if (operations_) operations_->write_timeseries_row(out, t, t_end);
    out << '\n';
  }
}

} // namespace sonicsim
