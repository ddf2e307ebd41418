#include "sim/engine/engine_arguments.hpp"

#include "sim/scenario/input_error.hpp"

#include <csignal>
#include <utility>

#include <unistd.h>

namespace sonicsim {
namespace {
std::vector<std::string>& settings_given() {
  static std::vector<std::string> settings;
  return settings;
}
// Ctrl-C during a simulation in this process (a plain `run`): SimGrid's handler would print the engine's
// state and exit 1. Here the command says it was interrupted and exits 130; the outputs it was writing stay
// as *.partial files, never complete-looking ones. (Simulations in child processes block the signal: their
// parent stops them, sim/execution/interruption.hpp.) Only async-signal-safe calls.
extern "C" void stop_interrupted_run(int) {
  static const char message[] =
      "sonicsim: interrupted: the simulation was stopped; nothing was written but *.partial files\n";
  [[maybe_unused]] const auto written = ::write(STDERR_FILENO, message, sizeof message - 1);
  ::_exit(130);
}
} // namespace

const std::vector<std::string>& EngineCommandLine::user_settings() {
  return settings_given();
}

std::unique_ptr<simgrid::s4u::Engine> EngineCommandLine::start_engine() {
  try {
    auto engine = std::make_unique<simgrid::s4u::Engine>(&argc_, argv_.data());
    std::signal(SIGINT, stop_interrupted_run); // after the engine: it installs its own
    std::signal(SIGTERM, stop_interrupted_run);
    return engine;
  } catch (const std::exception& error) {
    // SimGrid lists every known key after the first line; the first line names the problem.
    const std::string what = error.what();
    std::string settings;
    for (const auto& setting : user_settings())
      settings += " " + setting;
    throw InputError("--cfg" + settings + ": SimGrid refused a setting: " + what.substr(0, what.find('\n')));
  }
}

void EngineCommandLine::set_user_settings(std::vector<std::string> settings) {
  settings_given() = std::move(settings);
}

EngineCommandLine::EngineCommandLine(const Scenario& scenario)
    : arguments_{
          "sonicsim",
          // CM02: max-min sharing of every link by the flows crossing it, each flow also bounded by its TCP
          // window (rate <= window / RTT). No empirical correction factors, so rates are those of the
          // scenario.
          "--cfg=network/model:CM02",
          "--cfg=network/TCP-gamma:" + std::to_string(scenario.platform.network.tcp_window_bytes),
          "--cfg=network/crosstraffic:0",
          // Every flow's progress updated at every step rather than kept in a heap of completion dates: with
          // the fast path most flows never reach the solver, and on a saturated switch (campaigns) a solve
          // touches every flow anyway. Measured: the shipped 2022 campaign 4.90 -> 3.22 s CPU, 400 jobs x 24
          // events 0.51 -> 0.49 s, events.csv identical at 400 jobs; --cfg network/optim:Lazy restores the
          // heap.
          "--cfg=network/optim:Full",
          "--log=root.thresh:warning",
          "--log=xbt_cfg.thresh:critical",
      } {
#if defined(__SANITIZE_ADDRESS__)
  // SimGrid's default contexts switch stacks by hand, which AddressSanitizer cannot follow when actors are
  // killed (google/sanitizers#189: false reports). Threads it can follow; only the sanitize build pays for
  // them.
  arguments_.emplace_back("--cfg=contexts/factory:thread");
#endif
  for (const auto& setting : user_settings())
    arguments_.push_back("--cfg=" + setting);
  for (auto& argument : arguments_)
    argv_.push_back(argument.data());
  argc_ = static_cast<int>(argv_.size());
}

} // namespace sonicsim
