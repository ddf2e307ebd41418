// The job client's reaction to servers that scale, fail or refuse (SonicTriton's): where a try goes (the
// job's pod, the pool's choice or the fallback), and what follows a refusal or a timeout (a retry, the
// fallback, or a failed event).
#include "sim/components/job_client.hpp"
#include "sim/kernel/event_calendar.hpp"

#include "sim/components/job_client_parts.hpp"
#include "sim/components/server_pool.hpp"

#include <cassert>

namespace sg4 = simgrid::s4u;

namespace sonicsim {

InferenceRequest* RequestStore::acquire() {
  if (free_.empty()) return &storage_.emplace_back();
  InferenceRequest* request = free_.back();
  free_.pop_back();
  return request;
}

void JobClient::preempt() {
  preempted_ = true;
  auto* operations = context_.recorder.operations();
  int lost = 0;
  for (auto& thread : threads_) {
    if (thread->in_event) {
      ++lost;
      // The event ends here, failed: a row of events.csv like any other, with its outcome.
      EventRecord& event = thread->event;
      event.end_s = calendar::now_s();
      event.failed = true;
      event.outcome = EventOutcome::failed_preempted;
      thread->in_event = false;
      if (!thread->after_end) context_.recorder.record_event(event);
      operations->event_ended(EventOutcome::failed_preempted);
      if (thread->open_at_end) --context_.events_open_at_end;
    }
    for (auto& owned : thread->senders) {
      Sender& sender = *owned;
      ++sender.serial; // its pending flows and replies do nothing now
      if (sender.at_server) {
        context_.requests.orphan(*sender.request); // the server still holds it; no answer comes here
        sender.request = nullptr;
        sender.at_server = false;
      }
      try_ended(sender);
    }
  }
  // The job's life over its submissions: every event it started either ended (completed, or failed for good)
  // or was lost here and goes back with those never started. Ended + back is the job's events, so completed,
  // failed and abandoned events never add up to more than the workload.
  const int ended = next_event_ - lost;
  const int not_done = events_ - ended;
  assert(ended >= placement_.first_event && not_done >= lost && ended + not_done == events_);
  const JobPreemption& preemption = *scenario_.workload.preemption;
  const bool resubmit = preemption.resubmit && placement_.resubmission < preemption.max_resubmissions;
  if (preemption.resubmit && !resubmit) operations->job_abandoned(not_done);
  operations->job_preempted(resubmit ? not_done : 0);
  if (on_preempted_) on_preempted_(resubmit ? not_done : 0, ended);
  preempt_returned_ = true; // nothing below this call refers to the job any more: it may be reclaimed
}

bool JobClient::wan_down(double t_s) {
  if (!scenario_.platform.wan.down_at(t_s)) return false;
  context_.recorder.operations()->request_lost();
  return true;
}

const JobClient::Route* JobClient::choose_route(Sender& sender) {
  const Connection& connection = *sender.thread->connection;
  if (sender.to_fallback || connection.refused) return connection.fallback ? &*connection.fallback : nullptr;
  if (!connection.pool) return &connection.fixed;
  if (connection.pool->refuses_requests()) return nullptr;
  if (connection.pool->circuit_open()) {
    // Envoy's circuit breaker: its requests in flight are at the limit; this one fails at once.
    context_.recorder.operations()->request_overflowed();
    return nullptr;
  }
  const bool other = scenario_.workload.client.retry_other_server && sender.attempt > 0;
  const std::optional<int> pod = connection.pool->route(other ? sender.last_pod : std::nullopt);
  if (!pod) return nullptr; // no pod serves: the proxy answers "no healthy upstream"
  auto& route = connection.pool_routes[static_cast<std::size_t>(*pod)];
  if (!route) route = std::make_unique<Route>(route_to(connection.model_index, *pod, false));
  connection.pool->request_sent(*pod);
  sender.pool_pod = sender.last_pod = *pod;
  return route.get();
}

void JobClient::try_ended(Sender& sender) {
  calendar::cancel(sender.timeout);
  if (sender.pool_pod) {
    sender.thread->connection->pool->request_done(*sender.pool_pod);
    sender.pool_pod.reset();
  }
}

void JobClient::timed_out(Sender& sender) {
  ++sender.serial; // the try's pending flow or reply now does nothing
  if (sender.at_server) {
    // The server still holds the request and will work on it: it is the store's now.
    context_.requests.orphan(*sender.request);
    sender.request = nullptr;
    sender.at_server = false;
  }
  context_.recorder.operations()->request_timed_out();
  try_ended(sender);
  try_failed(sender, true);
}

void JobClient::reset_by_proxy(Sender& sender) {
  // The pod was stopped with the request in it (its pre-stop period over): the proxy resets the stream and
  // the client hears it a network trip later, as a refusal; the try is over.
  ++sender.serial;
  context_.recorder.operations()->request_reset();
  try_ended(sender);
  after(scenario_.platform.wan.rtt_s, [this, &sender]() { try_failed(sender, false); });
}

void JobClient::refused(Sender& sender) {
  // The proxy refuses at once; the client hears it a round trip later.
  context_.recorder.operations()->request_refused();
  after(scenario_.platform.wan.rtt_s, [this, &sender]() { try_failed(sender, false); });
}

void JobClient::try_failed(Sender& sender, bool timed_out) {
  if (++sender.attempt <= scenario_.workload.client.retries) {
    send_attempt(sender);
    return;
  }
  if (!sender.to_fallback && sender.thread->connection->fallback) {
    sender.to_fallback = true; // the tries are spent: the local server, at once
    sender.attempt = 0;
    send(sender);
    return;
  }
  sender.thread->failed = true;
  sender.thread->failed_by_timeout = timed_out;
  next_request(sender);
}

} // namespace sonicsim
