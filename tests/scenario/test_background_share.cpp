// Background traffic is served first: other users take their rate, and the jobs share what is left of the
// site switch. That is the premise of the network-limit formula (switch - background) / traffic per job,
// which `sonicsim analytic` and the MVA use, so the simulation must agree with it when the switch saturates.
#include "simulate.hpp"

#include <doctest/doctest.h>

#include <string>

using sonicsim::testing::simulate;

TEST_CASE("a saturated switch: 8 Gb/s of background keep their rate, 300 jobs share the other 4 Gb/s") {
  // The 2020 large-batch jobs need ~10 Gb/s at 300 jobs, so the 12 Gb/s switch is their bottleneck.
  const auto summary =
      simulate("protodune_2020_large_batch.yaml",
               {"workload.jobs=300", "workload.events_per_job=4", "output.precision=off",
                "platform.site_switch.bandwidth=12Gbps", "platform.site_switch.background=8Gbps"});
  REQUIRE(summary.events_completed > 0);
  CHECK(summary.bottleneck.sentence() == "site_switch_out");
  // 4 Gb/s of 9,216-byte inputs (plus the 16-byte outputs on the other direction) is 54,250 inferences/s.
  // 1 %: the switch is saturated for the whole window (utilisation > 99 %), so only the window's edges,
  // where flows straddle it, move the rate.
  const double job_share_bps = 12e9 - 8e9;
  CHECK(summary.inferences_per_s == doctest::Approx(job_share_bps / (9216 * 8)).epsilon(0.01));
  // The switch is full, so the background got the other 8 Gb/s: before background was served first, the jobs'
  // 6 ms flows outweighed it 166:1 and took ~7 Gb/s, against the 4 Gb/s the network-limit formula leaves.
  REQUIRE(!summary.links.empty());
  CHECK(summary.links.front().name == "site_switch_out");
  CHECK(summary.links.front().utilisation > 0.99);
}
