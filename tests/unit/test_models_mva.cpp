// Exact MVA against closed forms computed independently in the test (finite-source birth-death chains and
// product-form normalising constants), all in logarithms so that thousands of jobs do not overflow.
#include "models/mean_value_analysis.hpp"
#include "models/sonic_latency_model.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

using namespace sonicsim::models;

namespace {

double log_sum_exp(const std::vector<double>& v) {
  const double m = *std::max_element(v.begin(), v.end());
  double s = 0.0;
  for (double x : v)
    s += std::exp(x - m);
  return m + std::log(s);
}

// Finite-source M/M/c//N: N jobs, think time Z each, one station with c servers of mean time D. State j =
// jobs at the station, birth rate (N - j)/Z, death rate min(j, c)/D; returns {throughput, mean jobs at
// station}.
struct ChainResult {
  double throughput_per_s, queue_length;
};
ChainResult finite_source_chain(int jobs, double z_s, double d_s, int c) {
  std::vector<double> log_pi(static_cast<std::size_t>(jobs) + 1, 0.0);
  for (int j = 1; j <= jobs; ++j)
    log_pi[static_cast<std::size_t>(j)] = log_pi[static_cast<std::size_t>(j - 1)] +
                                          std::log((jobs - j + 1) / z_s) - std::log(std::min(j, c) / d_s);
  const double log_norm = log_sum_exp(log_pi);
  ChainResult r{0.0, 0.0};
  for (int j = 0; j <= jobs; ++j) {
    const double pi = std::exp(log_pi[static_cast<std::size_t>(j)] - log_norm);
    r.throughput_per_s += pi * std::min(j, c) / d_s;
    r.queue_length += pi * j;
  }
  return r;
}

// Product form: log G(n), n = 0..max_jobs, by convolving the stations' factors f(j) (delay: Z^j / j!,
// c servers: D^j / prod_{i<=j} min(i, c)). X(n) = G(n-1) / G(n).
std::vector<double> log_normalising_constants(const ClosedNetwork& net, int max_jobs) {
  const auto size = static_cast<std::size_t>(max_jobs) + 1;
  auto log_factors = [&](double d_s, int c) {
    std::vector<double> f(size, 0.0);
    for (std::size_t j = 1; j < size; ++j)
      f[j] = f[j - 1] + std::log(d_s) - std::log(std::min(static_cast<double>(j), static_cast<double>(c)));
    return f;
  };
  const int infinite = std::numeric_limits<int>::max();
  std::vector<double> g = log_factors(net.think_time_s, infinite);
  for (const auto& st : net.stations) {
    const std::vector<double> f = log_factors(st.demand_s, st.servers);
    std::vector<double> next(size);
    for (std::size_t n = 0; n < size; ++n) {
      std::vector<double> terms;
      for (std::size_t j = 0; j <= n; ++j)
        terms.push_back(f[j] + g[n - j]);
      next[n] = log_sum_exp(terms);
    }
    g = next;
  }
  return g;
}

void check_little_and_bounds(const ClosedNetwork& net, const MvaSolution& sol) {
  for (const auto& p : sol.populations) {
    // Little's law on the whole cycle: jobs = X (R + Z).
    double jobs = p.throughput_per_s * net.think_time_s;
    for (double q : p.queue_length)
      jobs += q;
    CHECK(jobs == doctest::Approx(p.jobs).epsilon(1e-9));
    const AsymptoticBounds b = asymptotic_bounds(net, p.jobs);
    CHECK(p.throughput_per_s <= b.throughput_upper_per_s * (1.0 + 1e-12));
    CHECK(p.response_time_s >= b.response_time_lower_s * (1.0 - 1e-12));
    for (double u : p.utilisation)
      CHECK(u <= 1.0 + 1e-12);
  }
}

} // namespace

