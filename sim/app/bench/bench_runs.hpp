// The runs `sonicsim bench` times: the simulator on a scenario, each run in a process of its own, and the
// SimGrid floor of the same number of flows (sim/engine/flow_floor.hpp), one after the other so that each
// pair sees the same state of a shared machine.
#pragma once

#include "sim/engine/flow_floor.hpp"
#include "sim/scenario/scenario.hpp"

#include <vector>

namespace sonicsim {

struct Measurement {
  double wall_s = 0, cpu_s = 0, requests = 0, events = 0, peak_rss_mb = 0;
  double simulated_s = 0, bytes_to_servers = 0;
  double fast_flows = 0, flows = 0; // flows timed without SimGrid's solver from start to end, and all flows
};

double median(std::vector<double> values);

// Runs one configuration `repeat` times, one process each, one at a time (so runs do not compete for cores).
std::vector<Measurement> measure(const Scenario& scenario, int repeat);

// SimGrid alone on a run's flows, in one child process: flows per wall-clock second, and the share of them
// timed without SimGrid's solver from start to end (the floor's flows are evenly spaced, so fewer of them
// share a link than in the run itself).
struct FloorRate {
  double flows_per_s = 0.0;
  double fast_percent = 0.0;
};
FloorRate measure_flow_floor(const Scenario& scenario, const FlowFloorWorkload& workload);

struct WithFloor {
  std::vector<Measurement> runs;
  std::vector<double> floor_per_s; // one per run, measured right after it
};
// Simulator and floor runs alternate, so that each pair sees the same state of a shared machine: their ratio
// is steadier than either rate.
WithFloor measure_with_floor(const Scenario& scenario, int repeat);

} // namespace sonicsim
