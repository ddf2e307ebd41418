// The precision rule (sim/metrics/run_precision.hpp): a run too short for its headline figures extends
// itself, or says it could not; either way its figures agree with a long run within what it states.
#include "simulate.hpp"

#include "sim/app/run/summary_printer.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using sonicsim::RunSummary;
using sonicsim::testing::simulate;

namespace {

// CMS Mini-AOD, ParticleNet AK4 on one T4: 100 jobs of 4 threads near the device's knee (91.7 jobs per T4).
// 20 events per job with 4 of warm-up leave a steady-state window of about 2 s: the case that came out 38 %
// low on events/s before the rule.
const std::string cms = "cms_miniaod_2024_one_model_per_t4.yaml";
const std::vector<std::string> short_run{"workload.events_per_job=20", "workload.warmup_events=4"};

const sonicsim::BatchMeansFigure& figure(const RunSummary& summary, const std::string& name) {
  const auto& figures = summary.precision.intervals.figures;
  const auto it =
      std::find_if(figures.begin(), figures.end(), [&](const auto& f) { return f.figure == name; });
  REQUIRE(it != figures.end());
  return *it;
}

bool warns_too_short(const RunSummary& summary) {
  return std::any_of(summary.warnings.begin(), summary.warnings.end(), [](const std::string& w) {
    return w.find("too short for the precision asked") != std::string::npos;
  });
}

} // namespace

TEST_CASE(
    "precision: a 20-event CMS run extends itself and agrees with a 200-event run within its intervals") {
  const RunSummary extended = simulate(cms, short_run);
  const RunSummary reference = simulate(cms, {"workload.events_per_job=200", "workload.warmup_events=4"});
  const auto& precision = extended.precision;
  CHECK(precision.target_relative == 0.02);
  CHECK(precision.events_per_job_written == 20);
  // Either it reached 2 % (and ran longer to do so), or it says it could not.
  CHECK(((precision.met && precision.extensions > 0 && precision.events_per_job > 20) ||
         (!precision.met && warns_too_short(extended))));
  REQUIRE(reference.precision.met);
  // Two independent estimates of the same figure differ by less than the sum of their 95 % half-widths
  // (for figures known to 2 %, at most 4 %).
  for (const std::string name : {"events_per_s", "event_mean_s", "module_mean_s", "gpu_utilisation"}) {
    CAPTURE(name);
    const auto& a = figure(extended, name);
    const auto& b = figure(reference, name);
    CHECK(std::abs(a.mean - b.mean) <= a.half_width + b.half_width);
  }
}

TEST_CASE("precision: a run held to its length says it is too short, in its precision block and warnings") {
  std::vector<std::string> held = short_run;
  held.push_back("output.max_extension=1");
  const RunSummary summary = simulate(cms, held);
  CHECK_FALSE(summary.precision.met);
  CHECK(summary.precision.too_short());
  CHECK(summary.precision.events_per_job == 20);
  CHECK(summary.precision.extensions == 0);
  CHECK(warns_too_short(summary));
}

TEST_CASE("precision: a run whose figure is wholly beyond a bound of output.stop_beyond is not extended") {
  // The 20-event CMS run above extends itself; with a bound its event time already exceeds (a plan's target
  // on the failing side) it stops at 20 events, says which figure decided, and is neither too short nor
  // warned about.
  std::vector<std::string> bounded = short_run;
  bounded.push_back("output.stop_beyond.event_mean_s.above=0.001");
  const RunSummary summary = simulate(cms, bounded);
  CHECK_FALSE(summary.precision.met);
  CHECK(summary.precision.events_per_job == 20);
  CHECK(summary.precision.extensions == 0);
  CHECK(summary.precision.stopped_beyond.find("event_mean_s ") == 0);
  CHECK(summary.precision.stopped_beyond.find(", above 0.001") != std::string::npos);
  CHECK_FALSE(summary.precision.too_short());
  CHECK_FALSE(warns_too_short(summary));
}

TEST_CASE("precision: a run precise enough at the first check is the run it was without the rule") {
  // ProtoDUNE's large batch at 48 events per job meets 2 % at once: the same events, to the last bit.
  const RunSummary with_rule = simulate("protodune_2020_large_batch.yaml", {"workload.events_per_job=48"});
  const RunSummary without =
      simulate("protodune_2020_large_batch.yaml", {"workload.events_per_job=48", "output.precision=off"});
  REQUIRE(with_rule.precision.met);
  CHECK(with_rule.precision.extensions == 0);
  CHECK(with_rule.events_completed == without.events_completed);
  CHECK(with_rule.event.mean_s == without.event.mean_s);
  CHECK(with_rule.events_per_s == without.events_per_s);
  CHECK(with_rule.gpu_utilisation == without.gpu_utilisation);
  CHECK(without.precision.target_relative == 0.0);
  CHECK_FALSE(without.precision.too_short());
}

