// The Triton front end of one model on one pod: a request queue, the dynamic batcher (sim/policy), and the
// model instances that execute batches on the pod's GPUs. Requests are plain C++ objects handed over by the
// client actors; no mailbox is involved (matching many pending messages on a mailbox is slow), and batches
// run on SimGrid kernel timers rather than actors: a batch costs one timer, not four actor switches.
#pragma once

#include "sim/metrics/run_recorder.hpp"
#include "sim/policy/dynamic_batcher.hpp"
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
  // Set: the reply is not simulated as a flow but reaches the client this long after its batch ends (see
  // NetworkSettings::small_reply_max_bytes); the server then wakes the client only at that time. None: the
  // client is woken when the batch ends and receives the reply as a flow.
  std::optional<double> reply_delay_s;
  bool done = false;
  std::optional<Rejection> rejection; // set when the server refused or dropped the request
};

class InferenceServer {
public:
  InferenceServer(const Model& model, const ThroughputCurve& curve, int gpu_count, RunRecorder& recorder);
  InferenceServer(const InferenceServer&) = delete;
  InferenceServer& operator=(const InferenceServer&) = delete;

  // Called from a client actor when the request has arrived at the pod. Returns the reason when it is
  // rejected on arrival (larger than max_batch_size, or the queue is full); otherwise the client must wait
  // for `done`.
  std::optional<Rejection> submit(InferenceRequest& request);
  // Ends service: the clients are about to be killed (end of a campaign window), so the requests they own
  // must not be touched again; batches still in flight finish without answering.
  void stop();

private:
  struct QueuedEntry : QueuedRequestView {
    InferenceRequest* request = nullptr;
  };
  // A batch taken by an instance, from dispatch until its GPU has executed it.
  struct Batch {
    int gpu = 0;
    std::vector<InferenceRequest*> requests;
  };
  // Instances on one GPU take batches independently; the GPU executes whole batches one after another, so
  // its throughput is the measured curve whatever the number of instances.
  struct Gpu {
    int idle_instances = 0;
    double busy_until_s = 0.0;
  };

  // Lets idle instances take batches while the batcher says so; arms the delay timer when it says wait.
  void dispatch();
  void finish_batch(Batch* batch);
  void drop_timed_out_requests(double now_s);
  int gpu_for_next_batch() const;
  // Answers a request: wakes its client now, or after its reply delay when it has one and was not rejected.
  void complete(InferenceRequest& request);
  static void wake(InferenceRequest& request);

  const Model& model_;
  const ThroughputCurve& curve_;
  RunRecorder& recorder_;
  BatcherSettings batcher_;
  // SimGrid runs one actor (or maestro) at a time, so this state needs no lock.
  std::deque<QueuedEntry> queue_;
  std::vector<Gpu> gpus_;
  std::deque<Batch> batch_storage_;        // stable addresses for batches in flight
  std::vector<Batch*> free_batches_;       // reused, so steady state allocates nothing
  std::optional<double> armed_deadline_s_; // the delay timer's date, when one is armed
  bool stopped_ = false;
};

} // namespace sonicsim
