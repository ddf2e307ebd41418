// The Triton front end of one model on one pod: a request queue, the dynamic batcher (sim/policy), and the
// model instances that execute batches on the pod's devices or host cores, which it shares with the other
// models of the pod (sim/policy/server_resources.hpp states the sharing rule). As in Triton, an instance that
// takes a batch prepares its inputs (compute_input, on a host core), executes it, and prepares its outputs
// (compute_output, on a host core), and is busy from the first step to the last. Requests are plain C++
// objects handed over by the jobs (state machines in kernel context); no mailbox is involved (matching many
// pending messages on a mailbox is slow), and batches run on calendar events (event_calendar.hpp) rather
// than actors: a batch costs one event, not four actor switches.
#pragma once

#include "sim/metrics/run_recorder.hpp"
#include "sim/policy/dynamic_batcher.hpp"
#include "sim/policy/load_metrics.hpp"
#include "sim/policy/node_sharing.hpp"
#include "sim/policy/server_resources.hpp"
#include "sim/scenario/scenario.hpp"

#include <simgrid/s4u.hpp>

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

namespace sonicsim {

struct InferenceRequest;

// Who sent a request: told when it is answered (or rejected after queueing), in kernel context.
class RequestOwner {
public:
  virtual void answered(InferenceRequest& request) = 0;
  // The server failed with the request in it: no answer will come (the client's timeout notices).
  virtual void lost(InferenceRequest&) {}
  // The server was stopped with the request in it and the proxy told the client at once (Envoy resets the
  // stream when its upstream closes): the client may retry now. By default as lost.
  virtual void reset(InferenceRequest& request) { lost(request); }

protected:
  ~RequestOwner() = default;
};

// The way from the server back to the client. A small reply (NetworkSettings::small_reply_max_bytes) is not
// simulated as a flow: it takes what SimGrid gives an uncontended flow on that path, latency + bytes / rate.
struct ReplyRoute {
  bool on_node = false; // a local socket: no network to cross
  double latency_s = 0.0;
  double rate_bytes_per_s = 0.0;
  double small_max_bytes = 0.0;
  // None: the reply is too large for a delay and must be a flow.
  std::optional<double> delay_s(double bytes) const {
    if (on_node) return 0.0;
    if (bytes > small_max_bytes) return std::nullopt;
    return latency_s + bytes / rate_bytes_per_s;
  }
};

// A refused or dropped request is answered with a short error message of this size.
constexpr double error_reply_bytes = 100.0;

// One inference request in flight. Owned by the client, which waits until its owner is told.
struct InferenceRequest {
  int batch_size = 0;
  double input_bytes = 0.0;  // as received (compressed, if the client compresses)
  double output_bytes = 0.0; // of the reply
  RequestOwner* owner = nullptr;
  ReplyRoute reply_route;
  bool done = false;
  std::optional<Rejection> rejection; // set when the server refused or dropped the request
  // What goes back: the outputs, or an error message.
  double reply_bytes() const { return rejection ? error_reply_bytes : output_bytes; }
  // The reply delay is the server's: it answers (tells the owner) this long after the batch ends or the
  // request is refused. None: it tells the owner at once and the reply travels as a flow.
  std::optional<double> reply_delay_s() const { return reply_route.delay_s(reply_bytes()); }
};

// What the models on one pod share: its devices and its host's cores.
struct PodResources {
  int group = 0;        // index in platform.server_groups
  int number = 0;       // the pod's global number (ServerLayout), for its metrics
  bool proxied = false; // its group's requests come through a proxy (a pooled group), for its metrics
  int first_device = 0; // its first device's number over all groups (the recorder's per-device figures)
  std::vector<DeviceTimeline> devices;
  HostCores host;
  PodLoad load;
  // A fallback pod on a shared client node (platform.client_node): the node's load its CPU batches join, so
  // that they slow the node's job threads and run at the node's factor. None elsewhere.
  const ClientNode* node = nullptr;
  NodeLoad* node_load = nullptr;
  PodResources(int group_index, int first_device_index, int devices_per_pod, int host_cores,
               double model_switch_s = 0.0, double model_switch_slowdown = 0.0)
      : group(group_index), first_device(first_device_index),
        devices(static_cast<std::size_t>(devices_per_pod),
                DeviceTimeline(model_switch_s, model_switch_slowdown)),
        host(host_cores) {}
};

class InferenceServer {
public:
  // `model_index` numbers the model in the recorder's per-model figures (ServerLayout::served_models).
  // `instances`: the model's instances on this pod; default its instance_group on this group
  // (effective_instance_groups).
  InferenceServer(const Model& model, int model_index, const ServerGroup& group, PodResources& pod,
                  RunRecorder& recorder,
                  std::optional<std::vector<InstanceGroup>> instance_groups = std::nullopt);
  InferenceServer(const InferenceServer&) = delete;
  InferenceServer& operator=(const InferenceServer&) = delete;

