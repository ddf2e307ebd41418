// How fast a job thread computes when others compute on the same client node: hardware threads sharing
// physical cores, and inference's memory traffic slowing every thread. Pure code; the job clients count what
// runs on each node (JobContext::node_loads) and ask for the factor when a thread starts a piece of CPU work.
//
// Why: a grid node runs several multi-threaded jobs; a 32-vCPU cloud VM has 16 physical cores, so 32 busy
// threads share 16 cores, and a core running two threads delivers (1 + y) of one, y the hyper-threading
// yield. A thread that waits on a remote call leaves its core to its sibling. Machine-learning inference on
// the CPU streams its weights and inputs through the shared caches and memory bandwidth: every thread on the
// node runs slower while it runs (inference contention kappa per inference thread per physical core).
// Moving inference off the node relieves both; a gain over direct inference can then exceed the inference
// share of the event, as the CMS study measured (arXiv:2402.15366, docs/model.md "Client nodes").
//
// The factor is relative to a thread alone on a physical core with no inference beside it (the CPU speed of
// the scenario's cpu_mix is that thread's speed):
//   b busy threads (this one included) on P physical cores of h hardware threads each:
//     cores' throughput  = min(b, P) + y x min(max(b - P, 0), P x (h - 1))   (each busy thread gets a share)
//     share per thread   = cores' throughput / b
//   I inference threads among them: divided by (1 + kappa x I / P).
#pragma once

#include "sim/scenario/scenario.hpp"

namespace sonicsim {

// What computes on one client node now: its busy threads (job threads in CPU work, and the fallback
// server's instances executing a batch), and those of them running inference.
struct NodeLoad {
  int busy = 0;
  int inference = 0;
};

// The speed factor of one thread when `busy_threads` threads compute on the node (this one included, >= 1)
// and `inference_threads` of them run inference.
double thread_speed_factor(const ClientNode& node, int busy_threads, int inference_threads);

} // namespace sonicsim
