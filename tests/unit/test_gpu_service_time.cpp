#include "sim/batching/gpu_service_time.hpp"

#include <doctest/doctest.h>

TEST_CASE("GPU service time interpolates the throughput curve") {
  sonicsim::ThroughputCurve curve;
  curve.points = {{235, 20000}, {1693, 31250}};
  curve.overhead_s = 0.001;
  // At a measured point: 1693 / 31250 = 54.18 ms, plus 1 ms overhead.
  CHECK(sonicsim::batch_service_time_s(curve, 1693) == doctest::Approx(1693.0 / 31250 + 0.001));
  // Halfway in batch size -> halfway in throughput: (20000 + 31250) / 2 = 25625 at 964.
  CHECK(sonicsim::interpolated_throughput_per_s(curve, 964) == doctest::Approx(25625));
  // Above the last point the throughput stays flat.
  CHECK(sonicsim::interpolated_throughput_per_s(curve, 5000) == doctest::Approx(31250));
  // Below the first point a batch takes as long as the first point's batch: 235 / 20000 = 11.75 ms.
  CHECK(sonicsim::batch_service_time_s(curve, 100) == doctest::Approx(235.0 / 20000 + 0.001));
}
