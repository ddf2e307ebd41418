#include "sim/actors/inference_server.hpp"

#include <simgrid/kernel/Timer.hpp>

namespace sg4 = simgrid::s4u;
using simgrid::kernel::timer::Timer;

namespace sonicsim {

InferenceServer::InferenceServer(const Model& model, const ThroughputCurve& curve, int gpu_count,
                                 RunRecorder& recorder)
    : model_(model), curve_(curve), recorder_(recorder),
      gpus_(static_cast<std::size_t>(gpu_count), Gpu{model.triton.instances_per_gpu, 0.0}) {
  const auto& triton = model_.triton;
  batcher_.max_batch_size = triton.max_batch_size;
  batcher_.dynamic_batching = triton.dynamic_batching.enabled;
  batcher_.preferred_batch_sizes = triton.dynamic_batching.preferred_batch_sizes;
  batcher_.max_queue_delay_s = triton.dynamic_batching.max_queue_delay_s;
}

std::optional<Rejection> InferenceServer::submit(InferenceRequest& request) {
  if (request.batch_size > model_.triton.max_batch_size) return Rejection::too_large;
  const auto& max_queue = model_.triton.queue_policy.max_queue_size;
  if (max_queue && static_cast<int>(queue_.size()) >= *max_queue) return Rejection::queue_full;
  QueuedEntry entry;
  entry.batch_size = request.batch_size;
  entry.enqueued_s = sg4::Engine::get_clock();
  entry.request = &request;
  queue_.push_back(entry);
  dispatch();
  return std::nullopt;
}

void InferenceServer::stop() {
  stopped_ = true;
  queue_.clear();
}

void InferenceServer::wake(InferenceRequest& request) {
  request.done = true;
  // The client suspends itself right after submitting; it is not suspended yet only if it has not run since.
  if (request.client->is_suspended()) request.client->resume();
}

void InferenceServer::complete(InferenceRequest& request) {
  if (!request.reply_delay_s || request.rejection) {
    wake(request);
    return;
  }
  // A kernel timer rather than a client sleep: the client is switched to once per request, not twice.
  Timer::set(sg4::Engine::get_clock() + *request.reply_delay_s, [this, &request]() {
    // After stop() the client is gone, and the request with it.
    if (!stopped_) wake(request);
  });
}

void InferenceServer::drop_timed_out_requests(double now_s) {
  const auto& timeout = model_.triton.queue_policy.timeout_s;
  if (!timeout) return;
  for (auto it = queue_.begin(); it != queue_.end();) {
    if (has_timed_out(*it, now_s, *timeout)) {
      it->request->rejection = Rejection::timeout;
      complete(*it->request);
      it = queue_.erase(it);
    } else {
      ++it;
    }
  }
}

int InferenceServer::gpu_for_next_batch() const {
  // Any idle instance takes the next batch; prefer the GPU that is free soonest (lowest index on ties, so the
  // choice is deterministic).
  int best = -1;
  for (std::size_t g = 0; g < gpus_.size(); ++g) {
    if (gpus_[g].idle_instances == 0) continue;
    if (best < 0 || gpus_[g].busy_until_s < gpus_[static_cast<std::size_t>(best)].busy_until_s)
      best = static_cast<int>(g);
  }
  return best;
}

void InferenceServer::dispatch() {
  if (stopped_) return;
  const double now_s = sg4::Engine::get_clock();
  drop_timed_out_requests(now_s);
  while (true) {
    const int gpu_index = gpu_for_next_batch();
    if (gpu_index < 0) return;
    const BatchDecision decision = decide_batch(queue_, now_s, batcher_);
    if (decision.kind == BatchDecision::Kind::idle) return;
    if (decision.kind == BatchDecision::Kind::wait_until) {
      // The oldest request only ever gets younger (it leaves first), so an armed deadline is never too late.
      if (!armed_deadline_s_ || *armed_deadline_s_ > decision.wake_at_s) {
        armed_deadline_s_ = decision.wake_at_s;
        Timer::set(decision.wake_at_s, [this, deadline_s = decision.wake_at_s]() {
          if (armed_deadline_s_ && *armed_deadline_s_ == deadline_s) armed_deadline_s_.reset();
          dispatch();
        });
      }
      return;
    }
    Batch* batch;
    if (free_batches_.empty()) {
      batch = &batch_storage_.emplace_back();
    } else {
      batch = free_batches_.back();
      free_batches_.pop_back();
    }
    Gpu& gpu = gpus_[static_cast<std::size_t>(gpu_index)];
    --gpu.idle_instances;
    batch->gpu = gpu_index;
    batch->requests.clear();
    const double start_s = std::max(now_s, gpu.busy_until_s);
    double queue_wait_sum_s = 0.0;
    for (std::size_t i = 0; i < decision.request_count; ++i) {
      queue_wait_sum_s += start_s - queue_.front().enqueued_s;
      batch->requests.push_back(queue_.front().request);
      queue_.pop_front();
    }
    const double end_s = start_s + curve_.batch_time_s(decision.batch_size);
    gpu.busy_until_s = end_s;
    recorder_.record_gpu_busy(start_s, end_s);
    recorder_.record_batch(start_s, end_s, decision.batch_size, static_cast<int>(decision.request_count),
                           queue_wait_sum_s);
    Timer::set(end_s, [this, batch]() { finish_batch(batch); });
  }
}

void InferenceServer::finish_batch(Batch* batch) {
  if (stopped_) return;
  ++gpus_[static_cast<std::size_t>(batch->gpu)].idle_instances;
  for (auto* request : batch->requests)
    complete(*request);
  free_batches_.push_back(batch);
  dispatch();
}

} // namespace sonicsim
