// Exact mean value analysis (MVA) of a closed queueing network: N jobs cycle through one delay station (the
// CPU part of an event, think time Z) and K queueing stations (links, the GPU pool). Gives the smooth curve
// through the knee where the piecewise SONIC model has a corner.
//
// Multi-server stations (c > 1, rate min(j, c) / S) are solved exactly with load-dependent MVA on the
// marginal queue-length probabilities p_k(j | n), j < c. The textbook form gets p_k(0 | n) as 1 minus the
// other terms, which cancels catastrophically near saturation and is amplified by up to c^c / c! through the
// recursion (garbage for c ~ 100). Here p_k(0 | n) = G_{-k}(n) / G(n) = prod_{i<=n} X(i) / X_{-k}(i) instead,
// with X_{-k} the throughput of the network without station k (solved by the same routine): every step is a
// product of positive numbers, kept in logarithms, so nothing cancels and nothing underflows. Cost: one extra
// solve per multi-server station (2^M solves for M multi-server stations; M is 1 or 2 here).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace sonicsim::models {

struct QueueingStation {
  std::string name;
  double demand_s = 0.0; // service demand per event: visits per event x service time per visit
  int servers = 1;       // 1: single FCFS server; c > 1: c identical servers sharing one queue
};

struct ClosedNetwork {
  double think_time_s = 0.0; // delay (infinite-server) station: time per event spent outside the queues
  std::vector<QueueingStation> stations;

  // Throws std::invalid_argument on a negative demand or think time, servers < 1, or a network whose total
  // demand plus think time is zero (the throughput would be infinite).
  void validate() const;
  double total_demand_s() const; // D = sum of demands of the queueing stations
};

// Mean values with `jobs` jobs in the network.
struct MvaPopulation {
  int jobs = 0;
  double throughput_per_s = 0.0;        // events per second, X(n)
  double response_time_s = 0.0;         // sum of residence times over the queueing stations, R(n)
  double cycle_time_s = 0.0;            // R(n) + Z = n / X(n)
  std::vector<double> residence_time_s; // per station
  std::vector<double> queue_length;     // per station, jobs waiting or in service
  std::vector<double> utilisation;      // per station, busy fraction of its servers: X D / c
};

struct MvaSolution {
  std::vector<MvaPopulation> populations; // populations[n - 1] holds n jobs, n = 1..max_jobs

  // Throws std::out_of_range unless 1 <= jobs <= max_jobs.
  const MvaPopulation& at(int jobs) const;
};

// Multi-server stations solved exactly (the busiest ones by demand per server); the others take Seidmann's
// approximation, since each exact one doubles the cost.
constexpr std::size_t exact_multi_server_stations = 3;

// MVA for n = 1..max_jobs: exact with at most exact_multi_server_stations multi-server stations. Throws
// std::invalid_argument for max_jobs < 1 or an invalid network.
MvaSolution solve_mva(const ClosedNetwork& network, int max_jobs);

// Asymptotic (operational) bounds of the same network.
struct AsymptoticBounds {
  double throughput_upper_per_s = 0.0; // min(N / (D + Z), min_k c_k / D_k)
  double response_time_lower_s = 0.0;  // max(D, N max_k (D_k / c_k) - Z)
  double saturation_jobs = 0.0;        // N* = (D + Z) / max_k (D_k / c_k): where the two asymptotes cross
  std::size_t bottleneck_index = 0;    // station with the largest demand per server
  std::string bottleneck;              // its name
};

// Throws std::invalid_argument for jobs < 0, an invalid network, or no station with a positive demand.
AsymptoticBounds asymptotic_bounds(const ClosedNetwork& network, double jobs);

} // namespace sonicsim::models
