// The Triton dynamic-batcher dispatch rule (DESIGN.md, "Triton dynamic batcher dispatch"), one case per rule.
#include "sim/policy/dynamic_batcher.hpp"

#include <doctest/doctest.h>

#include <vector>

using sonicsim::BatchDecision;
using sonicsim::BatcherSettings;
using sonicsim::decide_batch;
using sonicsim::QueuedRequestView;

namespace {

std::vector<QueuedRequestView> queue_of(const std::vector<int>& sizes, double enqueued_s = 0.0) {
  std::vector<QueuedRequestView> queue;
  for (const int size : sizes)
    queue.push_back({size, enqueued_s});
  return queue;
}

BatcherSettings dynamic(int max_batch_size, std::vector<int> preferred, double delay_s) {
  BatcherSettings settings;
  settings.max_batch_size = max_batch_size;
  settings.dynamic_batching = true;
  settings.preferred_batch_sizes = std::move(preferred);
  settings.max_queue_delay_s = delay_s;
  return settings;
}

} // namespace

TEST_CASE("batcher: an empty queue leaves the instance idle") {
  CHECK(decide_batch(queue_of({}), 0.0, dynamic(64, {}, 0.0)).kind == BatchDecision::Kind::idle);
}

TEST_CASE("batcher: without dynamic batching each request runs alone") {
  BatcherSettings settings;
  settings.max_batch_size = 16384;
  const auto decision = decide_batch(queue_of({1693, 1700, 20}), 0.0, settings);
  CHECK(decision.kind == BatchDecision::Kind::dispatch);
  CHECK(decision.request_count == 1);
  CHECK(decision.batch_size == 1693);
}

TEST_CASE("batcher: with no delay everything that fits under max_batch_size goes at once") {
  // 3 + 4 + 5 = 12 <= 16; the next request (8) would exceed max_pref = max_batch_size = 16.
  const auto decision = decide_batch(queue_of({3, 4, 5, 8}), 0.0, dynamic(16, {}, 0.0));
  CHECK(decision.kind == BatchDecision::Kind::dispatch);
  CHECK(decision.request_count == 3);
  CHECK(decision.batch_size == 12);
}

TEST_CASE("batcher: whole requests only, never split") {
  // 10 fits, 10 + 10 = 20 > 16: the second request waits for the next batch although 6 slots are free.
  const auto decision = decide_batch(queue_of({10, 10}), 0.0, dynamic(16, {}, 0.001));
  CHECK(decision.request_count == 1);
  CHECK(decision.batch_size == 10);
}

TEST_CASE("batcher: a preferred size reached is dispatched at once, even inside the delay") {
  // Preferred {4, 8}: prefixes are 2, 4, 6, 8 -> the longest preferred prefix is 8 (4 requests).
  const auto decision = decide_batch(queue_of({2, 2, 2, 2}, 0.0), 0.0, dynamic(64, {4, 8}, 1.0));
  CHECK(decision.kind == BatchDecision::Kind::dispatch);
  CHECK(decision.request_count == 4);
  CHECK(decision.batch_size == 8);
}

TEST_CASE("batcher: the largest preferred prefix wins over a later non-preferred size") {
  // max_pref = 8: prefixes 4 (preferred), 7, then 7 + 4 > 8 stops the scan -> best = the 4-prefix.
  const auto decision = decide_batch(queue_of({4, 3, 4}), 0.0, dynamic(64, {4, 8}, 1.0));
  CHECK(decision.kind == BatchDecision::Kind::dispatch);
  CHECK(decision.request_count == 1);
  CHECK(decision.batch_size == 4);
}

TEST_CASE("batcher: below every preferred size it waits until the oldest request's delay runs out") {
  // Oldest enqueued at 10.0 s with a 100 us delay: wake at 10.0001 s.
  const auto queue = queue_of({3}, 10.0);
  const auto settings = dynamic(64, {4, 8}, 100e-6);
  const auto waiting = decide_batch(queue, 10.00005, settings);
  CHECK(waiting.kind == BatchDecision::Kind::wait_until);
  CHECK(waiting.wake_at_s == doctest::Approx(10.0001).epsilon(1e-12));
  // Once the delay has run out, the partial batch goes.
  const auto expired = decide_batch(queue, 10.0001, settings);
  CHECK(expired.kind == BatchDecision::Kind::dispatch);
  CHECK(expired.batch_size == 3);
}

TEST_CASE("batcher: a queue that overflows max_pref is sent now without waiting") {
  // 5 + 5 = 10 > max_pref 8 -> send_now: the 5 goes immediately although 5 is not preferred and the delay is
  // long.
  const auto decision = decide_batch(queue_of({5, 5}), 0.0, dynamic(64, {4, 8}, 10.0));
  CHECK(decision.kind == BatchDecision::Kind::dispatch);
  CHECK(decision.batch_size == 5);
}

TEST_CASE("batcher: reaching max_pref exactly dispatches") {
  // No preferred sizes: max_pref = max_batch_size = 12; 6 + 6 = 12 >= max_pref.
  const auto decision = decide_batch(queue_of({6, 6}), 0.0, dynamic(12, {}, 10.0));
  CHECK(decision.kind == BatchDecision::Kind::dispatch);
  CHECK(decision.batch_size == 12);
}

TEST_CASE("batcher: one request larger than max_pref but within max_batch_size runs alone") {
  const auto decision = decide_batch(queue_of({20, 1}), 0.0, dynamic(32, {8}, 10.0));
  CHECK(decision.kind == BatchDecision::Kind::dispatch);
  CHECK(decision.request_count == 1);
  CHECK(decision.batch_size == 20);
}

TEST_CASE("batcher: queue-policy timeout") {
  const QueuedRequestView request{4, 1.0};
  CHECK_FALSE(sonicsim::has_timed_out(request, 1.5, 1.0)); // waited 0.5 s of 1 s
  CHECK(sonicsim::has_timed_out(request, 2.5, 1.0));       // waited 1.5 s > 1 s
}
