#include "models/student_t.hpp"
#include "sim/metrics/batch_means.hpp"
#include "sim/metrics/run_precision.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace sonicsim;

namespace {

// A figure whose rate over time is rate(t): numerator = its integral (midpoint rule on 1 ms steps),
// denominator = seconds.
WindowRatio rate_series(const std::string& name, double (*rate)(double)) {
  return {name, [rate](double start_s, double end_s) {
            double sum = 0.0;
            for (double t = start_s + 0.0005; t < end_s; t += 0.001)
              sum += rate(t) * 0.001;
            return std::pair{sum, end_s - start_s};
          }};
}

// A run's precision as the rule sees it after `events_per_job` events per job, its intervals from 32 batches
// (8 with fewer than 20 events per job): the target 2 %, the figures given.
RunPrecision precision_of(int events_per_job, std::vector<BatchMeansFigure> figures) {
  RunPrecision precision;
  precision.target_relative = 0.02;
  precision.events_per_job = precision.events_per_job_written = events_per_job;
  precision.intervals.batches = events_per_job >= 20 ? 32 : 8;
  precision.intervals.figures = std::move(figures);
  return precision;
}

} // namespace

TEST_CASE("batch means: a constant rate has no uncertainty") {
  const auto result = batch_means({rate_series("events_per_s", [](double) { return 5.0; })}, 0.0, 64.0, 1.0);
  REQUIRE(result.problem.empty());
  CHECK(result.batches == 32);
  CHECK(result.batch_s == doctest::Approx(2.0));
  REQUIRE(result.figures.size() == 1);
  CHECK(result.figures[0].mean == doctest::Approx(5.0).epsilon(1e-6));
  CHECK(result.figures[0].relative == doctest::Approx(0.0).epsilon(1e-6));
}

TEST_CASE("batch means: alternating batches give the Student t interval of their values") {
  // A window of 32 s recorded at 1 s resolution: 16 batches of 2 s (each spans two bins). The rate
  // alternates 1, 3, 1, 3 ... by batch: mean 2, sample sd sqrt(16 / 15), lag-1 autocorrelation negative (not
  // merged). Half-width t(15) x sd / sqrt(16).
  const auto result = batch_means(
      {rate_series("events_per_s", [](double t) { return static_cast<int>(t / 2.0) % 2 == 0 ? 1.0 : 3.0; })},
      0.0, 32.0, 1.0);
  REQUIRE(result.problem.empty());
  CHECK(result.batches == 16);
  REQUIRE(result.figures.size() == 1);
  const double expected = models::student_t_975(15) * std::sqrt(16.0 / 15.0) / 4.0; // 0.5502
  CHECK(result.figures[0].mean == doctest::Approx(2.0).epsilon(1e-6));
  CHECK(result.figures[0].half_width == doctest::Approx(expected).epsilon(1e-4));
  CHECK(result.figures[0].relative == doctest::Approx(expected / 2.0).epsilon(1e-4));
  CHECK(result.figures[0].lag1 < 0.0);
}

TEST_CASE("batch means: a slow drift merges batches, then widens the interval for what correlation is left") {
  // Rate 1 in the first half of the window, 3 in the second: batches stay correlated down to 8 of them
  // (lag-1 r = 0.625 there: values 1,1,1,1,3,3,3,3), and the interval is widened by sqrt((1 + r) / (1 - r)).
  const auto result = batch_means(
      {rate_series("events_per_s", [](double t) { return t < 32.0 ? 1.0 : 3.0; })}, 0.0, 64.0, 1.0);
  REQUIRE(result.problem.empty());
  CHECK(result.batches == 8);
  REQUIRE(result.figures.size() == 1);
  const double r = 0.625;
  CHECK(result.figures[0].lag1 == doctest::Approx(r).epsilon(1e-3));
  const double plain = models::student_t_975(7) * std::sqrt(8.0 / 7.0) / std::sqrt(8.0);
  CHECK(result.figures[0].half_width == doctest::Approx(plain * std::sqrt((1 + r) / (1 - r))).epsilon(1e-3));
}

TEST_CASE("batch means: a window too short to cut into 8 batches has no interval, and says why") {
  const auto result = batch_means({rate_series("events_per_s", [](double) { return 1.0; })}, 0.0, 10.0, 1.0);
  CHECK(result.batches == 0);
  CHECK(result.figures.empty());
  CHECK(result.problem.find("too short to cut into 8 batches") != std::string::npos);
}

