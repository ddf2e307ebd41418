// The resources of one server pod that its models share, as pure timelines the inference servers book:
// each device and the host's cores. Pure code (times in, times out), so the sharing rule is unit-tested
// without an engine.
//
// The sharing rule for a device: it executes one batch at a time, whole, in the order batches are handed to
// it, whichever model or instance they come from; a batch takes the time its model's measured curve gives
// for its size (models::ThroughputCurve::batch_time_s). Why: each curve was measured with the model alone on
// the device at a concurrency that saturates it (perf_analyzer, arXiv:2009.04509 section 3.4), so a batch
// overlapped with another model's shares the same SMs and memory bandwidth and finishes no sooner in total;
// the rule is work-conserving, so device throughput at saturation is the same as under processor sharing
// (the two differ only in which batch finishes first). Consequence: alone, a model follows its own curve;
// together, models that keep a device busy split its time, sum over models of X_m t_m(b_m) / b_m = 1 at
// saturation, with X_m in inferences per second and t_m(b) the time of a batch of b.
//
// Models that share a device do not share it perfectly: switching the device from one model's batch to
// another's costs time (kernels and weights of the other model out of the caches, another CUDA context). A
// device of a group with `model_switch_time` adds that time to a batch whose model differs from the batch
// before it; with `model_switch_slowdown` such a batch takes that fraction of its own time longer (a cost in
// proportion to the work, as when the other model's weights and kernels must be fetched again as it runs,
// rather than a fixed one per switch). Default 0: the rule above, which each model's own curve measures; the
// CMS all-models-on-one-T4 test measures how far from it one T4 is
// (configs/cms_miniaod_2024_all_models_one_t4.yaml).
//
// The host: `cores` identical cores serve work first come, first served (request input and output handling,
// and batches of CPU instances), each item on one core.
#pragma once

#include <vector>

namespace sonicsim {

// When a booked piece of work runs.
struct Booking {
  double start_s = 0.0;
  double end_s = 0.0;
};

class DeviceTimeline {
public:
  explicit DeviceTimeline(double model_switch_s = 0.0, double model_switch_slowdown = 0.0)
      : model_switch_s_(model_switch_s), model_switch_slowdown_(model_switch_slowdown) {}
  // Books a batch of model `model` lasting `duration_s`, handed over at `now_s`: it starts when the batches
  // before it are done, and when the batch before it was another model's it lasts
  // duration_s x (1 + model_switch_slowdown) + model_switch_s.
  Booking run_batch(double now_s, double duration_s, int model = 0);
  double free_at_s() const { return busy_until_s_; }
  double busy_s() const { return busy_s_; } // total booked time, switches included
  int model_switches() const { return model_switches_; }

private:
  double model_switch_s_ = 0.0;
  double model_switch_slowdown_ = 0.0;
  double busy_until_s_ = 0.0;
  double busy_s_ = 0.0;
  int last_model_ = -1; // none yet: the first batch pays no switch (the model was loaded before the run)
  int model_switches_ = 0;
};

class HostCores {
public:
  explicit HostCores(int cores);
  // Books `duration_s` of work arriving at `now_s` on the core free soonest (lowest index on ties).
  Booking run(double now_s, double duration_s);
  double free_at_s() const; // when the first core is free
  int cores() const { return static_cast<int>(free_at_s_.size()); }

private:
  std::vector<double> free_at_s_;
};

} // namespace sonicsim
