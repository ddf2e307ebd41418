// Several independent simulations at once, each in its own child process (SimGrid allows one engine per
// process), for commands that decide what to run next from what they have seen (plan, compare). A line on
// stderr per finished run says how far the batch is.
#pragma once

#include "sim/metrics/run_summary.hpp"
#include "sim/scenario/scenario.hpp"

#include <string>
#include <vector>

namespace sonicsim {

// Results in the order of `scenarios`. `label` prefixes the progress lines ("plan", "compare").
std::vector<SimulationOutcome> simulate_batch(const std::vector<Scenario>& scenarios, int parallel,
                                              const std::string& label);

} // namespace sonicsim
