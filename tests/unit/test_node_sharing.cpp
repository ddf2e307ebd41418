// The speed of a job thread on a shared client node (sim/policy/node_sharing.hpp), on hand-computed cases.
#include "sim/policy/node_sharing.hpp"

#include <doctest/doctest.h>

using sonicsim::ClientNode;
using sonicsim::thread_speed_factor;

TEST_CASE("threads on a node's physical cores: hardware threads share a core, inference slows them all") {
  // Off (no physical_cores): every thread at its CPU speed, whatever runs.
  CHECK(thread_speed_factor(ClientNode{}, 64, 64) == 1.0);
  // A 32-vCPU cloud VM: 16 physical cores of 2 hardware threads, a second thread adding 25 % to its core.
  const ClientNode vm{16, 2, 0.25, 0.0};
  CHECK(thread_speed_factor(vm, 1, 0) == 1.0);
  CHECK(thread_speed_factor(vm, 16, 0) == 1.0);                          // one thread per core
  CHECK(thread_speed_factor(vm, 24, 0) == doctest::Approx(18.0 / 24.0)); // 16 + 0.25 x 8 over 24
  CHECK(thread_speed_factor(vm, 32, 0) == doctest::Approx(20.0 / 32.0)); // 16 x 1.25 over 32: 0.625
  CHECK(thread_speed_factor(vm, 40, 0) == doctest::Approx(20.0 / 40.0)); // beyond 32: time-sliced
  // No hyper-threading (the CPU-fallback parity node): 20 cores, 24 busy threads time-slice them.
  const ClientNode purdue{20, 1, 0.0, 0.5};
  CHECK(thread_speed_factor(purdue, 20, 0) == 1.0);
  CHECK(thread_speed_factor(purdue, 24, 0) == doctest::Approx(20.0 / 24.0));
  // Inference contention 0.5: 4 inference threads on 20 cores slow every thread by 1 + 0.5 x 4 / 20 = 1.1.
  CHECK(thread_speed_factor(purdue, 10, 4) == doctest::Approx(1.0 / 1.1));
  // Both at once: 24 threads of which 4 infer.
  CHECK(thread_speed_factor(purdue, 24, 4) == doctest::Approx(20.0 / 24.0 / 1.1));
}
