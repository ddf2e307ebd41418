// The SimGrid configuration every sonicsim engine starts with, so that the simulation and the benchmarks that
// measure SimGrid alone run the same network model.
#pragma once

#include "sim/scenario/scenario.hpp"

#include <string>
#include <vector>

namespace sonicsim {

// Command-line style arguments for simgrid::s4u::Engine.
std::vector<std::string> engine_arguments(const Scenario& scenario);

} // namespace sonicsim
