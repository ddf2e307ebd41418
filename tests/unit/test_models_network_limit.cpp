// Site-switch limit on running jobs (the 2023 ProtoDUNE talk, "Network saturation").
#include "models/network_limit.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

using namespace sonicsim::models;

TEST_CASE("network limit: ProtoDUNE 100 Gb/s switch holds about 610 jobs") {
  // (100 Gb/s) / (4.1 Gb/event) x (25 s/event) = 609.76 jobs; the slides round to ~600 (the Oct 8 cap).
  CHECK(network_limited_jobs(100e9, 4.1e9, 25.0) == doctest::Approx(100.0 / 4.1 * 25.0).epsilon(1e-12));
  CHECK(network_limited_jobs(100e9, 4.1e9, 25.0) == doctest::Approx(609.756).epsilon(1e-5));
  // One job streams 4.1 Gb every 25 s = 164 Mb/s.
  CHECK(per_job_traffic_bps(4.1e9, 25.0) == doctest::Approx(164e6).epsilon(1e-12));
  // 10 Gb/s of other traffic leaves 90 Gb/s: 90 / 0.164 = 548.8 jobs.
  CHECK(network_limited_jobs(100e9, 4.1e9, 25.0, 10e9) == doctest::Approx(90e9 / 164e6).epsilon(1e-12));
  // At the limit the outbound traffic is exactly the switch capacity.
  const double jobs = network_limited_jobs(100e9, 4.1e9, 25.0, 10e9);
  CHECK(outbound_traffic_bps(jobs, 4.1e9, 25.0, 10e9) == doctest::Approx(100e9).epsilon(1e-12));
}

TEST_CASE("network limit rejects impossible inputs") {
  CHECK_THROWS_AS(network_limited_jobs(100e9, 4.1e9, 25.0, 100e9),
                  std::invalid_argument); // background fills it
  CHECK_THROWS_AS(network_limited_jobs(100e9, 4.1e9, 25.0, 150e9), std::invalid_argument);
  CHECK_THROWS_AS(network_limited_jobs(0.0, 4.1e9, 25.0), std::invalid_argument);
  CHECK_THROWS_AS(network_limited_jobs(100e9, 0.0, 25.0), std::invalid_argument);
  CHECK_THROWS_AS(network_limited_jobs(100e9, 4.1e9, -1.0), std::invalid_argument);
  CHECK_THROWS_AS(network_limited_jobs(100e9, 4.1e9, 25.0, -1.0), std::invalid_argument);
  CHECK_THROWS_AS(outbound_traffic_bps(-1.0, 4.1e9, 25.0), std::invalid_argument);
}

TEST_CASE("jobs_filling_link is the one formula, with its edge cases") {
  // 16 Gb/s pod NIC, jobs sending 4.06 Gb every 122 s (33.3 Mb/s each): 16e9 / 33.28e6 = 480.8 jobs.
  CHECK(jobs_filling_link(16e9, 4.06e9 / 122.0) == doctest::Approx(16e9 * 122.0 / 4.06e9).epsilon(1e-12));
  CHECK(jobs_filling_link(0.0, 1e6) == 0.0);      // nothing left for the jobs
  CHECK(jobs_filling_link(-5e9, 1e6) == 0.0);     // background above capacity
  CHECK(std::isinf(jobs_filling_link(1e9, 0.0))); // jobs that send nothing never fill it
  // network_limited_jobs is jobs_filling_link on what background leaves.
  CHECK(network_limited_jobs(100e9, 4.1e9, 25.0, 10e9) ==
        jobs_filling_link(90e9, per_job_traffic_bps(4.1e9, 25.0)));
}
