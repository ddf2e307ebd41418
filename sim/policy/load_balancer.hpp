// The load balancer in front of a model's pods: which pod a job's connection goes to. A gRPC channel is
// long-lived, so the choice is made once per job and model and holds for all its requests. Pure code.
#pragma once

#include "sim/scenario/scenario.hpp"

#include "sim/random/random_engine.hpp"
#include <random>
#include <vector>

namespace sonicsim {

// The pod (0 .. pods - 1) for job `job`'s connection: round_robin takes job mod pods; random draws one
// number from `rng` (round_robin draws none). least_connections needs the open connections: use
// ConnectionBalancer.
int choose_pod(LoadBalancer policy, int job, int pods, RandomEngine& rng);

// One model's balancer: keeps the open connections per pod so that least_connections can pick the emptiest;
// random and round_robin are choose_pod.
class ConnectionBalancer {
public:
  ConnectionBalancer(LoadBalancer policy, int pods);
  // Opens job `job`'s connection from worker node `worker`; returns the pod (0 .. pods - 1). client_node
  // returns the worker's own.
  int connect(int job, int worker, RandomEngine& rng);
  // The job's connection to `pod` is closed (the job ended).
  void disconnect(int pod);
  int open_connections(int pod) const { return open_[static_cast<std::size_t>(pod)]; }

private:
  LoadBalancer policy_;
  std::vector<int> open_;
};

} // namespace sonicsim
