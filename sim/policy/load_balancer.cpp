#include "sim/policy/load_balancer.hpp"

#include <algorithm>

namespace sonicsim {

int choose_pod(LoadBalancer policy, int job, int pods, RandomEngine& rng) {
  switch (policy) {
  case LoadBalancer::round_robin:
    return job % pods;
  case LoadBalancer::least_connections: // without the connection counts every pod is as empty: the first
  case LoadBalancer::client_node:       // needs the job's node: ConnectionBalancer
    return 0;
  case LoadBalancer::random:
    break;
  }
  return static_cast<int>(rng() % static_cast<std::uint64_t>(pods));
}

ConnectionBalancer::ConnectionBalancer(LoadBalancer policy, int pods)
    : policy_(policy), open_(static_cast<std::size_t>(pods), 0) {}

int ConnectionBalancer::connect(int job, int worker, RandomEngine& rng) {
  int pod = 0;
  if (policy_ == LoadBalancer::client_node) {
    pod = worker;
  } else if (policy_ == LoadBalancer::least_connections) {
    pod = static_cast<int>(std::min_element(open_.begin(), open_.end()) - open_.begin());
  } else {
    pod = choose_pod(policy_, job, static_cast<int>(open_.size()), rng);
  }
  ++open_[static_cast<std::size_t>(pod)];
  return pod;
}

void ConnectionBalancer::disconnect(int pod) {
  auto& open = open_[static_cast<std::size_t>(pod)];
  if (open > 0) --open;
}

} // namespace sonicsim
