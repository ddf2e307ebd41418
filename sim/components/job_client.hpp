// One grid job: a closed loop over events, each running the scenario's module pipeline, on workload.threads
// threads at once (CMSSW streams). Remote inference is a synchronous, blocking gRPC-like call per request (as
// in LArSoft): send the inputs, wait for the server, receive the outputs; or, with client mode async, up to
// max_in_flight such calls at once.
//
// A job is not a SimGrid actor: each of its threads is a state machine driven by calendar events
// (event_calendar.hpp: CPU work, sleeps), flows (kernel_flows.hpp) and the server's answers. What an actor
// would do in sequence, a thread does step by step, each step scheduling the next. SimGrid still times every
// flow and shares every link; the job costs no stack and no context switch.
#pragma once

#include "sim/components/inference_server.hpp"
#include "sim/components/run_length.hpp"
#include "sim/kernel/event_calendar.hpp"
#include "sim/kernel/kernel_flows.hpp"
#include "sim/metrics/run_recorder.hpp"
#include "sim/platform/site_platform.hpp"
#include "sim/policy/node_sharing.hpp"
#include "sim/policy/request_split.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/server_layout.hpp"

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace sonicsim {

class ServerPool;

// Where every model is served: the layout, and each served model's front end on each pod that serves it.
struct ServerDirectory {
  ServerLayout layout;
  std::vector<std::vector<InferenceServer*>> servers; // [model index][pod]: null on pods not serving it
  std::vector<std::unique_ptr<InferenceServer>> owned;
  // Operations: per served model, the pool of its group (null when its pods are fixed), and the first pod of
  // the client's fallback group (workload.client.fallback; its servers are in `servers` too).
  std::vector<ServerPool*> pools;
  std::optional<int> fallback_first_pod;
};

// Requests whose client gave up on them (a timeout) while a server still holds them: they belong to this
// until the server answers or loses them, then go back to the free list. Requests live for the whole run.
class RequestStore final : public RequestOwner {
public:
  InferenceRequest* acquire();
  void orphan(InferenceRequest& request) { request.owner = this; }
  void answered(InferenceRequest& request) override { free_.push_back(&request); }
  void lost(InferenceRequest& request) override { free_.push_back(&request); }
  void reset(InferenceRequest& request) override { free_.push_back(&request); }

private:
  std::deque<InferenceRequest> storage_;
  std::vector<InferenceRequest*> free_;
};

struct JobPlacement {
  int job = 0;
  int worker = 0;            // worker node index in the platform
  std::vector<int> pods;     // per served model: the pod its gRPC channel is connected to (for the whole job)
  double cpu_speed = 1.0;    // relative speed of its CPU type
  double start_s = 0.0;      // when the job starts its first event
  std::optional<int> events; // the job's events, all submissions together; default: workload.events_per_job
  // Events of this job that ended (completed or failed for good) in its earlier submissions: a resubmission
  // goes on from there, numbering its events after them, and never runs one of them again.
  int first_event = 0;
  bool local_gpu = false; // its node has a GPU: remote_inference modules run there, without the network
  // How many times this job was preempted and resubmitted before: each submission draws its own time to
  // preemption (the same draw every time would preempt a resubmitted job at the same point, for ever).
  int resubmission = 0;
};

class JobClient;

// What every job of a run shares: the scenario, the platform, the servers, the recorder and the flows; and
// the jobs themselves, which live until the run ends (a stopped job may still have timers pending).
struct JobContext {
  // What every job reads or reaches; the rest starts as a run starts.
  JobContext(const Scenario& scenario_in, const SitePlatform& site_in, const ServerDirectory& servers_in,
             RunRecorder& recorder_in, KernelFlows& flows_in)
      : scenario(scenario_in), site(site_in), servers(servers_in), recorder(recorder_in), flows(flows_in) {}
  const Scenario& scenario;
  const SitePlatform& site;
  const ServerDirectory& servers;
  RunRecorder& recorder;
  KernelFlows& flows;
  std::vector<std::unique_ptr<JobClient>> jobs;
  bool stopped = false; // a campaign's window or a stopped fixed run's ended: jobs do nothing more
  std::optional<double> stopped_at_s; // when
  bool stop_scheduled = false;        // output.stop_at_window_end: the window has closed, the stop is due
  // campaign.finish_events: events started before the window's end and not yet ended; the run goes on
  // until there are none.
  int events_open_at_end = 0;
  // Fixed runs: the events per job, extended by the precision rule; none in campaigns (their slots' events
  // are set by the scheduler).
  RunLength* run_length = nullptr;
  RequestStore requests;
  bool jobs_done = false; // a fixed run's last job has finished (the server pools stop polling)
  std::size_t preempted_since_reclaim = 0; // fixed runs: preempted jobs not yet looked at for reclaiming
  // Per worker node: its threads computing now, and those of them running inference (platform.client_node;
  // a fallback server on the node counts its executing instances here too).
  std::vector<NodeLoad> node_loads;
};

class JobClient {
public:
  // `on_finish` runs when the job's last thread has finished (campaign mode: frees the grid slot; the
  // scheduler records the job). Outside campaigns the job records itself first.
  // `on_preempted` runs when the job is preempted (workload.preemption), with the number of its events not
  // done (the lost ones and those it never started) and of those that ended; the job then never finishes,
  // and on_finish never runs.
  JobClient(JobContext& context, JobPlacement placement, std::function<void()> on_finish = {},
            std::function<void(int events_back, int events_ended)> on_preempted = {});
  JobClient(const JobClient&) = delete;
  JobClient& operator=(const JobClient&) = delete;
  ~JobClient();

  // Schedules the job's start (at placement.start_s). Call once, in kernel context or before the run.
  void start();
  // Its threads are done, or it was preempted; and nothing on the way will call it any more: no flow or reply
  // of a given-up try (timeout, preemption), no pending step. It may be destroyed.
  bool finished() const {
    return calls_in_flight_ == 0 && started_ && (preempted_ ? preempt_returned_ : threads_running_ == 0);
  }
  const JobPlacement& placement() const { return placement_; }
  // The run stopped at its steady-state window's end with this job still running (a fixed run): its
  // interval up to now is recorded as a finished job's would be.
  void record_stopped_interval() const;
  bool preempted() const { return preempted_; }

private:
  // The way to one pod: the links, and the server of the model behind it.
  struct Route {
    int pod = 0;
    InferenceServer* server = nullptr;
    bool on_node = false; // the fallback server on the job's own node: requests and replies skip the network
    std::vector<LinkId> request_links, response_links;
    KernelFlows::Path* request_path = nullptr;  // worker node -> pod
    KernelFlows::Path* response_path = nullptr; // pod -> worker node
    ReplyRoute reply_route; // the reply path (pod -> worker node) as SimGrid times an uncontended flow on it
  };
  // The job's channel to one model: one pod for the whole job (its gRPC channel), or, behind a pool, a pod
  // per request; and the fallback server on its own node.
  struct Connection {
    const Model* model = nullptr;
    int model_index = 0;                          // in the layout's served_models
    const ThroughputCurve* local_curve = nullptr; // local GPU: the model's curve on its first group's device
    Route fixed;
    ServerPool* pool = nullptr;
    mutable std::vector<std::unique_ptr<Route>> pool_routes; // per pod of the pool, built on first use
    std::optional<Route> fallback;
    bool refused = false; // the pool's rate limit refused this client: every request to the fallback
  };
  struct Thread;
  struct Sender;

  // Runs `then` after `delay_s` of simulated time (a calendar event), unless the job has been stopped. A
  // template, so that a small callable stays within the event's own storage (no allocation per step).
  template <class Then> void after(double delay_s, Then then) {
    ++calls_in_flight_;
    calendar::at(calendar::now_s() + delay_s, [job = this, then = std::move(then)]() mutable {
      --job->calls_in_flight_;
      if (!job->context_.stopped && !job->preempted_) then();
    });
  }
  // A piece of CPU work of `work_s` for a thread alone on a core at speed 1 (inference: machine-learning
  // inference on this CPU), then `then`. At the job's CPU speed; on a shared node (platform.client_node) also
  // at the factor the node's load gives when it starts (sim/policy/node_sharing.hpp), counted in that load
  // until it ends. The factor is taken once, at the start: a thread's next piece sees the load anew.
  template <class Then> void compute(double work_s, bool inference, Then then) {
    const ClientNode& node = context_.scenario.platform.client_node;
    if (!node.enabled()) {
      after(work_s / placement_.cpu_speed, std::move(then));
      return;
    }
    NodeLoad& load = context_.node_loads[static_cast<std::size_t>(placement_.worker)];
    ++load.busy;
    load.inference += inference ? 1 : 0;
    const double factor = thread_speed_factor(node, load.busy, load.inference);
    ++calls_in_flight_;
    calendar::at(calendar::now_s() + work_s / (placement_.cpu_speed * factor),
                 [job = this, &load, inference, then = std::move(then)]() mutable {
                   --load.busy;
                   load.inference -= inference ? 1 : 0;
                   --job->calls_in_flight_;
                   if (!job->context_.stopped && !job->preempted_) then();
                 });
  }
  // `call` wrapped so that the job counts it as on the way until it runs (a flow's end or a deferred reply
  // holds the job's address: the job is not reclaimed before it has run).
  template <class Call> auto counted(Call call) {
    ++calls_in_flight_;
    return [job = this, call = std::move(call)]() mutable {
      --job->calls_in_flight_;
      call();
    };
  }
  double client_side_work_s(const Module& module, const Model& model, std::int64_t inferences,
                            const std::vector<int>& requests) const;
  void begin();
  // After the connections are made (and any hold at a scaled-to-zero group is over): the job's threads
  // take their events.
  void start_threads();
  void thread_finished();
  // workload.preemption: the job stops here; its events in progress are lost, its requests given up.
  void preempt();
  Route route_to(int model, int pod, bool on_node) const;
  // The route of a sender's next try: the fallback, the pool's choice, or the job's pod; none when the pool
  // refuses it (rate limit, or no pod serving).
  const Route* choose_route(Sender& sender);

  // One thread's loop, step by step.
  void next_event(Thread& thread);
  void next_module(Thread& thread);
  void module_done(Thread& thread);
  void run_remote(Thread& thread, const Module& module, const Connection& connection);
  void remote_done(Thread& thread, bool ok);
  // One sender of a remote module (one for synchronous calls, up to max_in_flight for asynchronous ones).
  void next_request(Sender& sender);
  void send_attempt(Sender& sender);
  void send(Sender& sender);
  void arrived(Sender& sender);
  void reply(Sender& sender);
  void reply_received(Sender& sender, double reply_at_s);
  // A try failed (refused, or no answer within the timeout): retry, fall back, or fail the event.
  void try_failed(Sender& sender, bool timed_out);
  void timed_out(Sender& sender);
  // The wide-area path is down at t_s (platform.wan.down): a request or reply crossing it then is lost,
  // and counted so.
  bool wan_down(double t_s);
  void refused(Sender& sender);
  // The pod the try was at was stopped with it (its pre-stop period over): failed at once, as refused.
  void reset_by_proxy(Sender& sender);
  // The sender's try is over: the pool's count of outstanding requests and the timeout timer are released.
  void try_ended(Sender& sender);

  JobContext& context_;
  const Scenario& scenario_;
  JobPlacement placement_;
  std::function<void()> on_finish_;
  std::function<void(int, int)> on_preempted_;
  bool preempted_ = false;
  bool preempt_returned_ = false; // preempt() and the resubmission it asked for are done
  CalendarEvent preemption_;      // armed at the start, cancelled when the job ends
  simgrid::s4u::Host* worker_ = nullptr;
  int events_ = 0;
  int next_event_ = 0; // the job's next event, whichever thread is free
  int threads_running_ = 0;
  int calls_in_flight_ = 0; // flows and deferred replies that will call this job (see counted)
  bool started_ = false;
  int holds_pending_ = 0; // connections held at a scaled-to-zero group's proxy (begin -> start_threads)
  double job_start_s_ = 0.0;
  double warmup_end_s_ = 0.0; // the latest end of a warm-up event
  int warmup_events_ended_ = 0;
  std::vector<Connection> connections_;                       // per served model
  std::vector<std::optional<std::size_t>> module_connection_; // per pipeline module: index in connections_
  RequestSplitter request_splitter_;
  std::vector<std::unique_ptr<Thread>> threads_;
};

} // namespace sonicsim
