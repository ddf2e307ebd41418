// The SimGrid configuration every sonicsim engine starts with, so that the simulation and the benchmarks that
// measure SimGrid alone run the same network model.
#pragma once

#include "sim/scenario/scenario.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <memory>
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

  // SimGrid settings given with `sonicsim --cfg KEY:VALUE` (e.g. contexts/factory:thread for sanitizers),
  // appended after sonicsim's own so that they win. Set once by main() before any engine starts; every engine
  // of the process (and of the child processes it forks) uses them, as SimGrid's configuration is per
  // process.
  static void set_user_settings(std::vector<std::string> settings);
  static const std::vector<std::string>& user_settings();
  // The engine for this command line. A setting SimGrid does not accept is bad input (InputError naming it),
  // not a failed run.
  std::unique_ptr<simgrid::s4u::Engine> start_engine();

private:
  std::vector<std::string> arguments_;
  std::vector<char*> argv_;
  int argc_ = 0;
};

} // namespace sonicsim
