// The arithmetic of `sonicsim bench`'s figures, apart from the runs: CPU seconds from an rusage, how a cost
// grows with a size, and a peer's printed rate. Pure code, unit-tested.
#pragma once

#include <optional>
#include <string>

struct rusage;

namespace sonicsim {

// User + system seconds of an rusage (getrusage, or wait4's of a child and what it waited for).
double cpu_seconds(const rusage& usage);

// The exponent k of cost = c x size^k through two measurements: 1 is linear, 2 quadratic. Throws
// std::invalid_argument unless both sizes and costs are positive and the sizes differ.
double scaling_exponent(double size_a, double cost_a, double size_b, double cost_b);

// The rate a peer printed as "req/s=N" in its output; none when it printed none or N is not a positive
// number.
std::optional<double> printed_requests_per_s(const std::string& output);

// Where the time of one simulated request goes, against the SimGrid floor (the same flows moved by SimGrid
// alone, sim/engine/flow_floor.hpp) and a peer, all in requests per wall-clock second of the same work: what
// the floor costs a request, what the simulator spends on top of it (servers, batches, module pipeline,
// recording), and what a goal of `goal_ratio` times the peer would leave for that work. A negative budget:
// SimGrid alone misses the goal. Throws std::invalid_argument unless every rate and the goal are positive.
struct RequestBudget {
  double floor_us = 0.0;         // SimGrid's own cost per request (flow), microseconds
  double own_us = 0.0;           // the simulator's cost above it
  double own_us_at_goal = 0.0;   // what the goal leaves for the simulator's own work
  double floor_times_peer = 0.0; // the floor's rate over the peer's: the most any design on SimGrid reaches
};
RequestBudget request_budget(double simulator_per_s, double floor_per_s, double peer_per_s,
                             double goal_ratio);

} // namespace sonicsim