  // Called in kernel context when the request has arrived at the pod. Returns the reason when it is rejected
  // on arrival (larger than max_batch_size, or the queue is full); otherwise its owner is told later (and
  // reads `rejection` then: a queued request can time out).
  // Every request is answered through its owner, a refused one too (request.rejection says why).
  void submit(InferenceRequest& request);
  // Ends service: the jobs are stopped (end of a campaign window), so the requests they own
  // must not be touched again; batches still in flight finish without answering.
  void stop();
  // The pod fails: every request in the queue or in a batch is lost (its owner is told `lost`), and requests
  // that arrive are lost too, until restore(). Batches on the devices run out without answering.
  void fail();
  // The pod is stopped at the end of its pre-stop period: as fail(), but every request it held is reset
  // (its owner told `reset`), as the proxy tells the clients of a closed upstream.
  void stop_resetting();
  void restore() { failed_ = false; }

private:
  struct QueuedEntry : QueuedRequestView {
    InferenceRequest* request = nullptr;
  };
  // Instances of this model on one device (or, with no device, on the host's cores: CPU instances). Instances
  // take batches independently; where they run, batches queue as the resource's sharing rule says.
  struct InstanceSlot {
    std::optional<int> device; // within the pod; none: the host's cores
    int idle_instances = 0;
    const ThroughputCurve* curve = nullptr;
  };
  // A batch taken by an instance, from dispatch until it has executed.
  struct Batch {
    std::size_t slot = 0;
    bool in_flight = false;
    double taken_s = 0.0; // when its instance took it
    std::vector<InferenceRequest*> requests;
    // Set when the batch has host work (compute_input or compute_output): what execute() needs.
    int batch_size = 0;
    int request_count = 0;
    double queue_wait_sum_s = 0.0;
    double duration_s = 0.0; // on the device (or the CPU instance's core)
    double output_s = 0.0;   // compute_output, on a host core after the execution
    // For the servers' metrics, set on every path: the input handling's time, the execution's times, and
    // the time the queue wait was measured to.
    double input_s = 0.0;
    double exec_start_s = 0.0, exec_end_s = 0.0, queue_end_s = 0.0;
  };
  // The pod's load counters, and the servers' metrics (when the run writes them): the batch is answered.
  void record_batch_metrics(const Batch& batch) const;

  std::optional<Rejection> enqueue(InferenceRequest& request);
  // Lets idle instances take batches while the batcher says so; arms the delay timer when it says wait.
  void dispatch();
  Batch* take_batch(); // a finished batch's record again, or a new one
  // The queue's first `count` requests into `batch`; returns their summed wait in the queue up to
  // `waited_until_s` (a batch with host work: when it leaves the queue for its input handling; one without:
  // when its device starts it).
  double take_requests(Batch& batch, std::size_t count, double waited_until_s);
  void finish_batch(Batch* batch);
  void drop_timed_out_requests(double now_s);
  // fail() (the owners told `lost`) or stop_resetting() (told `reset`).
  void drop_held(bool reset);
  // The slot with an idle instance whose resource is free soonest (lowest index on ties); none if none is
  // idle.
  std::optional<std::size_t> slot_for_next_batch() const;
  // A batch whose inputs are ready: runs it on its device (or core), then its output handling on a host core.
  void execute(Batch* batch);
  // Books `duration_s` of execution on the slot's device (or a host core, for a CPU instance) and records it.
  Booking run_on(const InstanceSlot& slot, double now_s, double duration_s);
  // Answers a request: tells its owner now, or after its reply delay when it has one and was not rejected.
  void complete(InferenceRequest& request);
  static void wake(InferenceRequest& request);

  const Model& model_;
  int model_index_;
  PodResources& pod_;
  RunRecorder& recorder_;
  const bool has_host_work_; // compute_input or compute_output costs something
  BatcherSettings batcher_;
  // SimGrid runs one actor (or maestro) at a time, so this state needs no lock.
  std::deque<QueuedEntry> queue_;
  std::vector<InstanceSlot> slots_;
  std::deque<Batch> batch_storage_;        // stable addresses for batches in flight
  std::vector<Batch*> free_batches_;       // reused, so steady state allocates nothing
  std::optional<double> armed_deadline_s_; // the delay timer's date, when one is armed
  bool stopped_ = false;
  bool failed_ = false;
};

} // namespace sonicsim
