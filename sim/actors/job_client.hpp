// One grid job: a closed loop over events, each running the scenario's module pipeline, on workload.threads
// threads at once (CMSSW streams). Remote inference is a
// synchronous, blocking gRPC-like call per request (as in LArSoft): send the inputs, wait for the server,
// receive the outputs; or, with client mode async, up to max_in_flight such calls at once. Runs as a SimGrid
// actor: the constructor checks and prepares, operator()() runs the job.
#pragma once

#include "sim/actors/inference_server.hpp"
#include "sim/metrics/run_recorder.hpp"
#include "sim/platform/site_platform.hpp"
#include "sim/policy/request_split.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/server_layout.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace sonicsim {

// Where every model is served: the layout, and each served model's front end on each pod that serves it.
struct ServerDirectory {
  ServerLayout layout;
  std::vector<std::vector<InferenceServer*>> servers; // [model index][pod]: null on pods not serving it
  std::vector<std::unique_ptr<InferenceServer>> owned;
};

struct JobPlacement {
  int job = 0;
  int worker = 0;            // worker node index in the platform
  std::vector<int> pods;     // per served model: the pod its gRPC channel is connected to (for the whole job)
  double cpu_speed = 1.0;    // relative speed of its CPU type
  double start_s = 0.0;      // when the job starts its first event
  std::optional<int> events; // events to process; default: workload.events_per_job
  bool local_gpu = false;    // its node has a GPU: remote_inference modules run there, without the network
};

class JobClient {
public:
  JobClient(const Scenario& scenario, const SitePlatform& site, const ServerDirectory& servers,
            RunRecorder& recorder, JobPlacement placement, std::function<void()> on_finish = {});
  void operator()();

private:
  // The job's channel to one model: its pod, the links on the way, and the server behind it.
  struct Connection {
    int pod = 0;
    InferenceServer* server = nullptr;
    const Model* model = nullptr;
    const ThroughputCurve* local_curve = nullptr; // local GPU: the model's curve on its first group's device
    bool on_node = false; // the fallback server on the job's own node: requests and replies skip the network
    std::vector<LinkId> request_links, response_links;
    // The reply path (pod -> worker node) as SimGrid times an uncontended flow on it: latency + bytes / rate.
    double reply_latency_s = 0.0;
    double reply_rate_bytes_per_s = 0.0;
  };

  // Runs one remote-inference module; returns false if the event failed (a request rejected too often).
  bool run_remote_inference(const Module& module, const Connection& connection, EventRecord& event,
                            std::mt19937_64& rng);
  // One thread's loop: takes the job's next event until none is left.
  void run_events(std::mt19937_64& rng);
  bool send_request(const Module& module, const Connection& connection, int batch_size, EventRecord& event);
  bool send_requests_in_flight(const Module& module, const Connection& connection,
                               const std::vector<int>& requests, EventRecord& event);
  // How long a reply of this size takes from the pod when it is not simulated as a flow; none when it must be
  // a flow (larger than platform.network.small_reply_max).
  std::optional<double> small_reply_delay_s(const Connection& connection, double bytes) const;

  const Scenario& scenario_;
  const SitePlatform& site_;
  const ServerDirectory& servers_;
  RunRecorder& recorder_;
  JobPlacement placement_;
  std::function<void()> on_finish_; // campaign mode: frees the grid slot (the scheduler records the job)
  std::mt19937_64 rng_;             // the first thread's stream
  // Shared by the job's threads (SimGrid runs one actor at a time: no lock).
  int events_ = 0;
  int next_event_ = 0;
  double job_start_s_ = 0.0;
  double warmup_end_s_ = 0.0;           // the latest end of a warm-up event
  std::vector<Connection> connections_; // per served model
  std::vector<int> module_connection_;  // per pipeline module: index in connections_ (-1: not remote)
  RequestSplitter request_splitter_;
};

} // namespace sonicsim
