// The analytic models' view of a shared client node (platform.client_node): how much longer a thread's CPU
// work takes, on average, when the other threads of its node compute beside it. The simulator takes each
// piece of work's speed from the node's load when the piece starts (sim/policy/node_sharing.hpp); the
// analytic models have no per-node state, so they take the node's load as a steady mean field:
//   - the node is full: jobs_per_node jobs of `threads` threads each (jobs fill nodes in turn, so every
//     node but the last is full once there are more jobs than one node holds);
//   - each other thread is, independently, in non-inference CPU work with probability f_cpu, in inference
//     with probability f_inference, and waiting on a remote call otherwise; f_cpu and f_inference are the
//     shares of the event time its slowed work takes (a fixed point: slower work is a larger share);
//   - a piece of work sees the node as an arriving piece does on average (the others' states at their
//     stationary probabilities) and lasts work / factor.
// The slowdown is E[1 / factor] over the others' states. It assumes the threads' states independent, where
// the simulator's threads on one node interact (a slowed thread stays busy longer); docs/model.md "Client
// nodes" gives the gap this leaves against the simulator. Pure code.
#pragma once

#include "sim/scenario/scenario.hpp"

namespace sonicsim::analysis {

struct ClientNodeSlowdown {
  double cpu = 1.0;       // E[1 / factor] for a thread's non-inference CPU work
  double inference = 1.0; // the same for inference on the CPU (it counts itself as an inference thread)
  int threads_on_node = 1;
  double busy_share = 0.0;      // f_cpu + f_inference at the fixed point
  double inference_share = 0.0; // f_inference
};

// `cpu_work_s` and `inference_work_s`: a thread's CPU work per event at its speed alone on a core;
// `wait_s`: the rest of its event at low load (transfers, round trips, server time).
ClientNodeSlowdown client_node_slowdown(const ClientNode& node, int threads_on_node, double cpu_work_s,
                                        double inference_work_s, double wait_s);

} // namespace sonicsim::analysis
