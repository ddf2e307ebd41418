#include "sim/components/inference_server.hpp"
#include "sim/kernel/event_calendar.hpp"

#include <algorithm>

namespace sg4 = simgrid::s4u;

namespace sonicsim {

InferenceServer::InferenceServer(const Model& model, int model_index, const ServerGroup& group,
                                 PodResources& pod, RunRecorder& recorder,
                                 std::optional<std::vector<InstanceGroup>> instance_groups)
    : model_(model), model_index_(model_index), pod_(pod), recorder_(recorder),
      has_host_work_(!model.compute_input.is_free() || !model.compute_output.is_free()) {
  const auto& triton = model_.triton;
  batcher_.max_batch_size = triton.max_batch_size;
  batcher_.dynamic_batching = triton.dynamic_batching.enabled;
  batcher_.preferred_batch_sizes = triton.dynamic_batching.preferred_batch_sizes;
  batcher_.max_queue_delay_s = triton.dynamic_batching.max_queue_delay_s;
  // One slot per device in device order, then the CPU: the order breaks ties between equally free ones.
  std::vector<int> per_device(static_cast<std::size_t>(group.devices_per_pod), 0);
  int on_cpu = 0;
  for (const auto& instances : instance_groups.value_or(effective_instance_groups(model_, group))) {
    if (instances.kind == InstanceGroup::Kind::cpu) {
      on_cpu += instances.count;
    } else if (instances.devices.empty()) {
      for (auto& count : per_device)
        count += instances.count;
    } else {
      for (const int device : instances.devices)
        per_device[static_cast<std::size_t>(device)] += instances.count;
    }
  }
  for (std::size_t d = 0; d < per_device.size(); ++d)
    if (per_device[d] > 0)
      slots_.push_back(InstanceSlot{static_cast<int>(d), per_device[d],
                                    &model_.throughput_by_device.at(group.device_type)});
  if (on_cpu > 0)
    slots_.push_back(InstanceSlot{std::nullopt, on_cpu, &model_.throughput_by_device.at(cpu_device_type)});
  int instances = 0;
  for (const auto& slot : slots_)
    instances += slot.idle_instances;
  recorder_.add_instances(model_index_, instances);
}

void InferenceServer::submit(InferenceRequest& request) {
  if (failed_) {
    request.owner->lost(request); // into a failed pod: no answer
    return;
  }
  request.rejection =
      request.batch_size > model_.triton.max_batch_size ? Rejection::too_large : enqueue(request);
  if (request.rejection) complete(request); // refused on arrival: the error reply leaves at once
}

std::optional<Rejection> InferenceServer::enqueue(InferenceRequest& request) {
  const auto& max_queue = model_.triton.dynamic_batching.queue_policy.max_queue_size;
  if (max_queue && static_cast<int>(queue_.size()) >= *max_queue) return Rejection::queue_full;
  QueuedEntry entry;
  entry.batch_size = request.batch_size;
  entry.enqueued_s = calendar::now_s();
  entry.request = &request;
  queue_.push_back(entry);
  ++pod_.load.queued;
  dispatch();
  return std::nullopt;
}

void InferenceServer::stop() {
  stopped_ = true;
  queue_.clear();
}

void InferenceServer::fail() {
  drop_held(false);
}

void InferenceServer::stop_resetting() {
  drop_held(true);
}

void InferenceServer::drop_held(bool reset) {
  failed_ = true;
  const auto drop = [reset](InferenceRequest& request) {
    if (reset)
      request.owner->reset(request);
    else
      request.owner->lost(request);
  };
  const double now_s = calendar::now_s();
  pod_.load.queued -= static_cast<int>(queue_.size());
  for (auto& entry : queue_) {
    // A reset request's time at the proxy counts as load, as Envoy's upstream request time counts a failed
    // request (the chart's replicas-needed metric): from its arrival to the reset.
    if (reset) pod_.load.request_time_s += now_s - entry.enqueued_s;
    drop(*entry.request);
  }
  queue_.clear();
  for (auto& batch : batch_storage_) {
    if (!batch.in_flight) continue;
    if (reset)
      pod_.load.request_time_s +=
          batch.queue_wait_sum_s + static_cast<double>(batch.requests.size()) * (now_s - batch.queue_end_s);
    for (auto* request : batch.requests)
      drop(*request);
    batch.requests.clear(); // the batch runs out on its device, answering no one
  }
}

void InferenceServer::wake(InferenceRequest& request) {
  request.done = true;
  request.owner->answered(request); // the owner defers what it does next: no call back into this server
}

void InferenceServer::complete(InferenceRequest& request) {
  const std::optional<double> delay_s = request.reply_delay_s();
  if (!delay_s) {
    wake(request);
    return;
  }
  // A calendar event: the reply arrives without a flow of its own.
  calendar::at(calendar::now_s() + *delay_s, [this, &request]() {
    // After stop() the client is gone, and the request with it.
    if (!stopped_) wake(request);
  });
}

void InferenceServer::drop_timed_out_requests(double now_s) {
  const auto& timeout = model_.triton.dynamic_batching.queue_policy.timeout_s;
  if (!timeout) return;
  for (auto it = queue_.begin(); it != queue_.end();) {
    if (has_timed_out(*it, now_s, *timeout)) {
      it->request->rejection = Rejection::timeout;
      complete(*it->request);
      it = queue_.erase(it);
      --pod_.load.queued;
    } else {
      ++it;
    }
  }
}

std::optional<std::size_t> InferenceServer::slot_for_next_batch() const {
  std::optional<std::size_t> best;
  double best_free_s = 0.0;
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    if (slots_[s].idle_instances == 0) continue;
    const std::optional<int>& device = slots_[s].device;
    const double free_s =
        device ? pod_.devices[static_cast<std::size_t>(*device)].free_at_s() : pod_.host.free_at_s();
    if (!best || free_s < best_free_s) {
      best = s;
      best_free_s = free_s;
    }
  }
  return best;
}

