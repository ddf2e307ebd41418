#include "sim/policy/load_balancer.hpp"

namespace sonicsim {

int choose_pod(LoadBalancer policy, int job, int pods, std::mt19937_64& rng) {
  switch (policy) {
  case LoadBalancer::round_robin:
    return job % pods;
  case LoadBalancer::random:
    break;
  }
  return static_cast<int>(rng() % static_cast<std::uint64_t>(pods));
}

} // namespace sonicsim
