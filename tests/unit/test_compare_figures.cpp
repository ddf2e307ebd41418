// compare's columns from given runs (sim/planning/compare_figures.hpp): means over the replications that
// ran, intervals only from two on, the simulated CPU:GPU ratio and knee, the vote on the bottleneck, and an
// undecided column named with the run that fell short. Runs are built by hand: no simulation.
#include "minimal_scenario.hpp"
#include "models/student_t.hpp"
#include "sim/planning/compare_figures.hpp"
#include "sim/planning/pod_layout.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <doctest/doctest.h>

#include <cmath>

using namespace sonicsim;

namespace {

// A run of the minimal scenario (one T4, module EmTrkMichelId with 100 inferences per event).
SimulationOutcome run(double module_s, double event_s, double gpu_utilisation, double inferences_per_s,
                      const std::string& busiest) {
  SimulationOutcome out;
  out.ok = true;
  RunSummary& s = out.summary;
  s.event.count = 100;
  s.event.mean_s = event_s;
  s.events_per_s = 1.0 / event_s;
  s.modules = {{"reco", TimeStatistics{100, 1.0, 0, 0, 0, 0, 0}},
               {"EmTrkMichelId", TimeStatistics{100, module_s, 0, 0, 0, 0, 0}}};
  s.gpus = 1;
  s.gpu_utilisation = gpu_utilisation;
  s.inferences_per_s = inferences_per_s;
  s.bottleneck = Bottleneck{ResourceKind::device_pool, 0, busiest, 0.9};
  return out;
}

ComparedScenario column(const std::string& name) {
  ComparedScenario c;
  c.name = name;
  c.scenario = load_scenario_text(testing::minimal_scenario_yaml, "minimal");
  const ServerGroup& group = planning::planned_group(c.scenario);
  c.analysis = planning::analyse_layout(
      c.scenario, planning::PodLayout{group.pods, group.devices_per_pod, group.device_type, 0.0});
  return c;
}

} // namespace

TEST_CASE("compare figures: replications' means and intervals, the simulated ratio and knee, the vote") {
  ComparedScenario base = column("");
  // Two replications at the compared jobs: module 2 s and 4 s; at low load the event takes 2 s both times.
  base.loaded = {run(2.0, 10.0, 0.5, 1000.0, "GPU pool"), run(4.0, 12.0, 0.7, 1000.0, "GPU pool")};
  base.reference = {run(0.5, 2.0, 0.1, 100.0, "none"), run(0.5, 2.0, 0.1, 100.0, "none")};
  ComparedScenario faster = column("faster");
  // Its second replication failed: only the first counts, and one replication has no interval.
  faster.loaded = {run(1.0, 9.0, 0.4, 1000.0, "pod NICs"), SimulationOutcome{}};
  faster.reference = {run(0.5, 2.0, 0.1, 100.0, "none"), run(0.5, 2.0, 0.1, 100.0, "none")};
  const CompareTable table = compare_figures({base, faster}, 10, 2, 2);
  REQUIRE(table.figures.size() == 2);
  CHECK(table.columns == std::vector<std::string>{"base", "faster"});
  const VariantFigures& b = table.figures[0];
  CHECK(b.replications == 2);
  REQUIRE(b.figure(Figure::module_mean_s));
  CHECK(b.figure(Figure::module_mean_s)->mean == doctest::Approx(3.0));
  // Module times 2 and 4: sd sqrt(2), half-width t(0.975, 1) x sqrt(2) / sqrt(2) = 12.706.
  CHECK(b.figure(Figure::module_mean_s)->half_width ==
        doctest::Approx(models::student_t_975(1)).epsilon(1e-9));
  REQUIRE(b.module_low_load_s);
  CHECK(b.module_low_load_s->mean == doctest::Approx(0.5));
  CHECK(b.figure(Figure::event_mean_s)->mean == doctest::Approx(11.0));
  // GPU-seconds per event: utilisation x GPUs / inferences per s x 100 inferences = 0.05 and 0.07 s; the
  // ratio is the low-load event time over it (2 / 0.05 = 40, 2 / 0.07 = 28.57), the knee that x 1 GPU / 1
  // thread; both are means of the replications' values.
  REQUIRE(b.ratio_simulated);
  CHECK(b.ratio_simulated->mean == doctest::Approx((40.0 + 2.0 / 0.07) / 2.0).epsilon(1e-9));
  CHECK(b.knee_simulated->mean == doctest::Approx(b.ratio_simulated->mean).epsilon(1e-9));
  CHECK(b.bottleneck.find("GPU pool") != std::string::npos);
  CHECK_FALSE(b.pooled); // no autoscaled group: no device-hours
  CHECK_FALSE(b.figure(Figure::device_hours));
  CHECK_FALSE(b.figure(Figure::cost_usd_per_event)); // no prices in the scenario: no value, not 0
  const VariantFigures& f = table.figures[1];
  CHECK(f.name == "faster");
  CHECK(f.replications == 1);
  CHECK_FALSE(f.figure(Figure::module_mean_s)->has_interval());
  CHECK(f.figure(Figure::module_mean_s)->mean == doctest::Approx(1.0));
  CHECK(f.bottleneck.find("pod NICs") != std::string::npos);
  // The analytic columns come from the layout analysis, the same for both scenarios here.
  REQUIRE(f.knee_analytic);
  REQUIRE(b.knee_analytic);
  CHECK(*f.knee_analytic == doctest::Approx(*b.knee_analytic));
  CHECK(*b.knee_analytic > 0.0);
}

