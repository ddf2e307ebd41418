// The pure parts of `sonicsim plan`: the pod layout rule and the batched boundary search.
#include <doctest/doctest.h>

#include "sim/planning/boundary_search.hpp"
#include "sim/planning/pod_layout.hpp"
#include "sim/planning/run_figures.hpp"

#include <cstdlib>

using namespace sonicsim;
using namespace sonicsim::planning;

TEST_CASE("layouts: one pod up to the per-pod maximum, then equal pods with the fewest pods") {
  std::vector<int> gpus;
  for (const auto& layout : candidate_layouts(1, 8, 24))
    gpus.push_back(layout.gpus());
  CHECK(gpus == std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 18, 21, 24});
  std::vector<int> three_pods;
  for (const auto& layout : candidate_layouts(3, 8, 30)) {
    CHECK(layout.pods >= 3);
    three_pods.push_back(layout.gpus());
  }
  CHECK(three_pods == std::vector<int>{3, 6, 9, 12, 15, 18, 21, 24, 28});
  CHECK(layout_for_gpus(15, 1, 8)->pods == 3);
  CHECK(layout_for_gpus(15, 1, 8)->gpus_per_pod == 5);
  CHECK(layout_for_gpus(4, 1, 8)->pods == 1);
  CHECK_FALSE(layout_for_gpus(2, 3, 8));
}

TEST_CASE("boundary search: finds the first true from a start on either side, in batches") {
  for (const int answer : {0, 3, 7, 19}) {
    for (const int start : {0, 5, 12, 20}) {
      int calls = 0;
      const auto search = find_first_true(0, 20, start, 2, [&](const std::vector<int>& indices) {
        ++calls;
        std::vector<bool> out;
        for (const int i : indices)
          out.push_back(i >= answer);
        return out;
      });
      REQUIRE(search.first_true);
      CHECK(*search.first_true == answer);
      CHECK(search.batches == calls);
      if (std::abs(start - answer) <= 5) CHECK(search.evaluated.size() <= 9); // not a blind sweep
    }
  }
  const auto never = find_first_true(
      0, 9, 4, 3, [](const std::vector<int>& indices) { return std::vector<bool>(indices.size(), false); });
  CHECK_FALSE(never.first_true);
  CHECK(never.evaluated.size() == 7); // 3..9: false at 3 means false below
}

TEST_CASE("cost per event: devices x price per hour over events per hour; no prices, no cost") {
  Scenario s;
  CHECK(missing_prices(s) == std::vector<std::string>{"costs.gpu_hour", "costs.cpu_hour"});
  CHECK_FALSE(cost_per_event(s, 4, 270, 2.0));
  s.costs = Costs{0.36, 0.036};
  const auto cost = cost_per_event(s, 4, 270, 2.0);
  REQUIRE(cost);
  CHECK(cost->gpu_hours == doctest::Approx(4.0 / 7200.0));
  CHECK(cost->usd == doctest::Approx((4 * 0.36 + 270 * 0.036) / 7200.0));
}
