// Records what the operations of a run do (sim/scenario/operations.hpp): the pods each pooled group holds
// and serves with over time, the autoscaler's polls, and what became of requests and events when servers
// scaled, failed or refused. Exists only in runs whose scenario has operations, so a run without them pays
// nothing and writes what it wrote before. Pure code, fed by the server pools and the jobs.
#pragma once

#include "sim/metrics/operations_summary.hpp"
#include "sim/metrics/time_bins.hpp"
#include "sim/scenario/scenario.hpp"

#include <iosfwd>
#include <vector>

namespace sonicsim {

// How an event ended, as the client saw it (OperationsSummary's EventOutcomes).
enum class EventOutcome {
  completed,
  completed_after_retry,
  completed_with_fallback,
  failed_rejected,
  failed_timed_out,
  failed_preempted,
};

// The outcome's name, as in summary.json's operations.events and events.csv's outcome column.
const char* event_outcome_name(EventOutcome outcome);

class OperationsRecorder {
public:
  // A scenario has operations: a group with an autoscaler, failures or a proxy, or a client timeout or
  // fallback.
  static bool wanted(const Scenario& scenario);
  OperationsRecorder(const Scenario& scenario, double bin_width_s);

  // Group `group` now holds `held` pods (starting, serving, draining or failed), `serving` of them serving.
  void pods_changed(int group, double now_s, int serving, int held);
  // The autoscaler's poll: the metric it read and the pod count it decided.
  void polled(int group, double now_s, double metric);
  void scaled(int group, int pods_added, int pods_removed);
  // A pod the autoscaler asked for at decided_s serves from now_s.
  void scale_up_serving(int group, double decided_s, double now_s);
  void pod_failed(int group) { ++pools_[static_cast<std::size_t>(group)].summary.pod_failures; }

  void request_timed_out() { ++summary_.requests_timed_out; }
  void request_refused() { ++summary_.requests_refused; }
  void request_overflowed() { ++summary_.requests_overflowed; }
  void request_reset() { ++summary_.requests_reset; }
  void request_to_fallback() { ++summary_.requests_to_fallback; }
  void client_refused() { ++summary_.clients_refused; }
  // A new client held at a scaled-to-zero group's proxy, released after `held_s` / refused at its timeout.
  void client_held(double held_s);
  void client_hold_timed_out();
  void request_lost() { ++summary_.requests_lost; }
  void event_started() { ++summary_.events.started; }
  void job_preempted(int events_resubmitted) {
    ++summary_.jobs_preempted;
    summary_.events_resubmitted += static_cast<std::uint64_t>(events_resubmitted);
  }
  // A preempted job that was not resubmitted again (preemption.max_resubmissions reached).
  void job_abandoned(int events) {
    ++summary_.jobs_abandoned;
    summary_.events_abandoned += static_cast<std::uint64_t>(events);
  }
  void event_ended(EventOutcome outcome);

  // Pod-seconds group `group` held between two times; none for a group whose pods are fixed. A pooled
  // group's utilisation is of the pods it held, not of its maximum.
  std::optional<double> held_pod_s(int group, double start_s, double end_s) const;
  // The held and serving pods are integrated up to end_s (call once, when the run has ended).
  void finish(double end_s);
  // group_device_busy_s: per group, busy device-seconds over the run.
  OperationsSummary summarize(double end_s) const;
  // timeseries.csv's columns for the pooled groups: GROUP_pods_serving, GROUP_pods_held (mean pods
  // over the row) and, with an autoscaler, GROUP_autoscaler_METRIC (the mean of the polls in the row, empty
  // without one; queue_time_per_batch_s in seconds) and GROUP_autoscaler_threshold (in the same unit).
  void write_timeseries_header(std::ostream& out) const;
  void write_timeseries_row(std::ostream& out, double start_s, double end_s) const;

private:
  struct Pool {
    int group = 0;
    double devices_per_pod = 0.0;
    std::optional<AutoscalerSettings> autoscaler;
    int serving = 0, held = 0;
    double since_s = 0.0;
    TimeBins serving_s, held_s, metric_sum, polls;
    PoolSummary summary;
    Pool(double bin_width_s)
        : serving_s(bin_width_s), held_s(bin_width_s), metric_sum(bin_width_s), polls(bin_width_s) {}
  };
  Pool* pool(int group);
  const Scenario& scenario_;
  std::vector<Pool> pools_; // per server group; only pooled groups are reported
  OperationsSummary summary_;
  bool finished_ = false;
};

} // namespace sonicsim
