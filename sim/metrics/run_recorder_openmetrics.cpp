// The run's metrics for Prometheus: the servers' as SuperSONIC's Prometheus holds them (ServerMetrics), plus
// the jobs, events and links under sonicsim names, every family sampled at the metrics interval.
#include "sim/metrics/openmetrics.hpp"
#include "sim/metrics/run_recorder.hpp"

#include <ostream>

namespace sonicsim {

void RunRecorder::enable_openmetrics(double interval_s) {
  const auto& groups = scenario_.platform.server_groups;
  std::vector<ServerMetrics::Pod> pods(static_cast<std::size_t>(layout_.pods()));
  int first_device = 0;
  for (std::size_t p = 0; p < pods.size(); ++p) {
    const auto g = static_cast<std::size_t>(layout_.pod_group[p]);
    const ServerGroup& group = groups[g];
    ServerMetrics::Pod& pod = pods[p];
    pod.release = group.name;
    pod.index_in_group = static_cast<int>(p) - layout_.first_pod[g];
    pod.first_device = first_device;
    first_device += group.devices_per_pod;
    // A local server on each client node (on_client_nodes) is not part of a deployment Prometheus scrapes:
    // it holds no series.
    if (group.on_client_nodes) {
      pod.runs_from_start = false;
      continue;
    }
    pod.devices = group.devices_per_pod;
    pod.device_type = group.device_type;
    // A pooled group's pods run when its pool starts them (ServerPool tells).
    pod.runs_from_start = !group.pooled();
  }
  for (std::size_t m = 0; m < layout_.served_models.size(); ++m)
    for (const int pod : layout_.model_pods[m])
      if (!groups[static_cast<std::size_t>(layout_.pod_group[static_cast<std::size_t>(pod)])].on_client_nodes)
        pods[static_cast<std::size_t>(pod)].models.push_back(static_cast<int>(m));
  server_metrics_.emplace(interval_s, layout_.served_models, std::move(pods));
}

void RunRecorder::write_openmetrics(std::ostream& out, double start_epoch_s) const {
  if (!server_metrics_) return;
  const double interval_s = server_metrics_->interval_s();
  const double end_s = horizon_s();
  std::size_t rows = 0;
  for (double t = 0.0; t < end_s; t += interval_s)
    ++rows;
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
  std::vector<MetricFamily> families = server_metrics_->families(end_s);
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
