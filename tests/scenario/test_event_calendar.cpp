// The event calendar's own loop (sim/kernel/event_calendar.hpp) against SimGrid's engine stepping at every
// event (platform.network.event_calendar=false). Both run the same events in the same order (the calendar's
// (date, order scheduled)); the own loop only skips SimGrid's steps before its next action end, when nothing
// it computes changes but its actions' progress, which it then computes in one step where SimGrid stepping
// at every event takes several. So every event's start, end and duration in events.csv agree within 1e-6 s
// (or the file's 9 significant digits), except where flows end at the same instant: there the rounding of
// that progress may decide which is handed over first, and the runs part as two seeds would (CMS on one T4,
// whose batch replies send the next requests together). That one is checked statistically, as the fast path's
// (check_paired_event_means).
//
// The scenarios cover what the own loop hands over: flows that fill the site switch and go to SimGrid and
// back (600 ProtoDUNE jobs), simultaneous batch replies (small batch), several models and threads per job
// (CMS on one T4), pods behind a load balancer (CMS large scale), cancelled events (timeouts,
// preemption), and a campaign's scheduler (jobs coming and going, the switch saturated part of the time).
#include "events_comparison.hpp"
#include "simulate.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using sonicsim::testing::compare_events;
using sonicsim::testing::config_path;
using sonicsim::testing::read_json;
using sonicsim::testing::run_sonicsim;

namespace {

// Runs `arguments` both ways; returns the share of events the own loop ran without SimGrid.
double check_calendar(const std::string& name, const std::string& arguments) {
  CAPTURE(name);
  const fs::path base = fs::temp_directory_path() / ("sonicsim_event_calendar_" + name);
  fs::remove_all(base);
  // At the length the scenario writes: the comparison is exact, a longer run proves no more.
  const std::string common = " --set output.precision=off --quiet --out ";
  const auto own = run_sonicsim("run " + arguments + common + (base / "own").string());
  const auto simgrid = run_sonicsim("run " + arguments + " --set platform.network.event_calendar=false" +
                                    common + (base / "simgrid").string());
  INFO(own.output);
  INFO(simgrid.output);
  REQUIRE(own.exit_code == 0);
  REQUIRE(simgrid.exit_code == 0);
  const auto c = compare_events(base / "own" / "events.csv", base / "simgrid" / "events.csv");
  CAPTURE(c.worst_s);
  CHECK(c.events > 0);
  CHECK(c.unmatched == 0);
  CHECK(c.beyond == 0);
  const auto own_events =
      read_json(base / "own" / "summary.json").at("results").at("network").at("calendar_events");
  const auto simgrid_events =
      read_json(base / "simgrid" / "summary.json").at("results").at("network").at("calendar_events");
  // The same events either way; SimGrid's engine ran all of them when it drove.
  CHECK(own_events.at("all") == simgrid_events.at("all"));
  CHECK(simgrid_events.at("without_simgrid") == 0);
  return own_events.at("without_simgrid").get<double>() / own_events.at("all").get<double>();
}

} // namespace

TEST_CASE("event calendar: flows that fill the site switch go to SimGrid and back") {
  // 600 jobs of the default scenario fill the 100 Gb/s switch now and then: flows are handed to SimGrid,
  // which then drives, and the own loop takes over when its last flow ends. Most events still run without it.
  const double own_share =
      check_calendar("large_batch_600", "--set workload.jobs=600 --set workload.events_per_job=4");
  CHECK(own_share > 0.5);
}

TEST_CASE("event calendar: batches, threads and pods of the shipped scenarios") {
  // Small batches answered together send their next requests together: many events at one date, in the
  // calendar's order either way.
  CHECK(check_calendar("small_batch", config_path("protodune_2020_small_batch.yaml") +
                                          " --set workload.jobs=300 --set workload.events_per_job=2") > 0.5);
  CHECK(check_calendar("cms_large_scale", config_path("cms_miniaod_2024_large_scale.yaml") +
                                              " --set workload.jobs=300 --set workload.events_per_job=8") >
        0.5);
}

TEST_CASE("event calendar: simultaneous flow ends, statistically") {
  sonicsim::testing::check_paired_event_means("event_calendar_cms_one_t4",
                                              config_path("cms_miniaod_2024_all_models_one_t4.yaml"), " ",
                                              " --set platform.network.event_calendar=false");
}

TEST_CASE("event calendar: cancelled events (timeouts and preemption)") {
  // A timeout shorter than some replies at 600 jobs, and jobs preempted and resubmitted: the calendar cancels
  // pending timeouts and preemptions, and a cancelled event must not run in either loop.
  check_calendar("timeouts_preemption",
                 "--set workload.jobs=600 --set workload.events_per_job=4 --set workload.client.timeout=20s "
                 "--set workload.preemption.mean_time=300s");
}

TEST_CASE("event calendar: a campaign's scheduler on the calendar, with and without SimGrid driving") {
  // The 2022 campaign at a tenth of the site for an hour: jobs started every 10 s as slots come and go, the
  // switch saturated part of the time, so flows go to SimGrid's classes and back. Its scheduler is calendar
  // events (campaign_scheduler.hpp): the own loop runs most of its events without SimGrid's engine stepping.
  const double own_share = check_calendar(
      "campaign_2022", config_path("protodune_2022_campaign.yaml") +
                           " --set workload.campaign.window=1h --set workload.campaign.warmup=10min");
  CHECK(own_share > 0.5);
}
