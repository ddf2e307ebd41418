#include "sim/metrics/operations_recorder.hpp"

#include <algorithm>
#include <ostream>
#include <string>

namespace sonicsim {

bool OperationsRecorder::wanted(const Scenario& scenario) {
  const auto& client = scenario.workload.client;
  return client.timeout_s || !client.fallback_group.empty() || !scenario.platform.wan.down.empty() ||
         scenario.workload.preemption ||
         std::any_of(scenario.platform.server_groups.begin(), scenario.platform.server_groups.end(),
                     [](const ServerGroup& g) { return g.pooled(); });
}

OperationsRecorder::OperationsRecorder(const Scenario& scenario, double bin_width_s) : scenario_(scenario) {
  const auto& groups = scenario.platform.server_groups;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    Pool p(bin_width_s);
    p.group = static_cast<int>(g);
    p.devices_per_pod = groups[g].devices_per_pod;
    p.autoscaler = groups[g].autoscaler;
    p.summary.group = groups[g].name;
    p.summary.autoscaled = groups[g].autoscaler.has_value();
    p.summary.min_pods = p.autoscaler ? p.autoscaler->lowest_pods() : groups[g].pods;
    p.summary.max_pods = p.autoscaler ? p.autoscaler->max_pods : groups[g].pods;
    pools_.push_back(std::move(p));
    if (groups[g].autoscaler && groups[g].autoscaler->scale_to_zero) summary_.client_holds = ClientHolds{};
  }
}

void OperationsRecorder::client_held(double held_s) {
  ClientHolds& h = summary_.client_holds.value();
  ++h.released;
  h.total_held_s += held_s;
  h.longest_held_s = std::max(h.longest_held_s, held_s);
}

void OperationsRecorder::client_hold_timed_out() {
  ++summary_.client_holds.value().timed_out;
}

OperationsRecorder::Pool* OperationsRecorder::pool(int group) {
  return &pools_[static_cast<std::size_t>(group)];
}

void OperationsRecorder::pods_changed(int group, double now_s, int serving, int held) {
  Pool& p = *pool(group);
  if (now_s > p.since_s) {
    p.serving_s.add_spread(p.since_s, now_s, p.serving * (now_s - p.since_s));
    p.held_s.add_spread(p.since_s, now_s, p.held * (now_s - p.since_s));
  }
  p.since_s = now_s;
  p.serving = serving;
  p.held = held;
  p.summary.peak_pods = std::max(p.summary.peak_pods, held);
}

void OperationsRecorder::polled(int group, double now_s, double metric) {
  Pool& p = *pool(group);
  p.metric_sum.add_at(now_s, metric);
  p.polls.add_at(now_s, 1.0);
}

void OperationsRecorder::scaled(int group, int pods_added, int pods_removed) {
  Pool& p = *pool(group);
  p.summary.pods_added += pods_added;
  p.summary.pods_removed += pods_removed;
}

void OperationsRecorder::scale_up_serving(int group, double decided_s, double now_s) {
  PoolSummary& s = pool(group)->summary;
  if (s.first_scale_up_serving_s) return;
  s.first_scale_up_decided_s = decided_s;
  s.first_scale_up_serving_s = now_s;
}

const char* event_outcome_name(EventOutcome outcome) {
  switch (outcome) {
  case EventOutcome::completed:
    return "completed";
  case EventOutcome::completed_after_retry:
    return "completed_after_retry";
  case EventOutcome::completed_with_fallback:
    return "completed_with_fallback";
  case EventOutcome::failed_rejected:
    return "failed_rejected";
  case EventOutcome::failed_timed_out:
    return "failed_timed_out";
  case EventOutcome::failed_preempted:
    return "failed_preempted";
  }
  return "?";
}

