// bench's arithmetic (sim/metrics/bench_figures.hpp): the exponent a campaign's cost grows with, the peer's
// printed rate, and CPU seconds of an rusage.
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

TEST_CASE("bench: CPU seconds are user plus system, microseconds included") {
  rusage usage{};
  usage.ru_utime.tv_sec = 2;
  usage.ru_utime.tv_usec = 500000;
  usage.ru_stime.tv_sec = 1;
  usage.ru_stime.tv_usec = 250000;
  CHECK(cpu_seconds(usage) == doctest::Approx(3.75));
}
