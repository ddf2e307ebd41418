#include "sim/policy/proxy_balancer.hpp"

namespace sonicsim {

ProxyBalancer::ProxyBalancer(ProxyBalancing policy, int choice_count)
    : policy_(policy), choice_count_(choice_count) {}

std::optional<int> ProxyBalancer::choose(const std::vector<int>& serving, const std::vector<int>& outstanding,
                                         std::optional<int> avoid, std::mt19937_64& rng) {
  // The candidates: every serving pod, less the one to avoid when it is not the only one.
  thread_local std::vector<int> candidates;
  candidates.clear();
  for (const int pod : serving)
    if (!avoid || pod != *avoid || serving.size() == 1) candidates.push_back(pod);
  if (candidates.empty()) return std::nullopt;
  const auto n = static_cast<std::uint64_t>(candidates.size());
  switch (policy_) {
  case ProxyBalancing::round_robin:
    return candidates[static_cast<std::size_t>(next_++ % n)];
  case ProxyBalancing::random:
    return candidates[static_cast<std::size_t>(rng() % n)];
  case ProxyBalancing::least_request:
    break;
  }
  const auto load = [&](int pod) { return outstanding[static_cast<std::size_t>(pod)]; };
  int best = candidates.front();
  if (static_cast<std::uint64_t>(choice_count_) >= n) {
    for (const int pod : candidates)
      if (load(pod) < load(best)) best = pod;
    return best;
  }
  best = candidates[static_cast<std::size_t>(rng() % n)];
  for (int c = 1; c < choice_count_; ++c) {
    const int pod = candidates[static_cast<std::size_t>(rng() % n)];
    if (load(pod) < load(best)) best = pod;
  }
  return best;
}

} // namespace sonicsim