TEST_CASE("MVA: one job never waits, X(1) = 1 / (D + Z)") {
  ClosedNetwork net{100.0, {{"link", 2.43, 1}, {"gpu", 1.77, 4}, {"disk", 0.5, 1}}};
  const MvaSolution sol = solve_mva(net, 1);
  CHECK(sol.at(1).throughput_per_s == doctest::Approx(1.0 / (100.0 + 2.43 + 1.77 + 0.5)).epsilon(1e-14));
  CHECK(sol.at(1).response_time_s == doctest::Approx(2.43 + 1.77 + 0.5).epsilon(1e-14));
  CHECK(sol.at(1).cycle_time_s == doctest::Approx(104.7).epsilon(1e-14));
}

TEST_CASE("MVA: machine repairman (finite-source M/M/1//N) closed form") {
  // p0 = 1 / sum_j N!/(N-j)! (D/Z)^j and X = (1 - p0) / D; the chain above with c = 1 is exactly that.
  const double z_s = 20.0, d_s = 1.5;
  ClosedNetwork net{z_s, {{"server", d_s, 1}}};
  const MvaSolution sol = solve_mva(net, 1000);
  for (int n : {1, 2, 5, 10, 13, 14, 50, 100, 1000}) {
    CAPTURE(n);
    // Direct p0 from the formula, in logs: log term_j = sum_{i<j} log(N - i) + j log(D / Z).
    std::vector<double> log_terms{0.0};
    for (int j = 1; j <= n; ++j)
      log_terms.push_back(log_terms.back() + std::log(n - j + 1.0) + std::log(d_s / z_s));
    const double p0 = std::exp(-log_sum_exp(log_terms));
    CHECK(sol.at(n).throughput_per_s == doctest::Approx((1.0 - p0) / d_s).epsilon(1e-9));
    CHECK(sol.at(n).queue_length[0] ==
          doctest::Approx(finite_source_chain(n, z_s, d_s, 1).queue_length).epsilon(1e-9));
    CHECK(sol.at(n).utilisation[0] == doctest::Approx(1.0 - p0).epsilon(1e-9));
  }
  check_little_and_bounds(net, sol);
}

TEST_CASE("MVA: multi-server GPU pool equals the finite-source M/M/c//N chain") {
  // The SONIC setting: 4 GPUs, 1.77 s of GPU per event, the rest of the event (119.7 - 1.77 s) as think time.
  const double z_s = 119.7 - 1.77, d_s = 1.77;
  ClosedNetwork net{z_s, {{"gpu_pool", d_s, 4}}};
  const MvaSolution sol = solve_mva(net, 600);
  for (int n = 1; n <= 600; n += (n < 10 ? 1 : 17)) {
    CAPTURE(n);
    const ChainResult exact = finite_source_chain(n, z_s, d_s, 4);
    CHECK(sol.at(n).throughput_per_s == doctest::Approx(exact.throughput_per_s).epsilon(1e-9));
    CHECK(sol.at(n).queue_length[0] == doctest::Approx(exact.queue_length).epsilon(1e-9));
  }
  check_little_and_bounds(net, sol);
  // The asymptotes cross at N* = c (D + Z) / D = 4 x 119.7 / 1.77: the paper's knee, identical to Eq. 3.
  const auto paper = SonicLatencyModel::from_paper(330.0, 0.65, 1.77, 7.0, 2.05, 0.38, 4);
  const AsymptoticBounds b = asymptotic_bounds(net, 400);
  CHECK(b.saturation_jobs == doctest::Approx(paper.knee_jobs()).epsilon(1e-12));
  CHECK(b.bottleneck == "gpu_pool");
  // Far beyond the knee the pool is saturated: X -> 4 / 1.77 events/s and the cycle time -> Eq. 5.
  CHECK(sol.at(600).throughput_per_s == doctest::Approx(4.0 / 1.77).epsilon(1e-6));
  CHECK(sol.at(600).cycle_time_s == doctest::Approx(paper.t_saturated_s(600)).epsilon(1e-6));
}

