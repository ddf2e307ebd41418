// The SimGrid configuration every sonicsim engine starts with, so that the simulation and the benchmarks that
// measure SimGrid alone run the same network model.
#pragma once

#include "sim/scenario/scenario.hpp"

#include <string>
#include <vector>

namespace sonicsim {

// The arguments for simgrid::s4u::Engine's constructor, which takes a C-style command line:
//   EngineCommandLine command_line(scenario);
//   simgrid::s4u::Engine engine(command_line.argc(), command_line.argv());
class EngineCommandLine {
public:
  explicit EngineCommandLine(const Scenario& scenario);
  EngineCommandLine(const EngineCommandLine&) = delete; // argv points into arguments_
  EngineCommandLine& operator=(const EngineCommandLine&) = delete;
  int* argc() { return &argc_; }
  char** argv() { return argv_.data(); }

private:
  std::vector<std::string> arguments_;
  std::vector<char*> argv_;
  int argc_ = 0;
};

} // namespace sonicsim
