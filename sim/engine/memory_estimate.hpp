// What a run will hold in memory, estimated from its size before it starts, and the refusal of a run that
// cannot fit in what this process may use (the address-space limit, or the machine's physical memory).
#pragma once

#include "sim/scenario/scenario.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace sonicsim {

// Bytes a run of `scenario` (as simulated: a campaign at its scale) holds at its peak, at least: a base and
// a cost per job slot, measured on the default scenario (see memory_estimate.cpp).
double estimated_run_bytes(const Scenario& scenario);

// The memory this process may use: the smaller of its address-space limit and the machine's physical memory,
// with the name of the one that binds; none when neither can be read.
struct MemoryLimit {
  double bytes = 0.0;
  std::string what;
};
std::optional<MemoryLimit> memory_limit();

// Throws InputError, naming workload.jobs, the estimate and the limit, when the estimate is over the limit.
void check_run_fits(const Scenario& scenario);

} // namespace sonicsim