void OperationsRecorder::event_ended(EventOutcome outcome) {
  EventOutcomes& e = summary_.events;
  switch (outcome) {
  case EventOutcome::completed:
    ++e.completed;
    return;
  case EventOutcome::completed_after_retry:
    ++e.completed_after_retry;
    return;
  case EventOutcome::completed_with_fallback:
    ++e.completed_with_fallback;
    return;
  case EventOutcome::failed_rejected:
    ++e.failed_rejected;
    return;
  case EventOutcome::failed_timed_out:
    ++e.failed_timed_out;
    return;
  case EventOutcome::failed_preempted:
    ++e.failed_preempted;
    return;
  }
}

std::optional<double> OperationsRecorder::held_pod_s(int group, double start_s, double end_s) const {
  if (!scenario_.platform.server_groups[static_cast<std::size_t>(group)].pooled()) return std::nullopt;
  return pools_[static_cast<std::size_t>(group)].held_s.sum_between(start_s, end_s);
}

void OperationsRecorder::finish(double end_s) {
  if (finished_) return;
  finished_ = true;
  for (auto& p : pools_)
    pods_changed(p.group, end_s, p.serving, p.held);
}

OperationsSummary OperationsRecorder::summarize(double end_s) const {
  OperationsSummary out = summary_;
  out.events.in_progress_at_end = summary_.events.started - summary_.events.ended();
  const auto& groups = scenario_.platform.server_groups;
  for (const auto& p : pools_) {
    if (!groups[static_cast<std::size_t>(p.group)].pooled()) continue;
    PoolSummary s = p.summary;
    const double held_pod_s = p.held_s.sum_between(0.0, end_s);
    s.pod_hours = held_pod_s / 3600.0;
    s.device_hours = s.pod_hours * p.devices_per_pod;
    s.static_peak_device_hours = s.peak_pods * p.devices_per_pod * end_s / 3600.0;
    s.mean_serving_pods = end_s > 0 ? p.serving_s.sum_between(0.0, end_s) / end_s : 0.0;
    s.mean_held_pods = end_s > 0 ? held_pod_s / end_s : 0.0;
    if (const auto& costs = scenario_.costs) {
      const auto& device_type = groups[static_cast<std::size_t>(p.group)].device_type;
      const auto price = costs->device_hour_usd.find(device_type);
      if (price != costs->device_hour_usd.end() || p.devices_per_pod == 0)
        s.cost_usd = (p.devices_per_pod > 0 ? s.device_hours * price->second : 0.0) +
                     s.pod_hours * costs->pod_hour_usd.value_or(0.0);
    }
    out.pools.push_back(s);
  }
  return out;
}

void OperationsRecorder::write_timeseries_header(std::ostream& out) const {
  const auto& groups = scenario_.platform.server_groups;
  for (const auto& p : pools_) {
    const ServerGroup& g = groups[static_cast<std::size_t>(p.group)];
    if (!g.pooled()) continue;
    out << ',' << g.name << "_pods_serving," << g.name << "_pods_held";
    if (!p.autoscaler) continue;
    // The metric under its own name, with its unit: seconds for the queue time.
    const std::string unit = load_metric_in_seconds(p.autoscaler->metric) ? "_s" : "";
    out << ',' << g.name << "_autoscaler_" << load_metric_name(p.autoscaler->metric) << unit << ',' << g.name
        << "_autoscaler_threshold" << unit;
  }
}

void OperationsRecorder::write_timeseries_row(std::ostream& out, double start_s, double end_s) const {
  const auto& groups = scenario_.platform.server_groups;
  const double width_s = end_s - start_s;
  for (const auto& p : pools_) {
    if (!groups[static_cast<std::size_t>(p.group)].pooled()) continue;
    out << ',' << p.serving_s.sum_between(start_s, end_s) / width_s << ','
        << p.held_s.sum_between(start_s, end_s) / width_s;
    if (!p.autoscaler) continue;
    const double polls = p.polls.sum_between(start_s, end_s);
    out << ',';
    if (polls > 0) out << p.metric_sum.sum_between(start_s, end_s) / polls;
    out << ',' << p.autoscaler->threshold;
  }
}

} // namespace sonicsim
