// Where a job runs and what it gets, for fixed runs and campaigns alike: its node, CPU speed and local GPU
// (by job slot: stratified over the scenario's mixes), and one server pod per model it calls (each model's
// load balancer, per connection, as Kubernetes assigns a backend to a long-lived gRPC channel).
#pragma once

#include "sim/components/job_client.hpp"
#include "sim/policy/load_balancer.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/server_layout.hpp"

#include "sim/random/random_engine.hpp"
#include <random>
#include <vector>

namespace sonicsim {

class JobPlacer {
public:
  // `layout` must outlive the placer (the run's ServerDirectory holds it).
  JobPlacer(const Scenario& scenario, const ServerLayout& layout);

  int slots() const { return static_cast<int>(slot_cpu_speed_.size()); }
  // Job `job` in job slot `slot` (its node: slot / jobs_per_node); the balancers draw from `rng`. The start
  // time and the number of events are the caller's to set.
  JobPlacement place(int job, int slot, RandomEngine& rng);
  // The job's channels close: a least-connections balancer sees its pods one connection emptier.
  void release(const std::vector<int>& pods);

private:
  const Scenario& scenario_;
  const ServerLayout& layout_;
  std::vector<double> slot_cpu_speed_;
  std::vector<bool> slot_local_gpu_;
  std::vector<ConnectionBalancer> balancers_; // per served model
};

} // namespace sonicsim
