#include "sim/policy/proxy_balancer.hpp"

#include <algorithm>

namespace sonicsim {

ProxyBalancer::ProxyBalancer(ProxyBalancing policy, int choice_count)
    : policy_(policy), choice_count_(choice_count) {}

std::optional<int> ProxyBalancer::choose(const std::vector<int>& serving, const std::vector<int>& outstanding,
                                         std::optional<int> avoid, RandomEngine& rng) {
  // The candidates: every serving pod, less the one to avoid when it is not the only one. Only a retry on
  // another server builds a list; every other request draws from the serving pods as they are.
  thread_local std::vector<int> without_avoided;
  const bool leave_out =
      avoid && serving.size() > 1 && std::find(serving.begin(), serving.end(), *avoid) != serving.end();
  if (leave_out) {
    without_avoided.clear();
    for (const int pod : serving)
      if (pod != *avoid) without_avoided.push_back(pod);
  }
  const std::vector<int>& candidates = leave_out ? without_avoided : serving;
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
