// The Triton front end of one model on one pod: a request queue, the dynamic batcher (sim/batching), and the
// model instances that execute batches on the pod's GPUs. Requests are plain C++ objects handed over by the
// client actors; no mailbox is involved (matching many pending messages on a mailbox is slow).
#pragma once

#include "sim/batching/dynamic_batcher.hpp"
#include "sim/metrics/run_recorder.hpp"
#include "sim/scenario/scenario.hpp"

#include <simgrid/s4u.hpp>

#include <deque>
#include <optional>
#include <vector>

namespace sonicsim {

// One inference request in flight. Owned by the client, which waits (suspended) until `done` is set.
struct InferenceRequest {
  int batch_size = 0;
  simgrid::s4u::Actor* client = nullptr;
  bool done = false;
  std::optional<Rejection> rejection; // set when the server refused or dropped the request
};

class InferenceServer {
public:
  InferenceServer(const Model& model, const ThroughputCurve& curve, std::vector<simgrid::s4u::Host*> gpus,
                  RunRecorder& recorder);
  InferenceServer(const InferenceServer&) = delete;
  InferenceServer& operator=(const InferenceServer&) = delete;

  // Starts the model instances (daemon actors: they end when the last job does).
  void start();
  // Called from a client actor when the request has arrived at the pod. Returns the reason when it is rejected
  // on arrival (larger than max_batch_size, or the queue is full); otherwise the client must wait for `done`.
  std::optional<Rejection> submit(InferenceRequest& request);

private:
  struct QueuedEntry : QueuedRequestView {
    InferenceRequest* request = nullptr;
  };
  void run_instance(int gpu_index);
  void run_delay_timer();
  void wake_one_idle_instance();
  void drop_timed_out_requests(double now_s);
  static void complete(InferenceRequest& request);

  const Model& model_;
  const ThroughputCurve& curve_;
  std::vector<simgrid::s4u::Host*> gpus_;
  RunRecorder& recorder_;
  BatcherSettings batcher_;
  std::deque<QueuedEntry> queue_;
  // SimGrid runs one actor at a time and switches only at simulation calls, so this state needs no lock.
  // Idle instances suspend themselves; an arrival resumes one. The delay timer wakes one when the oldest
  // request's max_queue_delay runs out.
  std::vector<simgrid::s4u::Actor*> idle_instances_;
  simgrid::s4u::Actor* delay_timer_ = nullptr;
  std::optional<double> delay_deadline_s_;
  std::vector<int> active_batches_per_gpu_;
  std::vector<double> gpu_busy_since_s_;
};

} // namespace sonicsim
