#include "models/mean_value_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace sonicsim::models {

namespace {

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();

bool has_positive_cycle(double think_time_s, const std::vector<QueueingStation>& stations) {
  double total = think_time_s;
  for (const auto& s : stations)
    total += s.demand_s;
  return total > 0.0;
}

// Log marginal probabilities p_k(j | n), j = 0..min(c, max_jobs) - 1, of one multi-server station.
struct MultiServerMarginals {
  std::size_t station = 0;
  // X_{-k}(n) for n = 1..max_jobs - 1 (index n - 1); empty when the network without k cannot hold a job
  // (no think time and no positive demand left), in which case G_{-k}(n) = 0 and p_k(0 | n) = 0 for n >= 1.
  std::vector<double> complement_throughput_per_s;
  std::vector<double> log_p;
};

void solve_core(double think_time_s, const std::vector<QueueingStation>& stations, int max_jobs,
                std::vector<double>& throughput_per_s, MvaSolution* details);

// The marginals each multi-server station needs, at population 0: the complement network's throughputs (the
// network without the station, one job fewer) and p(0 | 0) = 1.
std::vector<MultiServerMarginals>
multi_server_marginals(double think_time_s, const std::vector<QueueingStation>& stations, int max_jobs) {
  const std::size_t k_count = stations.size();
  std::vector<MultiServerMarginals> multi;
  for (std::size_t k = 0; k < k_count; ++k) {
    if (stations[k].servers <= 1) continue;
    MultiServerMarginals m;
    m.station = k;
    std::vector<QueueingStation> others;
    for (std::size_t i = 0; i < k_count; ++i)
      if (i != k) others.push_back(stations[i]);
    if (max_jobs > 1 && has_positive_cycle(think_time_s, others))
      solve_core(think_time_s, others, max_jobs - 1, m.complement_throughput_per_s, nullptr);
    const int kept = std::min(stations[k].servers, max_jobs); // j < c and j <= n - 1 < max_jobs
    m.log_p.assign(static_cast<std::size_t>(kept), kMinusInf);
    m.log_p[0] = 0.0; // empty network: the station is empty for sure
    multi.push_back(std::move(m));
  }
  return multi;
}

// Core recursion. Fills throughput_per_s[n - 1] for n = 1..max_jobs, and `details` when given.
void solve_core(double think_time_s, const std::vector<QueueingStation>& stations, int max_jobs,
                std::vector<double>& throughput_per_s, MvaSolution* details) {
  const std::size_t k_count = stations.size();
  throughput_per_s.assign(static_cast<std::size_t>(max_jobs), 0.0);
  std::vector<MultiServerMarginals> multi = multi_server_marginals(think_time_s, stations, max_jobs);

  std::vector<double> queue_length(k_count, 0.0);
  std::vector<double> residence_s(k_count, 0.0);
  std::vector<double> correction(k_count, 0.0); // sum_{j<c-1} (c-1-j) p_k(j | n-1), multi-server only

  if (details) details->populations.assign(static_cast<std::size_t>(max_jobs), MvaPopulation{});

  for (int n = 1; n <= max_jobs; ++n) {
    for (const auto& m : multi) {
      const int c = stations[m.station].servers;
      double sum = 0.0;
      for (std::size_t j = 0; j < m.log_p.size() && static_cast<int>(j) <= c - 2; ++j)
        sum += static_cast<double>(c - 1 - static_cast<int>(j)) * std::exp(m.log_p[j]);
      correction[m.station] = sum;
    }

    // Arrival theorem: an arriving job sees the network with n - 1 jobs.
    double response_s = 0.0;
    for (std::size_t k = 0; k < k_count; ++k) {
      const auto& st = stations[k];
      if (st.servers <= 1) {
        residence_s[k] = st.demand_s * (1.0 + queue_length[k]);
      } else {
        // Waits only when all c servers are busy; the correction removes the wait that the "j + 1 over c"
        // term charges when fewer than c - 1 jobs are present.
        residence_s[k] = st.demand_s / st.servers * (1.0 + queue_length[k] + correction[k]);
      }
      response_s += residence_s[k];
    }
    const double x = n / (think_time_s + response_s);
    throughput_per_s[static_cast<std::size_t>(n - 1)] = x;
    for (std::size_t k = 0; k < k_count; ++k)
      queue_length[k] = x * residence_s[k];

    if (details) {
      auto& pop = details->populations[static_cast<std::size_t>(n - 1)];
      pop.jobs = n;
      pop.throughput_per_s = x;
      pop.response_time_s = response_s;
      pop.cycle_time_s = think_time_s + response_s;
      pop.residence_time_s = residence_s;
      pop.queue_length = queue_length;
      pop.utilisation.resize(k_count);
      for (std::size_t k = 0; k < k_count; ++k)
        pop.utilisation[k] = x * stations[k].demand_s / std::max(1, stations[k].servers);
    }

    if (n == max_jobs) break;
    // Marginals for population n from those for n - 1:
    //   p(j | n) = D X(n) / j p(j-1 | n-1) for 1 <= j < c, and p(0 | n) = p(0 | n-1) X(n) / X_{-k}(n).
    for (auto& m : multi) {
      const double demand_s = stations[m.station].demand_s;
      const std::size_t top = std::min(m.log_p.size() - 1, static_cast<std::size_t>(n));
      for (std::size_t j = top; j >= 1; --j)
        m.log_p[j] = std::log(demand_s * x / static_cast<double>(j)) + m.log_p[j - 1];
      if (m.complement_throughput_per_s.empty())
        m.log_p[0] = kMinusInf;
      else
        m.log_p[0] += std::log(x) - std::log(m.complement_throughput_per_s[static_cast<std::size_t>(n - 1)]);
    }
  }
}

} // namespace

