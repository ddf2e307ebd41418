#include "sim/engine/engine_arguments.hpp"

namespace sonicsim {

EngineCommandLine::EngineCommandLine(const Scenario& scenario)
    : arguments_{
          "sonicsim",
          // CM02: max-min sharing of every link by the flows crossing it, each flow also bounded by its TCP
          // window (rate <= window / RTT). No empirical correction factors, so rates are those of the
          // scenario.
          "--cfg=network/model:CM02",
          "--cfg=network/TCP-gamma:" + std::to_string(scenario.platform.network.tcp_window_bytes),
          "--cfg=network/crosstraffic:0",
          "--log=root.thresh:warning",
          "--log=xbt_cfg.thresh:critical",
      } {
  for (auto& argument : arguments_)
    argv_.push_back(argument.data());
  argc_ = static_cast<int>(argv_.size());
}

} // namespace sonicsim
