// `sonicsim --cfg KEY:VALUE`, checked once in the command's own process before any simulation: a value
// SimGrid cannot run with is bad input (an InputError naming the option), never an abort in the middle of a
// run or a failure of each child of a sweep or plan.
#pragma once

#include <string>
#include <vector>

namespace sonicsim {

// Refuses, naming the setting:
// - what sonicsim does not offer: SimGrid's tracing (it writes outside --out), another network or host model
//   (the flow classes and the fast path compute CM02's max-min shares), more context threads than the
//   machine has cores (a thread bomb);
// - a number that is not finite or not positive where SimGrid needs one (precisions, TCP-gamma, factors);
// - anything SimGrid refuses or dies of: each setting is tried on a two-job run of the default scenario in a
//   child process (a fork, about 0.1 s), whose abort, exit or silence for 30 s is the refusal.
void check_simgrid_settings(const std::vector<std::string>& settings);

} // namespace sonicsim
