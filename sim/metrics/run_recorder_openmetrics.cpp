// The run's time series as Triton's /metrics endpoint would have shown them (metric names and labels as
// Triton's documentation gives them), plus the jobs, events and links under sonicsim names.
#include "sim/metrics/openmetrics.hpp"
#include "sim/metrics/run_recorder.hpp"

#include <ostream>

namespace sonicsim {

void RunRecorder::enable_openmetrics() {
  const double width_s = scenario_.output.timeseries_interval_s;
  OpenMetricsBins bins;
  for (std::size_t m = 0; m < layout_.served_models.size(); ++m)
    bins.models.push_back(ModelMetricBins{TimeBins(width_s), TimeBins(width_s), TimeBins(width_s),
                                          TimeBins(width_s), TimeBins(width_s)});
  bins.device_busy_s.assign(static_cast<std::size_t>(gpu_count_), TimeBins(width_s));
  // Devices are numbered over all groups, pod by pod (record_device_busy).
  const auto& groups = scenario_.platform.server_groups;
  for (std::size_t g = 0; g < groups.size(); ++g)
    bins.device_group.insert(bins.device_group.end(), static_cast<std::size_t>(groups[g].devices()),
                             static_cast<int>(g));
  openmetrics_ = std::move(bins);
}

void RunRecorder::write_openmetrics(std::ostream& out, double start_epoch_s) const {
  if (!openmetrics_) return;
  const double interval_s = row_interval_s();
  const double end_s = horizon_s();
  std::size_t rows = 0;
  for (double t = 0.0; t < end_s; t += interval_s)
    ++rows;
  // Triton's counters are totals since the server started: each row adds its interval.
  const auto cumulative = [&](const TimeBins& bins) {
    std::vector<double> values;
    double total = 0.0;
    for (std::size_t r = 0; r < rows; ++r) {
      const double t = static_cast<double>(r) * interval_s;
      total += bins.sum_between(t, t + interval_s);
      values.push_back(total);
    }
    return values;
  };
  const auto per_second = [&](const TimeBins& bins, double scale) {
    std::vector<double> values;
    for (std::size_t r = 0; r < rows; ++r) {
      const double t = static_cast<double>(r) * interval_s;
      values.push_back(scale * bins.sum_between(t, t + interval_s) / interval_s);
    }
    return values;
  };
  std::vector<MetricFamily> families{
      {"nv_inference_request_success",
       "unknown",
       "Number of successful inference requests, all batch sizes",
       {}},
      {"nv_inference_count", "unknown", "Number of inferences performed (a batch of n counts n)", {}},
      {"nv_inference_exec_count", "unknown", "Number of model executions performed (batches)", {}},
      {"nv_inference_queue_duration_us",
       "unknown",
       "Cumulative inference queuing duration in microseconds",
       {}},
      {"nv_inference_compute_infer_duration_us",
       "unknown",
       "Cumulative compute inference duration in microseconds (each request of a batch counts its execution)",
       {}}};
  for (std::size_t m = 0; m < openmetrics_->models.size(); ++m) {
    const auto& bins = openmetrics_->models[m];
    const std::vector<std::pair<std::string, std::string>> labels{{"model", layout_.served_models[m]},
                                                                  {"version", "1"}};
    families[0].series.push_back({labels, cumulative(bins.requests)});
    families[1].series.push_back({labels, cumulative(bins.inferences)});
    families[2].series.push_back({labels, cumulative(bins.executions)});
    families[3].series.push_back({labels, cumulative(bins.queue_us)});
    families[4].series.push_back({labels, cumulative(bins.compute_infer_us)});
  }
  MetricFamily gpu{"nv_gpu_utilization", "gauge", "GPU utilization rate [0.0 - 1.0)", {}};
  const auto& groups = scenario_.platform.server_groups;
  for (std::size_t d = 0; d < openmetrics_->device_busy_s.size(); ++d) {
    const std::string group =
        groups.empty() ? "" : groups[static_cast<std::size_t>(openmetrics_->device_group[d])].name;
    gpu.series.push_back({{{"gpu_uuid", "GPU-sonicsim-" + std::to_string(d)}, {"server_group", group}},
                          per_second(openmetrics_->device_busy_s[d], 1.0)});
  }
  families.push_back(gpu);
  families.push_back({"sonicsim_jobs_running",
                      "gauge",
                      "Grid jobs running (time average over the interval)",
                      {{{}, per_second(jobs_running_s_, 1.0)}}});
  families.push_back({"sonicsim_events_completed",
                      "unknown",
                      "Events completed outside the warm-up, since the start",
                      {{{}, cumulative(events_done_)}}});
  MetricFamily links{
      "sonicsim_link_gbps", "gauge", "Traffic on a shared link in Gb/s (mean over the interval)", {}};
  for (const auto& link : links_)
    if (link.bytes_over_time)
      links.series.push_back({{{"link", link.link.name}}, per_second(*link.bytes_over_time, 8.0 / 1e9)});
  families.push_back(links);
  sonicsim::write_openmetrics(out, families, start_epoch_s, interval_s);
}

} // namespace sonicsim
