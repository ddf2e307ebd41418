// Simulations here, each in its own child process (SimGrid allows one engine per process), `parallel` at
// once, with one progress line for the batch.
#pragma once

#include "sim/execution/simulation_request.hpp"

#include <string>
#include <vector>

namespace sonicsim {

class Progress;

// Outcomes in the order of `requests`; a simulation that throws, crashes or is killed is not ok, with its
// message, and the others go on. `label` starts the progress lines.
std::vector<SimulationOutcome> run_here(const std::vector<SimulationRequest>& requests, int parallel,
                                        const std::string& label, bool quiet = false,
                                        const OnOutcome& on_outcome = {});

// The same, as one batch of a command that keeps one Progress over all its batches (plan, calibrate): the
// batch's simulations join the command's total, and its lines count the whole command's.
std::vector<SimulationOutcome> run_here(const std::vector<SimulationRequest>& requests, int parallel,
                                        Progress& command_progress, const OnOutcome& on_outcome = {});

} // namespace sonicsim
