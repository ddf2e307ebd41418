// The autoscaler plan's decision (sim/planning/autoscaler_plan.hpp) on figures made by hand: paired ratios of
// event times to a static reference over three replications, each verdict from the 95 % Student-t bound
// (t = 4.303 at 2 degrees of freedom), the answer the fewest device-hours among those that meet.
#include "sim/planning/autoscaler_plan.hpp"

#include <doctest/doctest.h>

#include <cmath>

using namespace sonicsim;
using namespace sonicsim::planning;

namespace {
std::vector<PooledFigures> figures(std::vector<double> events, double hours) {
  std::vector<PooledFigures> out;
  for (const double e : events)
    out.push_back({e, hours, std::nullopt}); // no prices
  return out;
}
} // namespace

TEST_CASE("autoscaler plan: verdicts from the paired ratio's bound, the answer the fewest device-hours") {
  const auto reference = figures({10, 10, 10}, 100);
  const std::vector<AutoscalerSetting> settings{
      {0.4, 1, 60, 240},  // B: 40 device-h, ratios 1.20, 1.25, 1.22: low bound above 1.05
      {0.1, 1, 60, 240},  // A: 60 device-h, ratios 1.02, 1.04, 1.03: mean 1.03, sd 0.01, bound 1.0548
      {0.05, 1, 60, 240}, // C: 81 device-h, ratios 1.00, 1.01, 1.005: bound 1.0174
  };
  const std::vector<std::vector<PooledFigures>> runs{
      figures({12, 12.5, 12.2}, 40), figures({10.2, 10.4, 10.3}, 60), figures({10.0, 10.1, 10.05}, 81)};
  const AutoscalerPlan plan = decide_autoscaler_plan(0.05, reference, settings, runs);
  REQUIRE(plan.options.size() == 3);
  // Sorted by device-hours: B, A, C.
  CHECK(plan.options[0].setting.threshold == 0.4);
  CHECK(plan.options[0].verdict == AutoscalerOption::Verdict::fails);
  CHECK(plan.options[1].event_ratio.mean == doctest::Approx(1.03));
  // 1.03 + 4.303 x 0.01 / sqrt(3) = 1.0548: above 1.05, below it at the mean: undecided.
  CHECK(plan.options[1].event_ratio.high() == doctest::Approx(1.0548).epsilon(1e-4));
  CHECK(plan.options[1].verdict == AutoscalerOption::Verdict::undecided);
  CHECK(plan.options[2].verdict == AutoscalerOption::Verdict::meets);
  REQUIRE(plan.answer);
  CHECK(*plan.answer == 2);
  CHECK(plan.reason.find("1 cheaper setting(s) undecided") == 0);
  // With a 6 % tolerance A meets (1.0548 <= 1.06) and, cheaper, is the answer.
  const AutoscalerPlan wider = decide_autoscaler_plan(0.06, reference, settings, runs);
  REQUIRE(wider.answer);
  CHECK(wider.options[*wider.answer].setting.threshold == 0.1);
  CHECK(wider.reason.empty());
  // An answer at the highest threshold tried says so: the search should go on upwards.
  const AutoscalerPlan edge = decide_autoscaler_plan(0.30, reference, settings, runs);
  REQUIRE(edge.answer);
  CHECK(edge.options[*edge.answer].setting.threshold == 0.4);
  CHECK(edge.reason.find("the answer is the highest threshold tried") != std::string::npos);
  // Nothing meets at 0.1 %: no answer, and why.
  const AutoscalerPlan none = decide_autoscaler_plan(0.001, reference, settings, runs);
  CHECK_FALSE(none.answer);
  CHECK(none.reason.find("no setting keeps the event time within 0.10 %") == 0);
}

TEST_CASE(
    "autoscaler plan: a setting under which a replication completes no event fails, whatever the others") {
  const auto reference = figures({10, 10, 10}, 100);
  const std::vector<AutoscalerSetting> settings{{0.9, 1, 60, 240}, {0.1, 1, 60, 240}};
  auto starved = figures({10.0, 10.1, 10.0}, 20);
  starved[1].event_mean_s.reset(); // no event completed: the run defines no event time
  const std::vector<std::vector<PooledFigures>> runs{starved, figures({10.0, 10.1, 10.05}, 81)};
  const AutoscalerPlan plan = decide_autoscaler_plan(0.05, reference, settings, runs);
  REQUIRE(plan.options.size() == 2);
  CHECK(plan.options[0].setting.threshold == 0.9); // the cheaper
  // Its two defined ratios (1.0, 1.0) alone would meet; the starved replication makes it fail.
  CHECK(plan.options[0].event_ratio.n == 2);
  CHECK(plan.options[0].verdict == AutoscalerOption::Verdict::fails);
  REQUIRE(plan.answer);
  CHECK(*plan.answer == 1);
}
