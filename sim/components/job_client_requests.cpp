// A job's requests on their way (job_client.hpp): a remote module's end when its last reply is in, each
// request sent (its attempt, the flow to the server), its arrival there, the reply sent back and received.
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

void JobClient::remote_done(Thread& thread, bool ok) {
  thread.event.failed = !ok; // a request rejected too often fails the event
  module_done(thread);
}

void JobClient::next_request(Sender& sender) {
  Thread& thread = *sender.thread;
  if (thread.failed || thread.next_request >= thread.requests.size()) {
    if (--thread.senders_running == 0) remote_done(thread, !thread.failed);
    return;
  }
  sender.batch_size = thread.requests[thread.next_request++];
  sender.attempt = 0;
  sender.to_fallback = false;
  sender.last_pod.reset();
  send_attempt(sender);
}

void JobClient::send_attempt(Sender& sender) {
  Thread& thread = *sender.thread;
  if (placement_.local_gpu) {
    // The node's own GPU, used by this job alone: no queue, no network, the batch timing of the model's
    // curve on that device type.
    ++thread.event.requests;
    after(thread.connection->local_curve->batch_time_s(sender.batch_size),
          [this, &sender]() { next_request(sender); });
    return;
  }
  if (sender.attempt > 0) {
    context_.recorder.record_retry();
    ++thread.event.retries;
    after(scenario_.workload.client.retry_backoff_s, [this, &sender]() { send(sender); });
    return;
  }
  send(sender);
}

void JobClient::send(Sender& sender) {
  Thread& thread = *sender.thread;
  ++thread.event.requests;
  context_.recorder.record_request_sent();
  const Route* route = choose_route(sender);
  if (!route) {
    refused(sender);
    return;
  }
  sender.route = route;
  const bool fallback_try = thread.connection->fallback && route == &*thread.connection->fallback;
  if (fallback_try) {
    thread.used_fallback = true;
    context_.recorder.operations()->request_to_fallback();
  }
  if (!sender.request) sender.request = context_.requests.acquire();
  sender.input_bytes = sender.batch_size * thread.connection->model->input_bytes_per_inference /
                       thread.remote->compression_ratio;
  sender.sent_at_s = calendar::now_s();
  // The fallback server on the job's own node is not timed out: it is the last resort, and a fallback slower
  // than the timeout would otherwise never complete an event.
  if (const auto& timeout_s = scenario_.workload.client.timeout_s; timeout_s && !fallback_try)
    sender.timeout = calendar::at(sender.sent_at_s + *timeout_s, [s = &sender, serial = sender.serial]() {
      s->timeout = CalendarEvent{}; // it has run
      if (!s->job->context_.stopped && s->serial == serial) s->job->timed_out(*s);
    });
  if (route->on_node) {
    arrived(sender);
    return;
  }
  if (wan_down(sender.sent_at_s)) return; // lost on the way: the timeout set above notices
  context_.flows.start(route->request_path, sender.input_bytes,
                       counted([s = &sender, serial = sender.serial]() {
                         // A try given up while its request was on the way is dropped (it never reaches the
                         // server).
                         if (!s->job->context_.stopped && s->serial == serial) s->job->arrived(*s);
                       }));
}

void JobClient::arrived(Sender& sender) {
  const Route& route = *sender.route;
  context_.recorder.record_transfer(route.request_links, sender.input_bytes, sender.sent_at_s,
                                    calendar::now_s());
  if (!route.on_node) context_.recorder.record_bytes_to_servers(sender.input_bytes);
  InferenceRequest& request = *sender.request;
  request = InferenceRequest{};
  request.batch_size = sender.batch_size;
  request.input_bytes = sender.input_bytes;
  request.owner = &sender;
  request.output_bytes = sender.batch_size * sender.thread->connection->model->output_bytes_per_inference;
  request.reply_route = route.reply_route;
  sender.at_server = true;
  route.server->submit(request); // answered through Sender::answered, refused or not; or lost
}

void JobClient::reply(Sender& sender) {
  const InferenceRequest& request = *sender.request;
  if (request.rejection) context_.recorder.record_rejection(*request.rejection);
  sender.output_bytes = request.reply_bytes();
  const double now_s = calendar::now_s();
  const auto delay_s = request.reply_delay_s();
  if (!sender.route->on_node && wan_down(now_s - delay_s.value_or(0.0))) return; // lost: the timeout notices
  if (delay_s) {
    reply_received(sender, now_s - *delay_s); // already received: the server told us after the delay
  } else {
    context_.flows.start(sender.route->response_path, sender.output_bytes,
                         counted([s = &sender, serial = sender.serial, now_s]() {
                           if (!s->job->context_.stopped && s->serial == serial)
                             s->job->reply_received(*s, now_s);
                         }));
  }
}

void JobClient::reply_received(Sender& sender, double reply_at_s) {
  const Route& route = *sender.route;
  context_.recorder.record_transfer(route.response_links, sender.output_bytes, reply_at_s, calendar::now_s());
  if (!route.on_node) context_.recorder.record_bytes_from_servers(sender.output_bytes);
  try_ended(sender);
  if (!sender.request->rejection) {
    next_request(sender);
    return;
  }
  try_failed(sender, false);
}

} // namespace sonicsim
