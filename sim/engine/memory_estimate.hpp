// What a run will hold in memory, estimated from its size before it starts, and the refusal of a run that
// cannot fit in what this process may use (the address-space limit, or the machine's physical memory).
#pragma once

#include "sim/scenario/scenario.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace sonicsim {

// Bytes a run of `scenario` (as simulated: a campaign at its scale) holds at its peak, resident: a base and
// what grows, each term measured on its own grid (memory_estimate.cpp): job slots (and their threads),
// modules, models, WAN down windows, pods and their devices.
struct MemoryEstimate {
  double jobs_bytes = 0.0, modules_bytes = 0.0, models_bytes = 0.0, wan_windows_bytes = 0.0, pods_bytes = 0.0;
  double total_bytes = 0.0; // with the base
};
MemoryEstimate estimate_run_memory(const Scenario& scenario);
double estimated_run_bytes(const Scenario& scenario);

// The memory this process may use: the smaller of its address-space limit and the machine's physical memory,
// with the name of the one that binds; none when neither can be read.
struct MemoryLimit {
  double bytes = 0.0;
  std::string what;
  bool address_space = false; // ulimit -v: it counts what is reserved, not only what is resident
};
std::optional<MemoryLimit> memory_limit();

// Throws InputError, naming the key that takes most (workload.jobs, workload.pipeline or the server groups),
// the estimate and the limit, when the estimate is over the limit (an address-space limit with 5 % and 64 MiB
// more: what is reserved beyond what is resident); otherwise, for a large run, prints large_run_notice on
// stderr.
void check_run_fits(const Scenario& scenario);

// Above this estimate a run says what it will hold before it starts (a run of minutes to hours).
inline constexpr double large_run_bytes = 1e9;

// What a large run will hold, said before it starts: the estimate, and the limit it is within; "" below
// large_run_bytes. `limit`: the process's (memory_limit()), none when unknown.
std::string large_run_notice(const Scenario& scenario, const std::optional<MemoryLimit>& limit);

} // namespace sonicsim