TEST_CASE("precision rule: met, extended towards the target, or stopped at the limit") {
  RunPrecision precision =
      precision_of(20, {{"events_per_s", 10.0, 0.1, 0.01, 0.0}, {"event_mean_s", 1.0, 0.05, 0.05, 0.0}});
  judge_precision(precision);
  CHECK_FALSE(precision.met);
  CHECK(precision.shortfall() == "event_mean_s +-5.0 % (target 2.0 %)");
  // 5 % against 2 %: the window must grow (5 / 2)^2 = 6.25 times, 7.5 with 20 % to spare: 150 events; a
  // check extends at most twice, so the ladder of half-octaves from 20 (28, 40, 56, 80, 113, 160) gives 40,
  // and the next check (the run going on) looks again: from 40 at the same width, 80.
  CHECK(next_events_per_job(precision, 16.0) == 40);
  precision.events_per_job = 40;
  CHECK(next_events_per_job(precision, 16.0) == 80);
  precision.events_per_job = 20;
  // Never beyond max_extension x the written length.
  CHECK(next_events_per_job(precision, 1.5) == 30);
  precision.events_per_job = 30;
  CHECK_FALSE(next_events_per_job(precision, 1.5));
  precision.events_per_job = 20;
  // Just above the target: 1.2 x 1.05^2 = 1.32 times, 26.5 events: the next rung, 28 (20 x sqrt 2, down).
  precision.intervals.figures[1].relative = 0.021;
  CHECK(next_events_per_job(precision, 16.0) == 28);
  // From a rung, the next is the ladder's, not 1.41 x the current length rounded again: 28 -> 40, not 39.
  precision.events_per_job = 28;
  CHECK(next_events_per_job(precision, 16.0) == 40);
  precision.events_per_job = 20;
  precision.intervals.figures[1].relative = 0.05;
  // A window with no interval at all: the most a check extends, twice.
  precision.intervals.problem = "too short";
  CHECK(next_events_per_job(precision, 16.0) == 40);
  // Met, or the rule off, or a campaign: no extension.
  precision.intervals.problem.clear();
  precision.intervals.figures[1].relative = 0.01;
  judge_precision(precision);
  CHECK(precision.met);
  CHECK_FALSE(next_events_per_job(precision, 16.0));
  precision.target_relative = 0.0;
  judge_precision(precision);
  CHECK_FALSE(precision.too_short());
}

TEST_CASE(
    "precision rule: the window opens after the ramp, so a longer run widens it by more than its factor") {
  // Large-scale CMS at 24 events per job: the last job warmed up at 4 s, the first ran out at 5 s.
  RunPrecision precision =
      precision_of(24, {{"events_per_s", 1.0e4, 300.0, 0.03, 0.0}, {"event_mean_s", 1.0, 0.01, 0.01, 0.0}});
  precision.window_start_s = 4.0;
  precision.window_end_s = 5.0;
  judge_precision(precision);
  REQUIRE_FALSE(precision.met);
  // 3 % against 2 %: the window must grow 1.2 x (3 / 2)^2 = 2.7 times, to 2.7 s, which the first job's
  // running out at 6.7 s gives: 6.7 / 5 = 1.34 times the events, 32.2: the first rung, 33 (24 x sqrt 2,
  // down). The window left out, as before: 2.7 times, 64.8 events, at most twice: 48.
  CHECK(next_events_per_job(precision, 16.0) == 33);
  precision.window_start_s = precision.window_end_s = 0.0;
  CHECK(next_events_per_job(precision, 16.0) == 48);
  // A window that opens at the start (no ramp): the events grow as the window must, here at most twice.
  precision.window_end_s = 5.0;
  CHECK(next_events_per_job(precision, 16.0) == 48);
  // 4 % against 2 %: the window 4.8 times (4.8 s), the first job out at 8.8 s: 1.76 times, 42.2 events:
  // the rung after 33, 48.
  precision.window_start_s = 4.0;
  precision.intervals.figures[0].relative = 0.04;
  CHECK(next_events_per_job(precision, 16.0) == 48);
  // 2.4 % against 2 %: 1.73 times (1.73 s), out at 5.73 s: 1.15 times, 27.5 events: the first rung, 33.
  precision.intervals.figures[0].relative = 0.024;
  CHECK(next_events_per_job(precision, 16.0) == 33);
  // No steady window yet (the first job ran out before the last warmed up): twice, then a new check.
  precision.window_start_s = 6.0;
  precision.intervals.problem = "no steady-state window";
  CHECK(next_events_per_job(precision, 16.0) == 48);
}

TEST_CASE("precision rule: a figure wholly beyond a bound of output.stop_beyond stops the run short of it") {
  // A saturated candidate of a plan: module time 18 +- 2 s (11 %) where the target fails above 12 s.
  RunPrecision precision =
      precision_of(6, {{"events_per_s", 10.0, 0.1, 0.01, 0.0}, {"module_mean_s", 18.0, 2.0, 0.11, 0.0}});
  judge_precision(precision);
  REQUIRE_FALSE(precision.met);
  std::map<std::string, FigureBounds> bounds;
  bounds["module_mean_s"].above = 12.0;
  CHECK(beyond_bounds(precision, bounds) == "module_mean_s 18.00 +- 2.0, above 12.00");
  // Its interval 16-20 s straddles a bound of 17 s: not decided, the rule goes on.
  bounds["module_mean_s"].above = 17.0;
  CHECK(beyond_bounds(precision, bounds).empty());
  // A rate below its floor: 9.9-10.1 events/s against at least 12.
  bounds["events_per_s"].below = 12.0;
  CHECK(beyond_bounds(precision, bounds) == "events_per_s 10.00 +- 0.10, below 12.00");
  // No interval, no decision; a figure the run does not measure, none either.
  precision.intervals.problem = "too short";
  CHECK(beyond_bounds(precision, bounds).empty());
  precision.intervals.problem.clear();
  CHECK(beyond_bounds(precision, {{"gpu_utilisation", FigureBounds{0.5, std::nullopt}}}).empty());
  // A run stopped so is not "too short": its figures are evidence of what the bound asked.
  CHECK(precision.too_short());
  precision.stopped_beyond = beyond_bounds(precision, bounds);
  CHECK_FALSE(precision.too_short());
}

