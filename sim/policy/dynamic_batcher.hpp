// The Triton dynamic-batcher dispatch rule (v2.3, the ProtoDUNE era) as a pure function: a view of the queue
// and the clock in, a decision out. No SimGrid here, so every rule is unit-tested without an engine. The rule
// is written out at the end of DESIGN.md.
#pragma once

#include <cstddef>
#include <vector>

namespace sonicsim {

struct BatcherSettings {
  int max_batch_size = 0;                 // largest batch the model accepts, in inferences
  bool dynamic_batching = false;          // off: each request runs alone on a free instance
  std::vector<int> preferred_batch_sizes; // empty: the largest preferred size is max_batch_size
  double max_queue_delay_s = 0.0;         // how long the oldest request may wait for a fuller batch

  int max_preferred_batch_size() const;
  bool is_preferred(int batch_size) const;
};

// What the batcher sees of one queued request.
struct QueuedRequestView {
  int batch_size = 0;    // inferences in the request
  double enqueued_s = 0; // when it entered the queue
};

struct BatchDecision {
  enum class Kind {
    idle,       // nothing queued
    dispatch,   // run the first `request_count` queued requests as one batch now
    wait_until, // hold the queue until `wake_at_s` (or the next arrival) for a fuller batch
  };
  Kind kind = Kind::idle;
  std::size_t request_count = 0; // dispatch: how many requests from the front of the queue
  int batch_size = 0;            // dispatch: their total inferences
  double wake_at_s = 0.0;        // wait_until: when the oldest request's delay runs out
};

// Decide what an idle instance does now. `queue` is any random-access container of QueuedRequestView (or of
// types derived from it) in dispatch order (one priority level: FIFO). Requests larger than max_batch_size
// never reach the queue: they are rejected on arrival.
template <typename Queue>
BatchDecision decide_batch(const Queue& queue, double now_s, const BatcherSettings& settings) {
  BatchDecision decision;
  if (queue.empty()) return decision;
  if (!settings.dynamic_batching) {
    // Without dynamic batching each request runs alone.
    decision.kind = BatchDecision::Kind::dispatch;
    decision.request_count = 1;
    decision.batch_size = queue.front().batch_size;
    return decision;
  }
  const int max_preferred = settings.max_preferred_batch_size();
  std::size_t pending_count = 0;
  int pending_size = 0;
  std::size_t best_count = 0; // longest prefix whose size is a preferred batch size
  int best_size = 0;
  bool send_now = false;
  for (const auto& request : queue) {
    // Whole requests only: the batcher never splits a request to fill a batch.
    if (pending_count > 0 && pending_size + request.batch_size > max_preferred) {
      send_now = true;
      break;
    }
    ++pending_count;
    pending_size += request.batch_size;
    if (settings.is_preferred(pending_size)) {
      best_count = pending_count;
      best_size = pending_size;
    }
  }
  if (best_count > 0) {
    decision.kind = BatchDecision::Kind::dispatch;
    decision.request_count = best_count;
    decision.batch_size = best_size;
    return decision;
  }
  const double oldest_deadline_s = queue.front().enqueued_s + settings.max_queue_delay_s;
  if (send_now || settings.max_queue_delay_s <= 0.0 || pending_size >= max_preferred ||
      now_s >= oldest_deadline_s) {
    decision.kind = BatchDecision::Kind::dispatch;
    decision.request_count = pending_count;
    decision.batch_size = pending_size;
    return decision;
  }
  decision.kind = BatchDecision::Kind::wait_until;
  decision.wake_at_s = oldest_deadline_s;
  return decision;
}

// True when a request has waited longer than the queue policy's timeout (Triton rejects it instead of running
// it).
inline bool has_timed_out(const QueuedRequestView& request, double now_s, double timeout_s) {
  return now_s - request.enqueued_s > timeout_s;
}

} // namespace sonicsim
