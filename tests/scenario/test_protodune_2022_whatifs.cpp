// 2022 what-ifs not covered by the cap sweep: local GPUs on the worker nodes and bursty background traffic.
#include "simulate.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using sonicsim::testing::simulate;

namespace {
// 400 running jobs (below the ~610 limit, so the switch is not the constraint), 2 h measured after 30 min.
std::vector<std::string> steady_400(std::vector<std::string> extra) {
  std::vector<std::string> set{"workload.campaign.max_concurrent=[{from: 0s, jobs: 400}]",
                               "workload.campaign.slots=[{from: 0s, fraction: 1.0}]",
                               "workload.campaign.window=150min", "workload.campaign.warmup=30min"};
  set.insert(set.end(), extra.begin(), extra.end());
  return set;
}
} // namespace

TEST_CASE("2022 what-if: half the nodes with a local GPU halve the outbound traffic per job") {
  const auto remote = simulate("protodune_2022_campaign.yaml", steady_400({}));
  const auto half_local =
      simulate("protodune_2022_campaign.yaml", steady_400({"platform.local_gpu_fraction=0.5"}));
  REQUIRE(remote.campaign);
  REQUIRE(half_local.campaign);
  const double remote_gbps_per_job = remote.campaign->mean_outbound_gbps / remote.campaign->mean_running_jobs;
  const double local_gbps_per_job =
      half_local.campaign->mean_outbound_gbps / half_local.campaign->mean_running_jobs;
  MESSAGE("outbound per job: all remote " << remote_gbps_per_job << " Gb/s, half local "
                                          << local_gbps_per_job);
  // Jobs with a local GPU send nothing; their events are also a little faster (no transfer), so their share
  // of event completions is slightly above half: the traffic per running job falls to about half (0.4-0.6).
  CHECK(local_gbps_per_job / remote_gbps_per_job == doctest::Approx(0.5).epsilon(0.2));
}

TEST_CASE("2022 what-if: an on/off background adds rate x on/(on+off) to the outbound traffic") {
  const auto quiet = simulate("protodune_2022_campaign.yaml", steady_400({}));
  // Bursts of 20 Gb/s, on 1 min and off 1 min on average: +10 Gb/s on average over the 2 h window.
  const auto bursty =
      simulate("protodune_2022_campaign.yaml",
               steady_400({"platform.site_switch.background_on_off={rate: 20Gbps, mean_on: 1min, "
                           "mean_off: 1min}"}));
  REQUIRE(quiet.campaign);
  REQUIRE(bursty.campaign);
  const double added_gbps = bursty.campaign->mean_outbound_gbps - quiet.campaign->mean_outbound_gbps;
  MESSAGE("on/off background adds " << added_gbps << " Gb/s");
  // Expected +10 Gb/s. Over 2 h there are ~60 on/off cycles of exponential lengths, so the realised
  // on-fraction has a standard deviation of ~0.5 / sqrt(60) = 0.065 (+/-1.3 Gb/s): the check allows 10 +/- 3
  // Gb/s (2.3 sd).

  CHECK(added_gbps == doctest::Approx(10.0).epsilon(0.3));
}
