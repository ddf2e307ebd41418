// The proxy's choice of a server for one request (Envoy's load-balancing policies, as SuperSONIC runs Envoy
// in front of its Triton servers): among the pods that serve now, per request. Pure code.
#pragma once

#include "sim/scenario/operations.hpp"

#include "sim/random/random_engine.hpp"
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

namespace sonicsim {

class ProxyBalancer {
public:
  ProxyBalancer(ProxyBalancing policy, int choice_count);
  // The pod for the next request, among `serving` (pod numbers; `outstanding[pod]` are the requests each has
  // not answered yet), leaving out `avoid` when another pod serves (a retry on another server). None when
  // no pod serves. round_robin takes the serving pods in turn; random one drawn uniformly; least_request
  // draws choice_count pods (with replacement, as Envoy does) and takes the one with the fewest outstanding
  // (the first drawn on ties), or, when choice_count covers every serving pod, scans them all (lowest
  // number on ties).
  std::optional<int> choose(const std::vector<int>& serving, const std::vector<int>& outstanding,
                            std::optional<int> avoid, RandomEngine& rng);

private:
  ProxyBalancing policy_;
  int choice_count_;
  std::uint64_t next_ = 0; // round robin's turn
};

} // namespace sonicsim