void ClosedNetwork::validate() const {
  if (!(think_time_s >= 0.0)) throw std::invalid_argument("closed network: think_time_s must be >= 0");
  for (const auto& s : stations) {
    if (!(s.demand_s >= 0.0))
      throw std::invalid_argument("closed network: station '" + s.name + "' demand_s must be >= 0");
    if (s.servers < 1)
      throw std::invalid_argument("closed network: station '" + s.name + "' needs at least one server");
  }
  if (!has_positive_cycle(think_time_s, stations))
    throw std::invalid_argument("closed network: think time and all demands are zero (infinite throughput)");
}

double ClosedNetwork::total_demand_s() const {
  double total = 0.0;
  for (const auto& s : stations)
    total += s.demand_s;
  return total;
}

const MvaPopulation& MvaSolution::at(int jobs) const {
  if (jobs < 1 || static_cast<std::size_t>(jobs) > populations.size())
    throw std::out_of_range("MVA solution: population " + std::to_string(jobs) + " outside 1.." +
                            std::to_string(populations.size()));
  return populations[static_cast<std::size_t>(jobs - 1)];
}

MvaSolution solve_mva(const ClosedNetwork& network, int max_jobs) {
  network.validate();
  if (max_jobs < 1) throw std::invalid_argument("solve_mva: max_jobs must be >= 1");
  // The exact multi-server solution costs 2^M solves for M multi-server stations. Beyond
  // exact_multi_server_stations, the stations with the least demand per server take Seidmann's
  // approximation instead: a single server of demand D / c plus a delay of D (c - 1) / c, exact at both ends
  // (one job; saturation) and close between. The busiest stations, which shape the knee, stay exact.
  std::vector<std::size_t> multi;
  for (std::size_t k = 0; k < network.stations.size(); ++k)
    if (network.stations[k].servers > 1) multi.push_back(k);
  std::stable_sort(multi.begin(), multi.end(), [&](std::size_t a, std::size_t b) {
    const auto& x = network.stations[a];
    const auto& y = network.stations[b];
    return x.demand_s / x.servers > y.demand_s / y.servers;
  });
  double think_time_s = network.think_time_s;
  std::vector<QueueingStation> stations = network.stations;
  for (std::size_t i = exact_multi_server_stations; i < multi.size(); ++i) {
    QueueingStation& st = stations[multi[i]];
    think_time_s += st.demand_s * (st.servers - 1) / st.servers;
    st.demand_s /= st.servers;
    st.servers = 1;
  }
  MvaSolution solution;
  std::vector<double> throughput_per_s;
  solve_core(think_time_s, stations, max_jobs, throughput_per_s, &solution);
  // Utilisation as the network has it (the approximation keeps X D / c).
  for (auto& population : solution.populations)
    for (std::size_t k = 0; k < stations.size(); ++k)
      population.utilisation[k] =
          population.throughput_per_s * network.stations[k].demand_s / network.stations[k].servers;
  return solution;
}

AsymptoticBounds asymptotic_bounds(const ClosedNetwork& network, double jobs) {
  network.validate();
  if (!(jobs >= 0.0)) throw std::invalid_argument("asymptotic_bounds: jobs must be >= 0");
  AsymptoticBounds b;
  double max_demand_per_server_s = 0.0;
  for (std::size_t k = 0; k < network.stations.size(); ++k) {
    const auto& s = network.stations[k];
    const double per_server_s = s.demand_s / s.servers;
    if (per_server_s > max_demand_per_server_s) {
      max_demand_per_server_s = per_server_s;
      b.bottleneck_index = k;
    }
  }
  if (!(max_demand_per_server_s > 0.0))
    throw std::invalid_argument("asymptotic_bounds: no queueing station with a positive demand");
  b.bottleneck = network.stations[b.bottleneck_index].name;
  const double demand_s = network.total_demand_s();
  const double z_s = network.think_time_s;
  b.throughput_upper_per_s = std::min(jobs / (demand_s + z_s), 1.0 / max_demand_per_server_s);
  b.response_time_lower_s = std::max(demand_s, jobs * max_demand_per_server_s - z_s);
  b.saturation_jobs = (demand_s + z_s) / max_demand_per_server_s;
  return b;
}

} // namespace sonicsim::models