InferenceServer::Batch* InferenceServer::take_batch() {
  if (free_batches_.empty()) return &batch_storage_.emplace_back();
  Batch* batch = free_batches_.back();
  free_batches_.pop_back();
  return batch;
}

double InferenceServer::take_requests(Batch& batch, std::size_t count, double waited_until_s) {
  double queue_wait_sum_s = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    queue_wait_sum_s += waited_until_s - queue_.front().enqueued_s;
    batch.requests.push_back(queue_.front().request);
    queue_.pop_front();
  }
  return queue_wait_sum_s;
}

void InferenceServer::dispatch() {
  if (stopped_) return;
  const double now_s = calendar::now_s();
  drop_timed_out_requests(now_s);
  while (true) {
    const std::optional<std::size_t> slot_index = slot_for_next_batch();
    if (!slot_index) return;
    const BatchDecision decision = decide_batch(queue_, now_s, batcher_);
    if (decision.kind == BatchDecision::Kind::idle) return;
    if (decision.kind == BatchDecision::Kind::wait_until) {
      // The oldest request only ever gets younger (it leaves first), so an armed deadline is never too late.
      if (!armed_deadline_s_ || *armed_deadline_s_ > decision.wake_at_s) {
        armed_deadline_s_ = decision.wake_at_s;
        calendar::at(decision.wake_at_s, [this, deadline_s = decision.wake_at_s]() {
          if (armed_deadline_s_ && *armed_deadline_s_ == deadline_s) armed_deadline_s_.reset();
          dispatch();
        });
      }
      return;
    }
    Batch* batch = take_batch();
    InstanceSlot& slot = slots_[*slot_index];
    --slot.idle_instances;
    batch->slot = *slot_index;
    batch->in_flight = true;
    batch->taken_s = now_s;
    pod_.load.queued -= static_cast<int>(decision.request_count);
    batch->requests.clear();
    const double duration_s = slot.curve->batch_time_s(decision.batch_size);
    double input_s = 0.0, output_s = 0.0; // the instance's host work for this batch, request by request
    for (std::size_t i = 0; has_host_work_ && i < decision.request_count; ++i) {
      input_s += model_.compute_input.time_s(queue_[i].request->input_bytes);
      output_s += model_.compute_output.time_s(queue_[i].request->output_bytes);
    }
    if (input_s > 0.0 || output_s > 0.0) {
      // The instance prepares the inputs on a host core, executes, then prepares the outputs (Triton's
      // Compute Input, Infer, Output), held from the first to the last.
      const double queue_wait_sum_s = take_requests(*batch, decision.request_count, now_s);
      batch->batch_size = decision.batch_size;
      batch->request_count = static_cast<int>(decision.request_count);
      batch->queue_wait_sum_s = queue_wait_sum_s;
      batch->duration_s = duration_s;
      batch->output_s = output_s;
      batch->input_s = input_s;
      batch->queue_end_s = now_s;
      if (input_s > 0.0) {
        const Booking input = pod_.host.run(now_s, input_s);
        recorder_.record_host_busy(pod_.group, input.start_s, input.end_s);
        calendar::at(input.end_s, [this, batch]() { execute(batch); });
      } else {
        execute(batch); // no input handling: no host core to wait for
      }
      continue;
    }
    const Booking booking = run_on(slot, now_s, duration_s);
    const double start_s = booking.start_s, end_s = booking.end_s;
    const double queue_wait_sum_s = take_requests(*batch, decision.request_count, start_s);
    recorder_.record_batch(model_index_, pod_.group, start_s, end_s, decision.batch_size,
                           static_cast<int>(decision.request_count), queue_wait_sum_s);
    pod_.load.queue_wait_s += queue_wait_sum_s;
    ++pod_.load.batches;
    batch->batch_size = decision.batch_size;
    batch->request_count = static_cast<int>(decision.request_count);
    batch->queue_wait_sum_s = queue_wait_sum_s;
    batch->input_s = batch->output_s = 0.0;
    batch->exec_start_s = batch->queue_end_s = start_s;
    batch->exec_end_s = end_s;
    calendar::at(end_s, [this, batch]() { finish_batch(batch); });
  }
}