TEST_CASE("precision: the terminal says the rule is met, and on which figures when output.precision_figures "
          "names them") {
  const std::string file = "protodune_2020_large_batch.yaml";
  const std::vector<std::string> long_run{"workload.events_per_job=48"};
  const auto printed = [&](const std::vector<std::string>& sets) {
    std::ostringstream out;
    sonicsim::print_run_summary(out, sonicsim::load_scenario_file(sonicsim::testing::config_path(file), sets),
                                simulate(file, sets));
    return out.str();
  };
  // Met on all four figures: "within 2.0 %" and nothing about a shortfall (a misplaced else once printed
  // "NOT within the precision asked" under every met run).
  const std::string all = printed(long_run);
  CHECK(all.find(": within 2.0 %\n") != std::string::npos);
  CHECK(all.find("NOT within") == std::string::npos);
  CHECK(all.find("held on") == std::string::npos);
  std::vector<std::string> held = long_run;
  held.push_back("output.precision_figures=[events_per_s]");
  const std::string named = printed(held);
  CHECK(named.find(": within 2.0 % (held on events_per_s: output.precision_figures)\n") != std::string::npos);
  CHECK(named.find("NOT within") == std::string::npos);
}

TEST_CASE("precision: a run of multi-threaded jobs states the intervals its rule judged: the window closes "
          "where the first job runs out of events") {
  // ParticleNet AK4 at 165 jobs of 4 threads, events/s held to 0.67 % (the measured crossing's need,
  // validation/cases/cms_ak4_t4_crossing.yaml), at a seed where the rule found 0.67 % met at 96 events. When
  // the window closed at the first job's end instead, one event of its other threads later, the run's own
  // summary read +-0.84 % over that longer window and called itself too short.
  const RunSummary summary =
      simulate(cms, {"workload.jobs=165", "seed=16312908901713405192", "output.precision=0.67%",
                     "output.precision_figures=[events_per_s]"});
  CHECK(summary.precision.met);
  CHECK(summary.precision.events_per_job == 96);
  CHECK(figure(summary, "events_per_s").relative <= 0.0067);
  CHECK_FALSE(warns_too_short(summary));
  // The window's end: the first job's running out (its first thread with no event left), before that job's
  // last event ends (at 22.98 s at this seed).
  CHECK(summary.window_end_s == doctest::Approx(22.395).epsilon(1e-4));
}

TEST_CASE(
    "precision: a run held on its rate alone warns where a saturated group's queue may still be filling, "
    "and not where it has settled") {
  // The large-scale CMS run (2,500 four-thread jobs) held on events/s alone. With the AK8 taggers' T4 at
  // 0.449 of their perf_analyzer files (the low end of that unknown's range) their pool is saturated and its
  // queue still filling at the check: the run meets 2 % at 33 events, a window of about 1 s, where 4 seeds
  // read 3.959 +- 0.016 events/s per job at 48 events and 3.870 +- 0.004 at 384 (docs/model.md "Run length
  // and precision"). The served modules' time, not held, still moves with the queue, and the run says so.
  const std::string large = "cms_miniaod_2024_large_scale.yaml";
  const std::vector<std::string> rate_only{"output.precision_figures=[events_per_s]"};
  std::vector<std::string> slow_ak8 = rate_only;
  for (const char* tagger : {"particlenet_ak8_1", "particlenet_ak8_2", "particlenet_ak8_3"})
    slow_ak8.push_back(std::string("models.") + tagger + ".throughput.T4.scale=0.449");
  const auto warns_queue = [](const RunSummary& summary) {
    return std::any_of(summary.warnings.begin(), summary.warnings.end(), [](const std::string& w) {
      return w.find("its queue may still be filling") != std::string::npos;
    });
  };
  const RunSummary filling = simulate(large, slow_ak8);
  REQUIRE(filling.precision.met);
  CHECK(filling.precision.events_per_job == 33);
  CHECK(figure(filling, "module_mean_s").relative > 0.02);
  CHECK(warns_queue(filling));
  // At the adopted values DeepMET's two-GPU group is past its saturation point too, but its queue has
  // settled by the check (the module time within 2 %), and 48 events read what 384 do (4.640 +- 0.065 against
  // 4.635 +- 0.083 events/s per job over 4 seeds): no warning.
  const RunSummary settled = simulate(large, rate_only);
  REQUIRE(settled.precision.met);
  CHECK(std::any_of(settled.group_usage.begin(), settled.group_usage.end(),
                    [](const auto& group) { return group.past_saturation(); }));
  CHECK_FALSE(warns_queue(settled));
}