TEST_CASE("precision rule: output.precision_figures holds only the figures named, or every one measured") {
  // A saturated run: its rate known to 1 %, its served module's time to 8 %.
  RunPrecision precision =
      precision_of(20, {{"events_per_s", 10.0, 0.1, 0.01, 0.0}, {"module_mean_s", 18.0, 1.44, 0.08, 0.0}});
  judge_precision(precision);
  CHECK_FALSE(precision.met); // all four held (none named): the module's 8 % extends the run
  CHECK(next_events_per_job(precision, 16.0) == 40); // (8 / 2)^2 x 1.2 = 19.2: at most 2 x a check
  // A case that reads the rate: met at once, nothing to extend.
  precision.held = {"events_per_s"};
  judge_precision(precision);
  CHECK(precision.met);
  CHECK_FALSE(next_events_per_job(precision, 16.0));
  // The module's time held: the shortfall names it, and the extension follows its width alone.
  precision.held = {"module_mean_s"};
  judge_precision(precision);
  CHECK_FALSE(precision.met);
  CHECK(precision.shortfall() == "module_mean_s +-8.0 % (target 2.0 %)");
  // A figure the run does not measure (no GPU here): the rule falls back on every figure it measures.
  precision.held = {"gpu_utilisation"};
  judge_precision(precision);
  CHECK_FALSE(precision.met);
  CHECK(precision.ruled().size() == 2);
  precision.intervals.figures[1].relative = 0.015;
  judge_precision(precision);
  CHECK(precision.met);
}

TEST_CASE("precision rule: a run held on its rate alone past a group's saturation point warns that a queue "
          "may still be filling") {
  // Held on events/s and met, the served module's time (not held) at 3 %, one group past its saturation point
  // (a request waits 10 of its batches): the shape of the large-scale CMS run at the AK8 taggers' low end,
  // whose rate read 2.3 % high at 33 events where its interval said +-1.9 % (docs/model.md).
  RunSummary summary;
  summary.precision =
      precision_of(20, {{"events_per_s", 10.0, 0.19, 0.019, 0.0}, {"module_mean_s", 0.1, 0.003, 0.03, 0.0}});
  summary.precision.held = {"events_per_s"};
  judge_precision(summary.precision);
  REQUIRE(summary.precision.met);
  ServerGroupUsage group;
  group.name = "pn_ak8_t4";
  group.mean_batch_s = 0.002;
  group.mean_queue_wait_s = 0.020;
  summary.group_usage = {group};
  const std::string warning = queue_still_filling(summary);
  CHECK(
      warning.find("held on events_per_s (output.precision_figures) while server group pn_ak8_t4 is past its "
                   "saturation point") == 0);
  CHECK(warning.find("not held, is +-3.0 % (target 2.0 %)") != std::string::npos);
  // Each condition alone lifts it: the group below its saturation point (a request waits one batch)...
  summary.group_usage[0].mean_queue_wait_s = 0.002;
  CHECK(queue_still_filling(summary).empty());
  summary.group_usage[0].mean_queue_wait_s = 0.020;
  // ... the module's time within the target (the queue then settled as far as the rule can see) ...
  summary.precision.intervals.figures[1].relative = 0.015;
  CHECK(queue_still_filling(summary).empty());
  summary.precision.intervals.figures[1].relative = 0.03;
  // ... the module's time among the figures held (a run so holds the queue itself) ...
  summary.precision.held = {"events_per_s", "module_mean_s"};
  CHECK(queue_still_filling(summary).empty());
  summary.precision.held = {"events_per_s"};
  // ... every figure held (the default): the module's time was then held to the target itself ...
  summary.precision.held.clear();
  judge_precision(summary.precision);
  CHECK_FALSE(summary.precision.met);
  CHECK(queue_still_filling(summary).empty());
  // ... and a run that did not meet its figures, which says so in its own warning.
  summary.precision.held = {"events_per_s"};
  summary.precision.intervals.figures[0].relative = 0.03;
  judge_precision(summary.precision);
  CHECK_FALSE(summary.precision.met);
  CHECK(queue_still_filling(summary).empty());
}
