// Simulations here, each in its own child process (SimGrid allows one engine per process), `parallel` at
// once, with one progress line for the batch.
#pragma once

#include "sim/execution/simulation_request.hpp"

#include <string>
#include <vector>

namespace sonicsim {

// Outcomes in the order of `requests`; a simulation that throws, crashes or is killed is not ok, with its
// message, and the others go on. `label` starts the progress lines.
std::vector<SimulationOutcome> run_here(const std::vector<SimulationRequest>& requests, int parallel,
                                        const std::string& label, bool quiet = false,
                                        const OnOutcome& on_outcome = {});

} // namespace sonicsim
