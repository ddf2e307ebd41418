// Time windows of a campaign (sim/analysis/campaign_windows.hpp): how the measured span is cut, and how the
// windows' figures add up to the whole.
#include "sim/analysis/campaign_windows.hpp"
#include "sim/random/replication_seed.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

using sonicsim::analysis::merge_campaign_windows;
using sonicsim::analysis::split_campaign;

TEST_CASE("campaign windows: the 2022 config's 4 h after a 1 h warm-up in 4 windows of 1 h") {
  const auto scenario = sonicsim::load_scenario_file(std::string(SONICSIM_SOURCE_DIR) +
                                                     "/configs/protodune_2022_campaign.yaml");
  const auto windows = split_campaign(scenario, 4);
  REQUIRE(windows.size() == 4);
  for (int k = 0; k < 4; ++k) {
    const auto& w = windows[static_cast<std::size_t>(k)];
    const auto& c = *w.scenario.workload.campaign;
    // Window k measures [1 h + k h, 2 h + k h) and starts empty one warm-up (1 h) earlier: k h.
    CHECK(w.measured_from_s == doctest::Approx(3600.0 * (1 + k)));
    CHECK(w.measured_s == doctest::Approx(3600.0));
    CHECK(c.start_s == doctest::Approx(3600.0 * k));
    CHECK(*c.window_s == doctest::Approx(7200.0));
    CHECK(c.warmup_s == doctest::Approx(3600.0));
    // Its own seed (window 0 the scenario's), one grid for all, and events crossing its end finished but for
    // the last window, which ends where the whole run would.
    CHECK(w.scenario.seed == sonicsim::replication_seed(scenario.seed, k));
    CHECK(*c.schedule_seed == scenario.seed);
    CHECK(c.finish_events == (k < 3));
    CHECK_FALSE(c.total_events);
  }
  CHECK(windows[0].scenario.seed == scenario.seed);
  // Not a campaign with a window: an error, not a silent single run.
  CHECK_THROWS_AS(split_campaign(sonicsim::load_default_scenario({}), 2), std::invalid_argument);
}

TEST_CASE("campaign windows: merged figures are the whole span's") {
  sonicsim::CampaignSummary a, b;
  a.scale = b.scale = 0.1;
  a.histogram_bin_s = b.histogram_bin_s = 1.0;
  a.mean_running_jobs = 400.0;
  b.mean_running_jobs = 1000.0;
  a.mean_outbound_gbps = 60.0;
  b.mean_outbound_gbps = 100.0;
  a.events_completed_full_scale = 1000.0;
  b.events_completed_full_scale = 3000.0;
  a.event_time_counts = {0, 5, 10};
  b.event_time_counts = {0, 1, 2, 3, 4};
  a.fit_jobs = {400, 410, 420};
  a.fit_gbps = {64, 65.6, 67.2}; // 0.16 Gb/s per job, no background
  b.fit_jobs = {300};
  b.fit_gbps = {48};
  // Window a measured 1 h, b 3 h: means weighted by time, (400 x 1 + 1000 x 3) / 4 = 850 jobs.
  const auto merged = merge_campaign_windows({a, b}, {3600.0, 10800.0});
  CHECK(merged.mean_running_jobs == doctest::Approx(850.0));
  CHECK(merged.mean_outbound_gbps == doctest::Approx(90.0));
  CHECK(merged.events_completed_full_scale == doctest::Approx(4000.0));
  CHECK(merged.event_time_counts == std::vector<double>{0, 6, 12, 3, 4});
  // The four pooled intervals lie on one line: 0.16 Gb/s per job through 0.
  REQUIRE(merged.fit_valid);
  CHECK(merged.fit_intervals == 4);
  CHECK(merged.slope_gbps_per_job == doctest::Approx(0.16));
  CHECK(merged.intercept_gbps == doctest::Approx(0.0).epsilon(1e-9));
  CHECK_THROWS_AS(merge_campaign_windows({a, b}, {3600.0}), std::invalid_argument);
}