TEST_CASE("MVA: 100 servers and 5000 jobs stay exact (no cancellation in p(0|n))") {
  // Where the textbook p(0|n) = 1 - sum(...) recursion loses every digit (errors grow like c^c / c!).
  const double z_s = 200.0, d_s = 5.0;
  ClosedNetwork net{z_s, {{"big_pool", d_s, 100}}};
  const MvaSolution sol = solve_mva(net, 5000);
  // The knee is at 100 x 205 / 5 = 4100 jobs: sample below, around and above it.
  for (int n : {1, 50, 99, 100, 101, 500, 2000, 3900, 4100, 4300, 5000}) {
    CAPTURE(n);
    const ChainResult exact = finite_source_chain(n, z_s, d_s, 100);
    CHECK(sol.at(n).throughput_per_s == doctest::Approx(exact.throughput_per_s).epsilon(1e-9));
    CHECK(sol.at(n).queue_length[0] == doctest::Approx(exact.queue_length).epsilon(1e-9));
  }
  check_little_and_bounds(net, sol);
}

TEST_CASE("MVA: link plus GPU pool, and two multi-server pools, against product-form constants") {
  const int max_jobs = 400;
  for (const ClosedNetwork& net :
       {ClosedNetwork{117.93 - 2.43, {{"link", 2.43, 1}, {"gpu_pool", 1.77, 4}}},
        ClosedNetwork{50.0, {{"pool_a", 3.0, 3}, {"cpu", 0.4, 1}, {"pool_b", 1.5, 2}}},
        ClosedNetwork{0.0, {{"pool_a", 3.0, 3}, {"pool_b", 1.5, 2}}}}) {
    const MvaSolution sol = solve_mva(net, max_jobs);
    const std::vector<double> log_g = log_normalising_constants(net, max_jobs);
    for (int n = 1; n <= max_jobs; ++n) {
      CAPTURE(n);
      const double x = std::exp(log_g[static_cast<std::size_t>(n - 1)] - log_g[static_cast<std::size_t>(n)]);
      CHECK(sol.at(n).throughput_per_s == doctest::Approx(x).epsilon(1e-9));
    }
    check_little_and_bounds(net, sol);
  }
}

TEST_CASE("MVA: bounds and validation") {
  ClosedNetwork net{100.0, {{"link", 2.43, 1}, {"gpu_pool", 1.77, 4}}};
  const AsymptoticBounds b = asymptotic_bounds(net, 100);
  // D_link / 1 = 2.43 > D_gpu / 4 = 0.4425: the link is the bottleneck, N* = (4.2 + 100) / 2.43.
  CHECK(b.bottleneck == "link");
  CHECK(b.bottleneck_index == 0);
  CHECK(b.saturation_jobs == doctest::Approx(104.2 / 2.43).epsilon(1e-14));
  CHECK(b.throughput_upper_per_s == doctest::Approx(1.0 / 2.43).epsilon(1e-14));
  CHECK(b.response_time_lower_s == doctest::Approx(100 * 2.43 - 100.0).epsilon(1e-14));

  CHECK_THROWS_AS(solve_mva(net, 0), std::invalid_argument);
  CHECK_THROWS_AS(solve_mva(ClosedNetwork{0.0, {{"idle", 0.0, 1}}}, 5), std::invalid_argument);
  CHECK_THROWS_AS(solve_mva(ClosedNetwork{1.0, {{"bad", 1.0, 0}}}, 5), std::invalid_argument);
  CHECK_THROWS_AS(solve_mva(ClosedNetwork{-1.0, {}}, 5), std::invalid_argument);
  CHECK_THROWS_AS(asymptotic_bounds(ClosedNetwork{1.0, {}}, 5), std::invalid_argument);
  CHECK_THROWS_AS(solve_mva(net, 3).at(4), std::out_of_range);
  // A pure delay network is fine: X(n) = n / Z.
  CHECK(solve_mva(ClosedNetwork{4.0, {}}, 8).at(8).throughput_per_s == doctest::Approx(2.0).epsilon(1e-14));
}
