// SimGrid's own cost for the network flows of a run, without sonicsim's servers, queues, module pipeline or
// bookkeeping. Every job sends as many requests as it did in the run, each one SimGrid host-to-host flow of
// the run's mean request size from its node to its pod, one at a time and evenly spaced, so that about as
// many flows are in flight at once as in the run. Flows per wall-clock second of this skeleton bound the
// speed of any simulator that models each request as one SimGrid flow on this platform (`sonicsim bench`
// prints it next to the simulator's own rate).
#pragma once

#include "sim/scenario/scenario.hpp"

#include <cstdint>

namespace sonicsim {

struct FlowFloorWorkload {
  std::uint64_t flows_per_job = 0;
  double flow_bytes = 0.0;
  double period_s = 0.0; // between the starts of one job's consecutive flows
};

struct FlowFloorResult {
  std::uint64_t flows = 0;
  std::uint64_t fast_flows = 0; // timed without SimGrid's solver from start to end
  double wall_clock_s = 0.0;
};

// The run's workload in those terms: `requests` sent by `scenario.workload.jobs` jobs over `simulated_s`
// seconds, `bytes_to_servers` in all.
FlowFloorWorkload flow_floor_workload(const Scenario& scenario, double requests, double simulated_s,
                                      double bytes_to_servers);

FlowFloorResult run_flow_floor(const Scenario& scenario, const FlowFloorWorkload& workload);

} // namespace sonicsim
