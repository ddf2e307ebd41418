#include "sim/random/random_streams.hpp"

#include <doctest/doctest.h>

#include <algorithm>

TEST_CASE("stratified assignment gives each class its share, deterministically") {
  // 64 % / 36 % of 25 nodes: 16 and 9 (largest remainder: 16.0 and 9.0 exactly).
  const auto a = sonicsim::stratified_assignment({0.64, 0.36}, 25, 7, sonicsim::stream_nic_mix);
  CHECK(std::count(a.begin(), a.end(), 0) == 16);
  CHECK(std::count(a.begin(), a.end(), 1) == 9);
  CHECK(a == sonicsim::stratified_assignment({0.64, 0.36}, 25, 7, sonicsim::stream_nic_mix));
  // 1/3 each of 10: 3.33 -> 3, 3, 3 plus one by largest remainder (ties: first class) -> 4, 3, 3.
  const auto b =
      sonicsim::stratified_assignment({1.0 / 3, 1.0 / 3, 1.0 / 3}, 10, 7, sonicsim::stream_cpu_mix);
  CHECK(std::count(b.begin(), b.end(), 0) == 4);
  CHECK(std::count(b.begin(), b.end(), 1) == 3);
}
