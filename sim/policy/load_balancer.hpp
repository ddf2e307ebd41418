// The load balancer in front of the server pods: which pod a job's connection goes to. A gRPC channel is
// long-lived, so the choice is made once per job and holds for all its requests. Pure code.
#pragma once

#include "sim/scenario/scenario.hpp"

#include <random>
#include <string>

namespace sonicsim {

// The pod (0 .. pods - 1) for job `job`'s connection: round_robin takes job mod pods; random draws one
// number from `rng` (round_robin draws none).
int choose_pod(LoadBalancer policy, int job, int pods, std::mt19937_64& rng);

} // namespace sonicsim
