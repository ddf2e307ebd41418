#include "models/throughput_curve.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using sonicsim::models::ThroughputCurve;

TEST_CASE("The throughput curve interpolates measured points and times a batch") {
  const ThroughputCurve curve({{235, 20000}, {1693, 31250}}, 0.001);
  // At a measured point: 1693 / 31250 = 54.18 ms, plus 1 ms overhead.
  CHECK(curve.batch_time_s(1693) == doctest::Approx(1693.0 / 31250 + 0.001));
  // Halfway in batch size -> halfway in throughput: (20000 + 31250) / 2 = 25625 at 964.
  CHECK(curve.throughput_per_s(964) == doctest::Approx(25625));
  // Above the last point the throughput stays flat.
  CHECK(curve.throughput_per_s(5000) == doctest::Approx(31250));
  // Below the first point a batch takes as long as the first point's batch: 235 / 20000 = 11.75 ms, so the
  // throughput at 100 is 20000 x 100 / 235 = 8,510.6 inf/s.
  CHECK(curve.batch_time_s(100) == doctest::Approx(235.0 / 20000 + 0.001));
  CHECK(curve.throughput_per_s(100) == doctest::Approx(20000.0 * 100 / 235));
}

TEST_CASE("A throughput curve rejects points that are not a curve") {
  CHECK_THROWS_AS(ThroughputCurve({}), std::invalid_argument);
  CHECK_THROWS_AS(ThroughputCurve({{1, 2}, {1, 3}}), std::invalid_argument); // batch repeats
  CHECK_THROWS_AS(ThroughputCurve({{2, 2}, {1, 3}}), std::invalid_argument); // not increasing
  CHECK_THROWS_AS(ThroughputCurve({{1, 2}, {2, 0}}), std::invalid_argument); // zero throughput
  CHECK_THROWS_AS(ThroughputCurve({{1, 2}}, -1.0), std::invalid_argument);   // negative overhead
}
