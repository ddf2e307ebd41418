#include "sim/actors/inference_server.hpp"

#include "sim/batching/gpu_service_time.hpp"
#include "sim/platform/site_platform.hpp"

#include <string>

namespace sg4 = simgrid::s4u;

namespace sonicsim {

InferenceServer::InferenceServer(const Model& model, const ThroughputCurve& curve, std::vector<sg4::Host*> gpus,
                                 RunRecorder& recorder)
    : model_(model), curve_(curve), gpus_(std::move(gpus)), recorder_(recorder),
      active_batches_per_gpu_(gpus_.size(), 0), gpu_busy_since_s_(gpus_.size(), 0.0) {
  const auto& triton = model_.triton;
  batcher_.max_batch_size = triton.max_batch_size;
  batcher_.dynamic_batching = triton.dynamic_batching.enabled;
  batcher_.preferred_batch_sizes = triton.dynamic_batching.preferred_batch_sizes;
  batcher_.max_queue_delay_s = triton.dynamic_batching.max_queue_delay_s;
}

void InferenceServer::start() {
  // Triton places instances_per_gpu instances of the model on every GPU; any idle one takes the next batch.
  for (int instance = 0; instance < model_.triton.instances_per_gpu; ++instance) {
    for (std::size_t gpu = 0; gpu < gpus_.size(); ++gpu) {
      const std::string name = model_.name + "_instance" + std::to_string(instance) + "_" + gpus_[gpu]->get_name();
      sg4::Actor::create(name, gpus_[gpu], [this, gpu]() { run_instance(static_cast<int>(gpu)); })->daemonize();
    }
  }
  if (batcher_.dynamic_batching && batcher_.max_queue_delay_s > 0) {
    delay_timer_ = sg4::Actor::create(model_.name + "_delay_timer", gpus_.front(), [this]() { run_delay_timer(); }).get();
    delay_timer_->daemonize();
  }
}

void InferenceServer::wake_one_idle_instance() {
  if (idle_instances_.empty()) return;
  sg4::Actor* instance = idle_instances_.back();
  idle_instances_.pop_back();
  instance->resume();
}

void InferenceServer::run_delay_timer() {
  // Sleeps until the deadline an instance asked for, then lets an idle instance decide again. A deadline only
  // ever moves later (the oldest request leaves), so waking early is harmless and waking late cannot happen.
  while (true) {
    if (!delay_deadline_s_) {
      sg4::this_actor::suspend();
      continue;
    }
    const double deadline_s = *delay_deadline_s_;
    sg4::this_actor::sleep_until(deadline_s);
    if (delay_deadline_s_ && *delay_deadline_s_ <= sg4::Engine::get_clock()) {
      delay_deadline_s_.reset();
      wake_one_idle_instance();
    }
  }
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
  wake_one_idle_instance();
  return std::nullopt;
}

void InferenceServer::complete(InferenceRequest& request) {
  request.done = true;
  // The client suspends itself right after submitting; it is not suspended yet only if it has not run since.
  if (request.client->is_suspended()) request.client->resume();
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

void InferenceServer::run_instance(int gpu_index) {
  const auto gpu = static_cast<std::size_t>(gpu_index);
  sg4::Actor* self = sg4::Actor::self();
  std::vector<InferenceRequest*> batch;
  while (true) {
    const double now_s = sg4::Engine::get_clock();
    drop_timed_out_requests(now_s);
    const BatchDecision decision = decide_batch(queue_, now_s, batcher_);
    if (decision.kind != BatchDecision::Kind::dispatch) {
      if (decision.kind == BatchDecision::Kind::wait_until) {
        delay_deadline_s_ = decision.wake_at_s;
        if (delay_timer_->is_suspended()) delay_timer_->resume();
      }
      idle_instances_.push_back(self);
      sg4::this_actor::suspend();
      continue;
    }
    batch.clear();
    double queue_wait_sum_s = 0.0;
    for (std::size_t i = 0; i < decision.request_count; ++i) {
      queue_wait_sum_s += now_s - queue_.front().enqueued_s;
      batch.push_back(queue_.front().request);
      queue_.pop_front();
    }
    // Another idle instance may take what is left.
    if (!queue_.empty()) wake_one_idle_instance();

    if (active_batches_per_gpu_[gpu]++ == 0) gpu_busy_since_s_[gpu] = now_s;
    const double service_s = batch_service_time_s(curve_, decision.batch_size);
    if (model_.triton.instances_per_gpu == 1) {
      sg4::this_actor::sleep_for(service_s); // the GPU runs one batch at a time
    } else {
      // Several instances on one GPU share it: SimGrid's CPU model divides the GPU host among running batches.
      sg4::this_actor::execute(service_s * gpu_flops_per_s);
    }
    const double end_s = sg4::Engine::get_clock();
    if (--active_batches_per_gpu_[gpu] == 0) recorder_.record_gpu_busy(gpu_busy_since_s_[gpu], end_s);
    recorder_.record_batch(now_s, end_s, decision.batch_size, static_cast<int>(decision.request_count),
                           queue_wait_sum_s);
    for (auto* request : batch) complete(*request);
  }
}

} // namespace sonicsim
