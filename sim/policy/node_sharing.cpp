#include "sim/policy/node_sharing.hpp"

#include <algorithm>

namespace sonicsim {

double thread_speed_factor(const ClientNode& node, int busy_threads, int inference_threads) {
  if (!node.enabled() || busy_threads < 1) return 1.0;
  const double p = node.physical_cores;
  const double b = busy_threads;
  const double siblings = std::min(std::max(b - p, 0.0), p * (node.threads_per_core - 1));
  const double share = (std::min(b, p) + node.hyperthread_yield * siblings) / b;
  return share / (1.0 + node.inference_contention * std::max(inference_threads, 0) / p);
}

} // namespace sonicsim
