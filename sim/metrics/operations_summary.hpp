// What a run with operations (sim/scenario/operations.hpp) reports beyond the rest: each pooled group's
// pods and device-hours, and what became of every request and event when servers scaled, failed or
// refused. Plain data; summary.json's `operations` section.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

struct PoolSummary {
  std::string group;
  bool autoscaled = false;
  int min_pods = 0, max_pods = 0; // the autoscaler's bounds; the group's pods without one
  int peak_pods = 0;              // the most pods held at once (starting, serving, draining, failed)
  double mean_serving_pods = 0.0; // over the run
  double mean_held_pods = 0.0;    // over the run: what the group costs per hour on average
  // Device-hours held (a pod holds its devices from its start-up to its leaving, failed time included),
  // and what a static deployment of the peak size would have held over the same time.
  double device_hours = 0.0;
  double static_peak_device_hours = 0.0;
  double pod_hours = 0.0;
  int pods_added = 0, pods_removed = 0; // pods added and removed by the autoscaler
  int pod_failures = 0;
  // The first time a pod the autoscaler added began to serve, and when it was asked for; none without.
  std::optional<double> first_scale_up_decided_s, first_scale_up_serving_s;
  std::optional<double> cost_usd; // device-hours and pod-hours at costs: prices, when given
};

// Every event started ends as exactly one of these, or is still going when the run stops; warm-up events
// included, since none may be lost.
struct EventOutcomes {
  std::uint64_t started = 0;
  std::uint64_t completed = 0;               // every request answered at its first try
  std::uint64_t completed_after_retry = 0;   // a request needed another try
  std::uint64_t completed_with_fallback = 0; // a request was served by the fallback server
  std::uint64_t failed_rejected = 0;         // a request refused more often than the client retries
  std::uint64_t failed_timed_out = 0;        // a request unanswered within the timeout, tries spent
  std::uint64_t failed_preempted = 0;        // lost with its job, preempted (resubmitted, if so set)
  std::uint64_t in_progress_at_end = 0;      // started and not ended when the run stopped
  std::uint64_t ended() const {
    return completed + completed_after_retry + completed_with_fallback + failed_rejected + failed_timed_out +
           failed_preempted;
  }
};

// New clients held at a proxy while their group had no pod serving (autoscaler.scale_to_zero): how many,
// how long, and how many were refused when the hold timed out.
struct ClientHolds {
  std::uint64_t released = 0;  // released when a pod began to serve
  std::uint64_t timed_out = 0; // refused after hold_timeout
  double total_held_s = 0.0;   // over the released ones
  double longest_held_s = 0.0;
};

struct OperationsSummary {
  std::vector<PoolSummary> pools;
  EventOutcomes events;
  std::uint64_t requests_timed_out = 0;   // given up by their client after workload.client.timeout
  std::uint64_t requests_refused = 0;     // by a proxy: rate limit, circuit breaker, or no serving pod
  std::uint64_t requests_overflowed = 0;  // of those refused, by the proxy's circuit breaker (max_requests)
  std::uint64_t requests_reset = 0;       // in a pod stopped at the end of its pre-stop period (drain)
  std::uint64_t requests_to_fallback = 0; // sent to the fallback server
  std::uint64_t clients_refused = 0;      // jobs refused at connection by a rate limit (then on fallback)
  std::uint64_t jobs_preempted = 0;
  std::uint64_t events_resubmitted = 0; // unfinished events of preempted jobs run again in new jobs
  // Jobs preempted once more than preemption.max_resubmissions allows, and their unfinished events.
  std::uint64_t jobs_abandoned = 0, events_abandoned = 0;
  std::uint64_t requests_lost = 0;         // in a pod when it failed, or on a wide-area path that was down
  std::optional<ClientHolds> client_holds; // only with a group that scales to zero
};

} // namespace sonicsim