Booking InferenceServer::run_on(const InstanceSlot& slot, double now_s, double duration_s) {
  if (!slot.device) {
    if (!pod_.node_load) {
      const Booking booking = pod_.host.run(now_s, duration_s);
      recorder_.record_host_busy(pod_.group, booking.start_s, booking.end_s);
      return booking;
    }
    // On a shared client node: an inference thread of the node from its start to its end, at the factor the
    // node's load gives when the batch is booked (with it counted).
    NodeLoad& load = *pod_.node_load;
    const double factor = thread_speed_factor(*pod_.node, load.busy + 1, load.inference + 1);
    const Booking booking = pod_.host.run(now_s, duration_s / factor);
    recorder_.record_host_busy(pod_.group, booking.start_s, booking.end_s);
    calendar::at(booking.start_s, [&load]() {
      ++load.busy;
      ++load.inference;
    });
    calendar::at(booking.end_s, [&load]() {
      --load.busy;
      --load.inference;
    });
    return booking;
  }
  const Booking booking =
      pod_.devices[static_cast<std::size_t>(*slot.device)].run_batch(now_s, duration_s, model_index_);
  recorder_.record_device_busy(pod_.group, pod_.first_device + *slot.device, booking.start_s, booking.end_s);
  pod_.load.device_busy_s += booking.end_s - booking.start_s;
  return booking;
}

void InferenceServer::execute(Batch* batch) {
  if (stopped_) return;
  const Booking booking = run_on(slots_[batch->slot], calendar::now_s(), batch->duration_s);
  recorder_.record_batch(model_index_, pod_.group, booking.start_s, booking.end_s, batch->batch_size,
                         batch->request_count, batch->queue_wait_sum_s);
  batch->exec_start_s = booking.start_s;
  batch->exec_end_s = booking.end_s;
  pod_.load.queue_wait_s += batch->queue_wait_sum_s;
  ++pod_.load.batches;
  calendar::at(booking.end_s, [this, batch]() {
    if (stopped_) return;
    if (batch->output_s <= 0.0) {
      finish_batch(batch); // no output handling: no host core to wait for
      return;
    }
    const Booking output = pod_.host.run(calendar::now_s(), batch->output_s);
    recorder_.record_host_busy(pod_.group, output.start_s, output.end_s);
    calendar::at(output.end_s, [this, batch]() { finish_batch(batch); });
  });
}

void InferenceServer::record_batch_metrics(const Batch& batch) const {
  const double now_s = calendar::now_s();
  const double n = batch.request_count;
  pod_.load.request_time_s += batch.queue_wait_sum_s + n * (now_s - batch.queue_end_s);
  pod_.load.service_time_s += n * (batch.input_s + (batch.exec_end_s - batch.exec_start_s) + batch.output_s);
  ServerMetrics* metrics = recorder_.server_metrics();
  if (!metrics) return;
  ServerMetrics::Batch b;
  b.pod = pod_.number;
  b.model = model_index_;
  b.requests = batch.request_count;
  b.inferences = batch.batch_size;
  b.queue_wait_sum_s = batch.queue_wait_sum_s;
  b.queue_end_s = batch.queue_end_s;
  b.input_s = batch.input_s;
  b.exec_start_s = batch.exec_start_s;
  b.exec_end_s = batch.exec_end_s;
  b.output_s = batch.output_s;
  b.done_s = calendar::now_s();
  b.through_proxy = pod_.proxied;
  metrics->batch_done(b);
}

void InferenceServer::finish_batch(Batch* batch) {
  if (stopped_) return;
  ++slots_[batch->slot].idle_instances;
  batch->in_flight = false;
  recorder_.record_instance_held(model_index_, batch->taken_s, calendar::now_s());
  record_batch_metrics(*batch);
  for (auto* request : batch->requests)
    complete(*request);
  free_batches_.push_back(batch);
  dispatch();
}

} // namespace sonicsim
