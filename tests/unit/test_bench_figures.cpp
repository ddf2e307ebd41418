// bench's arithmetic (sim/metrics/bench_figures.hpp): the exponent a campaign's cost grows with, the peer's
// printed rate, a request's time against the SimGrid floor, and CPU seconds of an rusage.
#include "sim/metrics/bench_figures.hpp"

#include <doctest/doctest.h>

#include <sys/resource.h>

#include <cmath>
#include <stdexcept>

using namespace sonicsim;

TEST_CASE("bench: the exponent of cost against size through two measurements") {
  // Twice the size at 2^1.5 = 2.83 times the cost: exponent 1.5; 4x the size at 4x the cost is linear.
  CHECK(scaling_exponent(0.25, 10.0, 0.5, 10.0 * std::pow(2.0, 1.5)) == doctest::Approx(1.5).epsilon(1e-12));
  CHECK(scaling_exponent(0.25, 11.5, 1.0, 46.0) == doctest::Approx(1.0).epsilon(1e-12));
  CHECK_THROWS_AS(scaling_exponent(0.5, 1.0, 0.5, 2.0), std::invalid_argument); // one size twice
  CHECK_THROWS_AS(scaling_exponent(0.5, 0.0, 1.0, 2.0), std::invalid_argument); // no cost measured
}

TEST_CASE("bench: the peer's rate as it prints it, or none") {
  CHECK(printed_requests_per_s("jobs=400 events=5 req/s=31525.4 wall=6.3\n") == doctest::Approx(31525.4));
  CHECK_FALSE(printed_requests_per_s("Traceback (most recent call last):\n  ModuleNotFoundError: simpy\n"));
  CHECK_FALSE(printed_requests_per_s("req/s=nan"));
  CHECK_FALSE(printed_requests_per_s("req/s="));
}

TEST_CASE("bench: a request's time against the SimGrid floor and what a goal leaves for the rest") {
  // 1.0e6 requests/s is 1 us a request; a floor of 2.0e6 flows/s is 0.5 us: 0.5 us is the simulator's own.
  // 15 x a peer of 1.0e5 requests/s is 1.5e6: 0.667 us a request, 0.167 us left above the floor.
  const RequestBudget budget = request_budget(1.0e6, 2.0e6, 1.0e5, 15.0);
  CHECK(budget.floor_us == doctest::Approx(0.5));
  CHECK(budget.own_us == doctest::Approx(0.5));
  CHECK(budget.own_us_at_goal == doctest::Approx(1.0 / 1.5 - 0.5));
  CHECK(budget.floor_times_peer == doctest::Approx(20.0));
  // A floor below the goal: nothing is left, the budget is negative.
  CHECK(request_budget(1.0e6, 1.2e6, 1.0e5, 15.0).own_us_at_goal < 0.0);
  CHECK_THROWS_AS(request_budget(1.0e6, 0.0, 1.0e5, 15.0), std::invalid_argument);
}

TEST_CASE("bench: CPU seconds are user plus system, microseconds included") {
  rusage usage{};
  usage.ru_utime.tv_sec = 2;
  usage.ru_utime.tv_usec = 500000;
  usage.ru_stime.tv_sec = 1;
  usage.ru_stime.tv_usec = 250000;
  CHECK(cpu_seconds(usage) == doctest::Approx(3.75));
}
