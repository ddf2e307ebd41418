// The analytic side of an autoscaled group (sim/analysis/pod_needs.hpp) on the shipped SuperSONIC day:
// the pod count the threshold asks for at the hold's 1,000 jobs, and the time the autoscaler takes to reach
// it, by the formula written out here.
#include "sim/analysis/pod_needs.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

using namespace sonicsim;

TEST_CASE("pod needs: the fewest pods within the threshold, and the time to get there") {
  const Scenario scenario =
      load_scenario_file(std::string(SONICSIM_SOURCE_DIR) + "/configs/supersonic_autoscaling.yaml");
  const auto needs = analysis::pod_needs(scenario, 1000);
  REQUIRE(needs.has_value());
  REQUIRE(needs->needed.has_value());
  const AutoscalerSettings& a = needs->autoscaler;
  const auto& points = needs->points;
  const int needed = *needs->needed;
  // 1,000 jobs of ~47.6 s per event and ~1.76 T4-s per event keep ~37 T4 busy: the answer lies above 30.
  CHECK(needed > 30);
  CHECK(needed < a.max_pods);
  // Within the threshold (with the tolerance) at `needed`, above it one pod fewer.
  const auto& at = points[static_cast<std::size_t>(needed - a.min_pods)];
  const auto& below = points[static_cast<std::size_t>(needed - 1 - a.min_pods)];
  CHECK(at.queue_wait_per_request_s <= a.threshold * (1 + a.tolerance));
  CHECK(below.queue_wait_per_request_s > a.threshold * (1 + a.tolerance));
  // More pods never queue longer.
  for (std::size_t i = 1; i < points.size(); ++i)
    CHECK(points[i].queue_wait_per_request_s <= points[i - 1].queue_wait_per_request_s + 1e-12);
  // From 1 pod, one pod per 30-s poll: (needed - 1) polls, the 60-s scale-up window (two polls), then the
  // 240-s start-up.
  CHECK(*needs->reach_s == doctest::Approx((needed - 1) * 30.0 + 60.0 + 240.0));
}
