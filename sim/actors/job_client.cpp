#include "sim/actors/job_client.hpp"

#include "sim/random/distribution.hpp"
#include "sim/random/random_streams.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace sg4 = simgrid::s4u;

namespace sonicsim {

JobClient::JobClient(const Scenario& scenario, const SitePlatform& site, const ServerDirectory& servers,
                     RunRecorder& recorder, JobPlacement placement, std::function<void()> on_finish)
    : scenario_(scenario), site_(site), servers_(servers), recorder_(recorder),
      placement_(std::move(placement)), on_finish_(std::move(on_finish)),
      rng_(make_stream(scenario.seed, stream_job, static_cast<std::uint64_t>(placement_.job))) {
  const ServerLayout& layout = servers_.layout;
  for (const auto& module : scenario_.workload.pipeline)
    module_connection_.push_back(module.served() ? layout.model_index(module.model) : -1);
  for (std::size_t m = 0; m < layout.served_models.size(); ++m) {
    Connection c;
    c.pod = placement_.pods[m];
    c.model = &scenario_.models.at(layout.served_models[m]);
    const ServerGroup& first_group =
        scenario_.platform.server_groups[static_cast<std::size_t>(layout.model_groups[m].front())];
    const auto local = c.model->throughput_by_device.find(first_group.device_type);
    if (local != c.model->throughput_by_device.end()) c.local_curve = &local->second;
    c.on_node = first_group.on_client_nodes;
    if (!placement_.local_gpu) c.server = servers_.servers[m][static_cast<std::size_t>(c.pod)];
    if (!placement_.local_gpu && !c.on_node) {
      c.request_links = site.request_links(placement_.worker, c.pod);
      c.response_links = site.response_links(placement_.worker, c.pod);
      // CM02 without correction factors times a flow alone on its path at latency + bytes / rate, where rate
      // is the narrowest link's bandwidth, capped by the TCP window at window / (2 x latency)
      // (network/TCP-gamma).
      std::vector<sg4::Link*> links;
      site_.pod_hosts[static_cast<std::size_t>(c.pod)]->route_to(
          site_.worker_hosts[static_cast<std::size_t>(placement_.worker)], links, &c.reply_latency_s);
      c.reply_rate_bytes_per_s = std::numeric_limits<double>::infinity();
      for (const auto* link : links)
        c.reply_rate_bytes_per_s = std::min(c.reply_rate_bytes_per_s, link->get_bandwidth());
      const double window_bytes = scenario_.platform.network.tcp_window_bytes;
      if (window_bytes > 0 && c.reply_latency_s > 0)
        c.reply_rate_bytes_per_s =
            std::min(c.reply_rate_bytes_per_s, window_bytes / (2.0 * c.reply_latency_s));
    }
    connections_.push_back(std::move(c));
  }
}

std::optional<double> JobClient::small_reply_delay_s(const Connection& connection, double bytes) const {
  if (connection.on_node) return 0.0; // a local socket: no network to cross
  if (bytes > scenario_.platform.network.small_reply_max_bytes) return std::nullopt;
  return connection.reply_latency_s + bytes / connection.reply_rate_bytes_per_s;
}

bool JobClient::send_request(const Module& module, const Connection& connection, int batch_size,
                             EventRecord& event) {
  const Model& model = *connection.model;
  if (placement_.local_gpu) {
    // The node's own GPU, used by this job alone: no queue, no network, the batch timing of the model's
    // curve on that device type.
    ++event.requests;
    sg4::this_actor::sleep_for(connection.local_curve->batch_time_s(batch_size));
    return true;
  }
  InferenceServer& server = *connection.server;
  sg4::Host* worker = site_.worker_hosts[static_cast<std::size_t>(placement_.worker)];
  sg4::Host* pod = site_.pod_hosts[static_cast<std::size_t>(connection.pod)];
  // A rejected request is answered with a short error message.
  constexpr double error_reply_bytes = 100.0;
  for (int attempt = 0; attempt <= scenario_.workload.client.retries; ++attempt) {
    if (attempt > 0) {
      recorder_.record_retry();
      ++event.retries;
      sg4::this_actor::sleep_for(scenario_.workload.client.retry_backoff_s);
    }
    ++event.requests;
    recorder_.record_request_sent();
    const double input_bytes = batch_size * model.input_bytes_per_inference / module.compression_ratio;
    const double sent_at_s = sg4::Engine::get_clock();
    if (!connection.on_node) sg4::Comm::sendto(worker, pod, static_cast<std::uint64_t>(input_bytes));
    recorder_.record_transfer(connection.request_links, input_bytes, sent_at_s, sg4::Engine::get_clock());
    if (!connection.on_node) recorder_.record_bytes_to_servers(input_bytes);

    InferenceRequest request;
    request.batch_size = batch_size;
    request.input_bytes = input_bytes;
    request.client = sg4::Actor::self();
    const double reply_bytes = batch_size * model.output_bytes_per_inference;
    request.output_bytes = reply_bytes;
    // A small reply is delivered by the server's timer at batch end + delay: one switch to this actor.
    request.reply_delay_s = small_reply_delay_s(connection, reply_bytes);
    request.rejection = server.submit(request);
    if (!request.rejection) {
      while (!request.done)
        sg4::this_actor::suspend();
    }
    if (request.rejection) recorder_.record_rejection(*request.rejection);

    const double output_bytes = request.rejection ? error_reply_bytes : reply_bytes;
    // A rejection is answered at once with an error message, whose delay the client takes itself.
    const std::optional<double> reply_delay_s =
        request.rejection ? small_reply_delay_s(connection, output_bytes) : request.reply_delay_s;
    double reply_at_s = sg4::Engine::get_clock();
    if (reply_delay_s && !request.rejection) {
      reply_at_s -= *reply_delay_s; // already received: the server woke this actor after the delay
    } else if (reply_delay_s) {
      sg4::this_actor::sleep_for(*reply_delay_s);
    } else {
      sg4::Comm::sendto(pod, worker, static_cast<std::uint64_t>(output_bytes));
    }
    recorder_.record_transfer(connection.response_links, output_bytes, reply_at_s, sg4::Engine::get_clock());
    if (!connection.on_node) recorder_.record_bytes_from_servers(output_bytes);
    if (!request.rejection) return true;
  }
  return false;
}

bool JobClient::run_remote_inference(const Module& module, const Connection& connection, EventRecord& event,
                                     std::mt19937_64& rng) {
  sg4::this_actor::sleep_for(sample(module.preprocess_s, rng) / placement_.cpu_speed);
  const std::int64_t inferences = sample_count(module.inferences, rng);
  event.inferences += inferences;
  if (!placement_.local_gpu && module.compression_time_per_byte_s > 0) {
    // Compressing the event's inputs before sending costs CPU time per input byte.
    const double input_bytes = static_cast<double>(inferences) * connection.model->input_bytes_per_inference;
    sg4::this_actor::sleep_for(input_bytes * module.compression_time_per_byte_s / placement_.cpu_speed);
  }
  const std::vector<int> requests = request_splitter_.split(module, inferences, rng);
  const auto& client = scenario_.workload.client;
  if (!client.asynchronous || client.max_in_flight <= 1 || requests.size() <= 1) {
    // Synchronous, blocking calls (as in LArSoft): one request at a time.
    for (const int batch_size : requests) {
      if (!send_request(module, connection, batch_size, event)) return false;
    }
    return true;
  }
  return send_requests_in_flight(module, connection, requests, event);
}

bool JobClient::send_requests_in_flight(const Module& module, const Connection& connection,
                                        const std::vector<int>& requests, EventRecord& event) {
  // Asynchronous calls with at most max_in_flight outstanding: that many senders, each a short-lived actor on
  // the job's node taking the next request when its previous one is answered. The module ends when all are
  // answered: the job joins them (a flag and resume() could miss a suspension still in flight in the same
  // scheduling round).
  struct Progress {
    std::size_t next = 0;
    bool failed = false;
  } progress;
  const auto senders = std::min<std::size_t>(
      static_cast<std::size_t>(scenario_.workload.client.max_in_flight), requests.size());
  sg4::Host* worker = site_.worker_hosts[static_cast<std::size_t>(placement_.worker)];
  std::vector<sg4::ActorPtr> running;
  for (std::size_t s = 0; s < senders; ++s) {
    // Daemons: if a campaign window ends while they run, they go with the job.
    running.push_back(
        sg4::Actor::create("sender", worker, [this, &module, &connection, &requests, &event, &progress]() {
          while (!progress.failed && progress.next < requests.size()) {
            const int batch_size = requests[progress.next++];
            if (!send_request(module, connection, batch_size, event)) progress.failed = true;
          }
        }));
    running.back()->daemonize();
  }
  for (const auto& sender : running)
    sender->join();
  return !progress.failed;
}

void JobClient::operator()() {
  sg4::this_actor::sleep_until(placement_.start_s);
  const auto& workload = scenario_.workload;
  job_start_s_ = sg4::Engine::get_clock();
  warmup_end_s_ = job_start_s_;
  events_ = placement_.events.value_or(workload.events_per_job);
  // Threads after the first are actors of their own on the job's node, each with its own random stream; the
  // first thread is this actor. Daemons: if a campaign window ends while they run, they go with the job.
  // The job ends when all its threads have: it joins them (a counter and resume() could miss a suspension
  // still in flight in the same scheduling round).
  sg4::Host* worker = site_.worker_hosts[static_cast<std::size_t>(placement_.worker)];
  std::vector<sg4::ActorPtr> streams;
  for (int thread = 1; thread < workload.threads; ++thread) {
    streams.push_back(sg4::Actor::create("stream", worker, [this, thread]() {
      auto rng =
          make_stream(scenario_.seed, stream_job_thread,
                      static_cast<std::uint64_t>(placement_.job) * 256 + static_cast<std::uint64_t>(thread));
      run_events(rng);
    }));
    streams.back()->daemonize();
  }
  run_events(rng_);
  for (const auto& stream : streams)
    stream->join();
  if (on_finish_) {
    on_finish_();
  } else {
    recorder_.record_job(job_start_s_, warmup_end_s_, sg4::Engine::get_clock());
  }
}

void JobClient::run_events(std::mt19937_64& rng) {
  const auto& workload = scenario_.workload;
  EventRecord event;
  event.job = placement_.job;
  event.module_s.resize(workload.pipeline.size());
  // Campaign mode measures from a fixed time on: events starting earlier are warm-up.
  const double campaign_warmup_s = workload.campaign ? workload.campaign->warmup_s : 0.0;
  while (next_event_ < events_) {
    const int index = next_event_++; // the job's next event, whichever thread is free
    event.event_index = index;
    event.start_s = sg4::Engine::get_clock();
    event.requests = event.retries = 0;
    event.inferences = 0;
    event.failed = false;
    event.warmup = index < workload.warmup_events || event.start_s < campaign_warmup_s;
    std::fill(event.module_s.begin(), event.module_s.end(), 0.0);
    for (std::size_t m = 0; m < workload.pipeline.size() && !event.failed; ++m) {
      const Module& module = workload.pipeline[m];
      const double module_start_s = sg4::Engine::get_clock();
      switch (module.type) {
      case Module::Type::cpu:
        sg4::this_actor::sleep_for(sample(module.duration_s, rng) / placement_.cpu_speed);
        break;
      case Module::Type::local_inference: {
        const double preprocess_s = sample(module.preprocess_s, rng);
        const auto inferences = sample_count(module.inferences, rng);
        event.inferences += inferences;
        sg4::this_actor::sleep_for(
            (preprocess_s + static_cast<double>(inferences) * module.local_time_per_inference_s) /
            placement_.cpu_speed);
        break;
      }
      case Module::Type::remote_inference:
        if (module.run_direct) {
          // The model on this thread's own core: its direct-inference time, no request. Preprocessing and
          // the inference count are drawn as for a request, so both modes draw the same numbers.
          sg4::this_actor::sleep_for(sample(module.preprocess_s, rng) / placement_.cpu_speed);
          event.inferences += sample_count(module.inferences, rng);
          sg4::this_actor::sleep_for(sample(*module.direct_s, rng) / placement_.cpu_speed);
          break;
        }
        event.failed = !run_remote_inference(
            module, connections_[static_cast<std::size_t>(module_connection_[m])], event, rng);
        break;
      }
      event.module_s[m] = sg4::Engine::get_clock() - module_start_s;
    }
    event.end_s = sg4::Engine::get_clock();
    recorder_.record_event(event);
    if (event.warmup) warmup_end_s_ = std::max(warmup_end_s_, event.end_s);
  }
}

} // namespace sonicsim
