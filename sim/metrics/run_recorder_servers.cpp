// The server side of a run's summary: each model's and each group's use of its devices, cores and NICs
// (RunRecorder::summarize_servers).
#include "sim/metrics/run_recorder.hpp"

namespace sonicsim {
namespace {

// Makes the resource the busiest so far when it is strictly busier (a tie keeps the earlier one).
void keep_busier(ResourceKind kind, const std::string& name, double utilisation, Bottleneck& busiest) {
  if (utilisation <= busiest.utilisation) return;
  busiest.kind = kind;
  busiest.busiest = name;
  busiest.utilisation = utilisation;
}

} // namespace

void RunRecorder::summarize_servers(RunSummary& summary, double window_s) const {
  summarize_models(summary, window_s);
  summarize_groups(summary, window_s);
}

void RunRecorder::summarize_models(RunSummary& summary, double window_s) const {
  const auto& groups = scenario_.platform.server_groups;
  const double from_s = summary.window_start_s, to_s = summary.window_end_s;
  for (std::size_t m = 0; m < model_counters_.size(); ++m) {
    const auto& counters = model_counters_[m];
    ModelServerUsage usage;
    usage.model = layout_.served_models[m];
    usage.batches = counters.batches;
    usage.inferences = counters.inferences;
    usage.busy_device_s = counters.busy_s.sum_between(from_s, to_s);
    double capacity = 0.0;      // devices (or, on CPU-only groups, cores) the model can use
    double held_fraction = 1.0; // a pooled group's pods held on average over the window, of all its pods
    for (const int g : layout_.model_groups[m]) {
      const auto& group = groups[static_cast<std::size_t>(g)];
      capacity += group.devices_per_pod > 0 ? group.devices() : group.pods * group.host_cores;
      if (const auto held_pod_s = operations_ ? operations_->held_pod_s(g, from_s, to_s) : std::nullopt)
        held_fraction = window_s > 0 ? *held_pod_s / (group.pods * window_s) : 1.0;
    }
    // The client's fallback servers run the model too (every served model has one on each node).
    if (const ServerGroup* fallback = scenario_.platform.group(scenario_.workload.client.fallback_group))
      capacity += fallback->devices_per_pod > 0 ? fallback->devices() : fallback->pods * fallback->host_cores;
    usage.share_of_devices = capacity > 0 ? usage.busy_device_s / (capacity * window_s) : 0.0;
    usage.instances = counters.instances;
    usage.instance_occupancy = counters.instances > 0 ? counters.instance_held_s.sum_between(from_s, to_s) /
                                                            (counters.instances * window_s)
                                                      : 0.0;
    // A pool (one group per model) is measured against what it held, as its group's utilisation is.
    if (held_fraction < 1.0 && held_fraction > 0.0) {
      usage.share_of_devices /= held_fraction;
      usage.instance_occupancy /= held_fraction;
    }
    summary.model_usage.push_back(usage);
  }
}

void RunRecorder::summarize_groups(RunSummary& summary, double window_s) const {
  const auto& groups = scenario_.platform.server_groups;
  const double from_s = summary.window_start_s, to_s = summary.window_end_s;
  std::size_t first_device = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto& group = groups[g];
    ServerGroupUsage usage;
    const auto devices = static_cast<std::size_t>(group.devices());
    usage.device_batches.assign(device_batches_.begin() + static_cast<std::ptrdiff_t>(first_device),
                                device_batches_.begin() +
                                    static_cast<std::ptrdiff_t>(first_device + devices));
    usage.device_busy_s.assign(device_busy_s_.begin() + static_cast<std::ptrdiff_t>(first_device),
                               device_busy_s_.begin() + static_cast<std::ptrdiff_t>(first_device + devices));
    first_device += devices;
    usage.name = group.name;
    usage.device_type = group.device_type;
    usage.pods = group.pods;
    usage.devices = group.devices();
    usage.host_cores = group.host_cores;
    // A pooled group's pods come and go: its utilisation is of the pod-seconds it held.
    const double device_busy_s = group_device_busy_s_[g].sum_between(from_s, to_s);
    const double host_busy_s = group_host_busy_s_[g].sum_between(from_s, to_s);
    usage.device_utilisation = usage.devices ? device_busy_s / (usage.devices * window_s) : 0.0;
    usage.host_utilisation = host_busy_s / (group.pods * group.host_cores * window_s);
    // A pooled group's pods come and go: its utilisation is of the pod-seconds it held.
    if (const auto held_pod_s =
            operations_ ? operations_->held_pod_s(static_cast<int>(g), from_s, to_s) : std::nullopt) {
      const double pod_s = *held_pod_s;
      usage.device_utilisation =
          usage.devices && pod_s > 0 ? device_busy_s / (group.devices_per_pod * pod_s) : 0.0;
      usage.host_utilisation = pod_s > 0 ? host_busy_s / (group.host_cores * pod_s) : 0.0;
    }
    double nic_sum = 0.0;
    for (const auto& link : links_)
      if (link.link.kind == LinkKind::pod_nic_in && link.link.server_group == static_cast<int>(g))
        nic_sum +=
            8.0 * link.bytes_over_time->sum_between(from_s, to_s) / (link.link.capacity_bps * window_s);
    usage.nic_in_utilisation = nic_sum / group.pods;
    const auto& queue = group_queues_[g];
    usage.requests = queue.requests.sum_between(from_s, to_s);
    const double batches = queue.batches.sum_between(from_s, to_s);
    usage.mean_queue_wait_s =
        usage.requests > 0 ? queue.queue_wait_s.sum_between(from_s, to_s) / usage.requests : 0;
    usage.mean_batch_s = batches > 0 ? queue.batch_s.sum_between(from_s, to_s) / batches : 0.0;
    usage.limit = Bottleneck{ResourceKind::device_pool, static_cast<int>(g), device_pool_name(layout_, group),
                             usage.device_utilisation};
    keep_busier(ResourceKind::host_cores, host_cores_name(layout_, group), usage.host_utilisation,
                usage.limit);
    keep_busier(ResourceKind::pod_nics, pod_nics_name(layout_, group), usage.nic_in_utilisation, usage.limit);
    // Past its saturation point is no reason to distrust a run (a knee study runs there on purpose): `run`
    // prints it on the group's line, and a calibration's prediction that rests on it carries a warning.
    summary.group_usage.push_back(usage);
  }
}

} // namespace sonicsim
