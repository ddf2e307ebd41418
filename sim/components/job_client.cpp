#include "sim/components/job_client.hpp"
#include "sim/kernel/event_calendar.hpp"

#include "sim/components/job_client_parts.hpp"
#include "sim/components/server_pool.hpp"
#include "sim/random/distribution.hpp"
#include "sim/random/random_streams.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sg4 = simgrid::s4u;

namespace sonicsim {

JobClient::JobClient(JobContext& context, JobPlacement placement, std::function<void()> on_finish,
                     std::function<void(int, int)> on_preempted)
    : context_(context), scenario_(context.scenario), placement_(std::move(placement)),
      on_finish_(std::move(on_finish)), on_preempted_(std::move(on_preempted)) {
  const SitePlatform& site = context_.site;
  const ServerLayout& layout = context_.servers.layout;
  worker_ = site.worker_hosts[static_cast<std::size_t>(placement_.worker)];
  for (const auto& module : scenario_.workload.pipeline)
    module_connection_.push_back(module.served() ? layout.model_index(module.model) : std::nullopt);
  const ServerDirectory& servers = context_.servers;
  for (std::size_t m = 0; m < layout.served_models.size(); ++m) {
    Connection c;
    c.model = &scenario_.models.at(layout.served_models[m]);
    c.model_index = static_cast<int>(m);
    const ServerGroup& first_group =
        scenario_.platform.server_groups[static_cast<std::size_t>(layout.model_groups[m].front())];
    const auto local = c.model->throughput_by_device.find(first_group.device_type);
    if (local != c.model->throughput_by_device.end()) c.local_curve = &local->second;
    c.pool = servers.pools.empty() ? nullptr : servers.pools[m];
    if (!placement_.local_gpu && !c.pool)
      c.fixed = route_to(static_cast<int>(m), placement_.pods[m], first_group.on_client_nodes);
    if (c.pool) c.pool_routes.resize(servers.servers[m].size());
    if (!placement_.local_gpu && servers.fallback_first_pod)
      c.fallback = route_to(static_cast<int>(m), *servers.fallback_first_pod + placement_.worker, true);
    connections_.push_back(std::move(c));
  }
}

JobClient::Route JobClient::route_to(int model, int pod, bool on_node) const {
  const SitePlatform& site = context_.site;
  Route r;
  r.pod = pod;
  r.on_node = on_node;
  r.server = context_.servers.servers[static_cast<std::size_t>(model)][static_cast<std::size_t>(pod)];
  if (!on_node) {
    r.request_links = site.request_links(placement_.worker, pod);
    r.response_links = site.response_links(placement_.worker, pod);
    // A flow alone on its path takes latency + bytes / cap (kernel_flows.hpp): a small reply the same.
    sg4::Host* pod_host = site.pod_hosts[static_cast<std::size_t>(pod)];
    r.request_path = context_.flows.route(worker_, pod_host);
    r.response_path = context_.flows.route(pod_host, worker_);
    const FlowTiming reply = r.response_path->timing;
    r.reply_route.latency_s = reply.latency_s;
    r.reply_route.rate_bytes_per_s = reply.cap_bytes_per_s;
  }
  r.reply_route.on_node = on_node;
  r.reply_route.small_max_bytes = scenario_.platform.network.small_reply_max_bytes;
  return r;
}

JobClient::~JobClient() = default;

void JobClient::start() {
  calendar::at(std::max(placement_.start_s, calendar::now_s()), [this]() {
    if (!context_.stopped) begin();
  });
}

void JobClient::begin() {
  const auto& workload = scenario_.workload;
  started_ = true;
  job_start_s_ = calendar::now_s();
  warmup_end_s_ = job_start_s_;
  events_ = placement_.events.value_or(context_.run_length ? context_.run_length->current()
                                                           : workload.events_per_job);
  next_event_ = placement_.first_event;
  if (workload.warmup_events == 0 && !workload.campaign) context_.recorder.record_job_ready(job_start_s_);
  // A rate limit refusing new clients: the job's channel to that model is refused, and it calls the
  // fallback server for the whole job (or has every request refused, without one).
  for (auto& connection : connections_) {
    if (connection.pool) connection.pool->client_connected(); // its RepositoryIndex call
    if (connection.pool && connection.pool->refuses_new_clients()) {
      connection.refused = true;
      context_.recorder.operations()->client_refused();
    }
  }
  // A group at 0 pods (autoscaler.scale_to_zero) holds the client's first call until a pod serves: the job
  // starts its events once every such call is answered; a hold that times out refuses that channel.
  for (auto& connection : connections_) {
    if (!connection.pool || connection.refused || !connection.pool->holds_new_clients()) continue;
    ++calls_in_flight_;
    ++holds_pending_;
    connection.pool->hold_new_client([this, &connection](bool ready) {
      --calls_in_flight_;
      if (context_.stopped) return;
      if (!ready) {
        connection.refused = true;
        context_.recorder.operations()->client_refused();
      }
      if (--holds_pending_ == 0) start_threads();
    });
  }
  if (holds_pending_ == 0) start_threads();
}

void JobClient::start_threads() {
  const auto& workload = scenario_.workload;
  // Thread 0 uses the job's stream, thread t > 0 its own.
  threads_running_ = workload.threads;
  if (const auto& preemption = workload.preemption) {
    // Submission 0 keeps the stream it always had; a resubmission k takes the job's k-th sub-stream.
    auto rng = make_stream(scenario_.seed, stream_job_preemption,
                           static_cast<std::uint64_t>(placement_.job) +
                               (static_cast<std::uint64_t>(placement_.resubmission) << 32));
    std::exponential_distribution<double> time_to_preemption(1.0 / preemption->mean_time_s);
    // Drawn from the job's start; a job held at a scaled-to-zero group's proxy longer than that draw is
    // preempted as soon as it goes on.
    const double preempted_at_s = std::max(job_start_s_ + time_to_preemption(rng), calendar::now_s());
    preemption_ = calendar::at(preempted_at_s, [this]() {
      preemption_ = CalendarEvent{}; // it has run
      if (!context_.stopped) preempt();
    });
  }
  for (int t = 0; t < workload.threads; ++t) {
    auto thread = std::make_unique<Thread>();
    thread->rng =
        t == 0
            ? make_stream(scenario_.seed, stream_job, static_cast<std::uint64_t>(placement_.job))
            : make_stream(scenario_.seed, stream_job_thread,
                          static_cast<std::uint64_t>(placement_.job) * 256 + static_cast<std::uint64_t>(t));
    thread->event.job = placement_.job;
    thread->event.module_s.resize(workload.pipeline.size());
    threads_.push_back(std::move(thread));
  }
  // The order the threads take their first events in: threads 1, 2, ... first, then thread 0 (as CMSSW's
  // streams start, and as an actor that spawns its streams before running its own lets them run first).
  for (std::size_t t = 1; t < threads_.size(); ++t)
    next_event(*threads_[t]);
  next_event(*threads_.front());
}

void JobClient::thread_finished() {
  if (--threads_running_ > 0) return;
  // A campaign's scheduler records its jobs' slot intervals instead.
  if (!scenario_.workload.campaign)
    context_.recorder.record_job(job_start_s_, warmup_end_s_, calendar::now_s());
  calendar::cancel(preemption_); // a finished job may be reclaimed: nothing may call it any more
  if (on_finish_) on_finish_();
}

void JobClient::record_stopped_interval() const {
  // Only fixed runs without preemption stop so (window_stop.hpp).
  if (started_ && threads_running_ > 0)
    context_.recorder.record_job(job_start_s_, warmup_end_s_, calendar::now_s());
}

void JobClient::next_event(Thread& thread) {
  if (next_event_ >= events_ && context_.run_length && !placement_.events)
    events_ = context_.run_length->events_per_job(events_, calendar::now_s());
  if (next_event_ >= events_) {
    // The job's load starts falling here (its other threads finish their last events): the window closes.
    if (!scenario_.workload.campaign && !context_.stopped)
      context_.recorder.record_job_ran_out(calendar::now_s());
    thread_finished();
    return;
  }
  const auto& workload = scenario_.workload;
  // Campaign mode measures from a fixed time on: events starting earlier are warm-up.
  const double campaign_warmup_s = workload.campaign ? workload.campaign->warmup_s : 0.0;
  EventRecord& event = thread.event;
  const int index = next_event_++;
  event.event_index = index;
  event.start_s = calendar::now_s();
  event.requests = event.retries = 0;
  event.inferences = 0;
  event.failed = false;
  thread.failed_by_timeout = thread.used_fallback = false;
  thread.in_event = true;
  if (auto* operations = context_.recorder.operations()) operations->event_started();
  event.warmup = index < workload.warmup_events || event.start_s < campaign_warmup_s;
  if (workload.campaign && workload.campaign->finish_events && workload.campaign->window_s) {
    thread.after_end = event.start_s >= *workload.campaign->window_s;
    thread.open_at_end = !thread.after_end;
    if (thread.open_at_end) ++context_.events_open_at_end;
  }
  std::fill(event.module_s.begin(), event.module_s.end(), 0.0);
  thread.module = 0;
  next_module(thread);
}

void JobClient::next_module(Thread& thread) {
  const auto& pipeline = scenario_.workload.pipeline;
  EventRecord& event = thread.event;
  if (thread.module >= pipeline.size() || event.failed) {
    event.end_s = calendar::now_s();
    if (thread.open_at_end) --context_.events_open_at_end;
    thread.open_at_end = false;
    thread.in_event = false;
    event.outcome = event.failed           ? (thread.failed_by_timeout ? EventOutcome::failed_timed_out
                                                                       : EventOutcome::failed_rejected)
                    : thread.used_fallback ? EventOutcome::completed_with_fallback
                    : event.retries > 0    ? EventOutcome::completed_after_retry
                                           : EventOutcome::completed;
    if (!thread.after_end) context_.recorder.record_event(event);
    if (auto* operations = context_.recorder.operations()) operations->event_ended(event.outcome);
    if (event.warmup) {
      warmup_end_s_ = std::max(warmup_end_s_, event.end_s);
      if (++warmup_events_ended_ == scenario_.workload.warmup_events && !scenario_.workload.campaign)
        context_.recorder.record_job_ready(warmup_end_s_);
    }
    next_event(thread);
    return;
  }
  const Module& module = pipeline[thread.module];
  thread.module_start_s = calendar::now_s();
  switch (module.type) {
  case Module::Type::cpu:
    compute(sample(module.duration_s, thread.rng), false, [this, &thread]() { module_done(thread); });
    return;
  case Module::Type::local_inference: {
    const double preprocess_s = sample(module.preprocess_s, thread.rng);
    const auto inferences = sample_count(module.inferences, thread.rng);
    event.inferences += inferences;
    compute(preprocess_s + static_cast<double>(inferences) * module.local_time_per_inference_s, true,
            [this, &thread]() { module_done(thread); });
    return;
  }
  case Module::Type::remote_inference:
    if (module.run_direct) {
      // The model on this thread's own core: its direct-inference time, no request. Preprocessing and the
      // inference count are drawn as for a request, so both modes draw the same numbers.
      compute(sample(module.preprocess_s, thread.rng), false, [this, &thread, &module]() {
        thread.event.inferences += sample_count(module.inferences, thread.rng);
        compute(sample(*module.direct_s, thread.rng), true, [this, &thread]() { module_done(thread); });
      });
      return;
    }
    run_remote(thread, module, connections_[*module_connection_[thread.module]]);
    return;
  }
}

void JobClient::module_done(Thread& thread) {
  thread.event.module_s[thread.module] = calendar::now_s() - thread.module_start_s;
  ++thread.module;
  next_module(thread);
}

void JobClient::run_remote(Thread& thread, const Module& module, const Connection& connection) {
  thread.remote = &module;
  thread.connection = &connection;
  compute(sample(module.preprocess_s, thread.rng), false, [this, &thread, &module, &connection]() {
    const std::int64_t inferences = sample_count(module.inferences, thread.rng);
    thread.event.inferences += inferences;
    thread.requests = request_splitter_.split(module, inferences, thread.rng);
    auto send_all = [this, &thread]() {
      thread.next_request = 0;
      thread.failed = false;
      const auto& client = scenario_.workload.client;
      // Synchronous, blocking calls (as in LArSoft) are one sender taking the requests one at a time;
      // asynchronous ones up to max_in_flight senders, each taking the next request when its previous one is
      // answered. The module ends when every sender has.
      const std::size_t senders =
          client.asynchronous && client.max_in_flight > 1 && thread.requests.size() > 1
              ? std::min<std::size_t>(static_cast<std::size_t>(client.max_in_flight), thread.requests.size())
              : 1;
      while (thread.senders.size() < senders)
        thread.senders.push_back(std::make_unique<Sender>());
      thread.senders_running = static_cast<int>(senders);
      for (std::size_t s = 0; s < senders; ++s) {
        thread.senders[s]->job = this;
        thread.senders[s]->thread = &thread;
      }
      for (std::size_t s = 0; s < senders; ++s)
        next_request(*thread.senders[s]);
    };
    const double client_work_s =
        placement_.local_gpu ? 0.0
                             : client_side_work_s(module, *connection.model, inferences, thread.requests);
    if (client_work_s > 0) {
      compute(client_work_s, false, send_all);
    } else {
      send_all();
    }
  });
}

// Compressing the event's inputs costs CPU time per input byte, and each request's client side (serialising
// it, the gRPC call, reading the reply: perf_analyzer's Client Send + Recv, models.NAME.client_call) its time
// per request and per byte sent. Taken on the thread before its first request goes: a synchronous client
// spends it between its calls instead, which leaves the event's time the same; a retry's is not counted.
double JobClient::client_side_work_s(const Module& module, const Model& model, std::int64_t inferences,
                                     const std::vector<int>& requests) const {
  double work_s = 0.0;
  if (module.compression_time_per_byte_s > 0) {
    const double input_bytes = static_cast<double>(inferences) * model.input_bytes_per_inference;
    work_s = input_bytes * module.compression_time_per_byte_s;
  }
  if (!model.client_call.is_free())
    for (const int batch : requests)
      work_s += model.client_call.time_s(batch * model.input_bytes_per_inference / module.compression_ratio);
  return work_s;
}

} // namespace sonicsim