TEST_CASE(
    "compare figures: a column the one-group analysis does not describe has no analytic values, and says "
    "why") {
  // compare refused a scenario with two server groups (GPU against FPGA, a CPU fallback beside the T4) with
  // the planner's words; now such a column's analytic ratio, knee and network limit are absent (null, "-")
  // and its reason travels with it, while the simulated figures stand.
  ComparedScenario base = column("");
  base.analysis.reset();
  base.no_analysis = "they size one server group's devices, and this column has 2";
  base.loaded = {run(2.0, 10.0, 0.5, 1000.0, "GPU pool")};
  base.reference = {run(0.5, 2.0, 0.1, 100.0, "none")};
  const CompareTable table = compare_figures({base}, 10, 2, 1);
  const VariantFigures& f = table.figures[0];
  CHECK_FALSE(f.ratio_analytic);
  CHECK_FALSE(f.knee_analytic);
  CHECK_FALSE(f.network_limit_jobs);
  CHECK_FALSE(f.knee_simulated); // ratio x GPUs sizes one group too
  CHECK(f.ratio_simulated);
  CHECK(f.no_analysis == base.no_analysis);
  CHECK(f.figure(Figure::module_mean_s)->mean == doctest::Approx(2.0));
}

TEST_CASE("compare figures: a run short of the precision rule marks its column undecided, naming it") {
  ComparedScenario base = column("");
  base.loaded = {run(2.0, 10.0, 0.5, 1000.0, "GPU pool")};
  base.reference = {run(0.5, 2.0, 0.1, 100.0, "none")};
  base.reference[0].summary.precision.applies = true;
  base.reference[0].summary.precision.target_relative = 0.01;
  base.reference[0].summary.precision.met = false;
  const CompareTable table = compare_figures({base}, 10, 2, 1);
  CHECK(table.figures[0].too_short.rfind("low-load run of replication 0: ", 0) == 0);
}

TEST_CASE(
    "compare figures: a figure one replication does not define is none for the column, not a mean of 0") {
  ComparedScenario base = column("");
  auto empty = run(2.0, 10.0, 0.5, 0.0, "GPU pool"); // no inference executed: no GPU time per event
  empty.summary.event.count = 0;                     // and no event completed: no event time
  base.loaded = {run(2.0, 10.0, 0.5, 1000.0, "GPU pool"), empty};
  base.reference = {run(0.5, 2.0, 0.1, 100.0, "none"), run(0.5, 2.0, 0.1, 100.0, "none")};
  const CompareTable table = compare_figures({base}, 10, 2, 2);
  const VariantFigures& b = table.figures[0];
  CHECK(b.replications == 2);
  CHECK_FALSE(b.figure(Figure::event_mean_s));
  CHECK_FALSE(b.ratio_simulated);
  CHECK_FALSE(b.knee_simulated);
  REQUIRE(b.figure(Figure::module_mean_s)); // both define the module time
  CHECK(b.figure(Figure::module_mean_s)->mean == doctest::Approx(2.0));
}
