// Validation cases (sim/validation): the keys the CMS scans need (variant, replications, crossing_jobs,
// predicted), read from files and evaluated on summaries whose answer is known by hand.
#include "sim/scenario/scenario_error.hpp"
#include "sim/validation/case_crossing.hpp"
#include "sim/validation/observables.hpp"
#include "sim/validation/validation_case.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

using namespace sonicsim;

namespace {

std::string write_case(const std::string& name, const std::string& text) {
  // Cases resolve scenario paths from the repository root: put the file two levels below it.
  const auto dir = std::filesystem::path(SONICSIM_SOURCE_DIR) / "build" / "test_cases_tmp";
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path) << text;
  return path.string();
}

const std::string crossing_case = R"(id: t
title: t
source: hand-computed
observable: crossing_jobs
figure: events_per_s_per_job
scenario: configs/cms_miniaod_2024_all_models_one_t4.yaml
variant: [cpu_fallback_local]
sweep: {key: workload.jobs, values: [10, 20, 30, 40]}
replications: 2
measured: {value: 25}
tolerance: {min: 20, max: 30, why: bracket}
)";

RunSummary point(double per_job, double direct) {
  RunSummary s;
  s.events_per_s_per_job = per_job;
  s.direct_inference = DirectInferenceComparison{1.0, direct, per_job, per_job / direct - 1.0};
  return s;
}

} // namespace

TEST_CASE("a crossing case: the fall below direct inference, per replication, then their mean and interval") {
  const auto c = load_validation_case(write_case("crossing.yaml", crossing_case));
  CHECK(c.run.variants == std::vector<std::string>{"cpu_fallback_local"});
  CHECK(c.replications == 2);
  const auto runs = runs_for(c);
  REQUIRE(runs.size() == 8); // 4 sweep points x 2 replications
  CHECK(runs[0].replication == 0);
  CHECK(runs[4].replication == 1);
  // Replication 0 falls from 4.3 (20 jobs) to 4.0 (30) against 4.1: 20 + 10 x 0.2 / 0.3 = 26.67.
  // Replication 1 from 4.2 to 4.0 against 4.1: 25. Mean 25.83; sd of the two 1.18; t(1) = 12.706:
  // half-width 12.706 x 1.18 / sqrt 2 = 10.59.
  const std::vector<RunSummary> summaries{point(4.5, 4.1), point(4.3, 4.1), point(4.0, 4.1), point(3.5, 4.1),
                                          point(4.5, 4.1), point(4.2, 4.1), point(4.0, 4.1), point(3.5, 4.1)};
  const auto outcome = evaluate(c, summaries);
  const double first = 20 + 10 * 0.2 / 0.3, second = 25.0;
  CHECK(outcome.simulated == doctest::Approx((first + second) / 2));
  CHECK(outcome.simulated_half_width ==
        doctest::Approx(12.706 * std::abs(first - second) / std::sqrt(2.0) / std::sqrt(2.0)).epsilon(1e-3));
  CHECK(outcome.verdict == Verdict::pass); // 25.83 within [20, 30]
  // No crossing in one replication: no number, and the case fails rather than passing on a default.
  std::vector<RunSummary> flat = summaries;
  flat[7] = point(4.2, 4.1);
  flat[6] = point(4.2, 4.1);
  flat[5] = point(4.2, 4.1);
  const auto none = evaluate(c, flat);
  CHECK_FALSE(none.simulated.has_value());
  CHECK_FALSE(none.error.has_value());
  CHECK(none.verdict == Verdict::fail);
  CHECK(none.detail.find("1 of 2 replications do not cross") != std::string::npos);
}

TEST_CASE("a prediction case has no measurement: one interval, and a rerun's tolerance is the check") {
  auto text = crossing_case;
  text.replace(text.find("measured:"), std::string::npos,
               "predicted: {value: 25, interval95: [18, 40], reproduce_within: 3, command: \"sonicsim "
               "calibrate --spec x\", rests_on: [\"the limit: 18 to 40\"], pinned_by: \"a scan\"}\n");
  const auto c = load_validation_case(write_case("predicted.yaml", text));
  REQUIRE(c.predicted);
  CHECK(*c.predicted->low == 18);
  CHECK(*c.predicted->high == 40);
  // The check holds the simulation to what a rerun of the same code varies by, never the interval (which
  // holds what the data do not place: a check within it could hardly fail).
  CHECK(*c.absolute_tolerance == 3);
  CHECK(c.predicted->rests_on == std::vector<std::string>{"the limit: 18 to 40"});
  CHECK(c.predicted->pinned_by == "a scan");
  // Without what it rests on, a prediction case is refused: the ranking is part of the answer.
  auto unranked = text;
  unranked.replace(unranked.find(", rests_on"), unranked.rfind("}\n") - unranked.find(", rests_on"), "");
  CHECK_THROWS_WITH_AS(load_validation_case(write_case("unranked.yaml", unranked)),
                       doctest::Contains("rests_on: [\"its top assumptions"), std::exception);
  // Open on one side (DeepMET's crossing: not bounded below).
  auto one_sided = text;
  one_sided.replace(one_sided.find("[18, 40]"), 8, "[null, 398.2]");
  const auto o = load_validation_case(write_case("one_sided.yaml", one_sided));
  CHECK_FALSE(o.predicted->low);
  CHECK(*o.predicted->high == 398.2);
  for (const char* bad_ends : {"[null, 20]", "[30, 40]", "[null]", "7"}) {
    auto bad_case = text;
    bad_case.replace(bad_case.find("[18, 40]"), 8, bad_ends);
    CHECK_THROWS_WITH_AS(load_validation_case(write_case("bad_ends.yaml", bad_case)),
                         doctest::Contains("predicted.interval95"), ScenarioError);
  }
  auto no_tolerance = text;
  no_tolerance.replace(no_tolerance.find(" reproduce_within: 3,"), 21, "");
  CHECK_THROWS_WITH_AS(load_validation_case(write_case("no_tolerance.yaml", no_tolerance)),
                       doctest::Contains("reproduce_within: H"), ScenarioError);
  // The form that quoted parts of the interval beside a wider envelope is refused with what it is now.
  auto old = crossing_case;
  old.replace(old.find("measured:"), std::string::npos,
              "predicted: {value: 25, ci95_half_width: 3, command: x}\n");
  CHECK_THROWS_WITH_AS(load_validation_case(write_case("old.yaml", old)),
                       doctest::Contains("no longer read: a prediction has one 95 % interval"),
                       ScenarioError);
  // A prediction case that also states a measurement is refused at that key.
  text += "tolerance: {relative: 0.1, why: x}\n";
  CHECK_THROWS_WITH_AS(load_validation_case(write_case("both.yaml", text)),
                       doctest::Contains("a prediction case has no measurement"), ScenarioError);
  // Replications out of range name the key.
  auto bad = crossing_case;
  bad.replace(bad.find("replications: 2"), 15, "replications: 0");
  CHECK_THROWS_WITH_AS(load_validation_case(write_case("bad.yaml", bad)), doctest::Contains("1..100"),
                       ScenarioError);
}

TEST_CASE(
    "a case's runs are held to the precision its relative tolerance needs, within 1-4 x the scenario's") {
  ValidationCase c;
  RunSpec run;
  // 10 %: decided by runs known to 4 %; 5 % and 3.2 %: the scenario's 2 % (never finer); 25 %: 10 %, but
  // at most 4 x 2 % = 8 %.
  for (const auto& [tolerance, expected] :
       std::vector<std::pair<double, double>>{{0.10, 0.04}, {0.05, 0.02}, {0.032, 0.02}, {0.25, 0.08}}) {
    c.relative_tolerance = tolerance;
    CHECK(case_run_precision(c, run, 0.02) == doctest::Approx(expected));
  }
  // The scenario's own rule: off stays off; an absolute tolerance, a curve or a prediction keeps 2 %.
  CHECK(case_run_precision(c, run, 0.0) == 0.0);
  c.relative_tolerance.reset();
  c.absolute_tolerance = 0.5;
  CHECK(case_run_precision(c, run, 0.02) == 0.02);
  c.relative_tolerance = 0.10;
  c.predicted = ValidationCase::Prediction{25.0, 18.0, 40.0, 3.0, "sonicsim calibrate", {}, ""};
  CHECK(case_run_precision(c, run, 0.02) == 0.02);
  // An absolute tolerance on a headline figure read as it is counts relative to the measured value: the
  // small batch at 486 jobs, 188.4 s +- 54.9 (29 %), is decided by runs known to 11.7 %, at most 8 %; 2 s on
  // 13 s (15.4 %) by 6.2 %. On a derived value (a gain over direct inference) it does not: the scenario's.
  ValidationCase figure;
  figure.observable = "module_mean_s";
  figure.measured = 188.4;
  figure.absolute_tolerance = 54.9;
  CHECK(case_run_precision(figure, run, 0.02) == doctest::Approx(0.08));
  figure.measured = 13.0;
  figure.absolute_tolerance = 2.0;
  CHECK(case_run_precision(figure, run, 0.02) == doctest::Approx(2.0 / 13.0 / 2.5));
  figure.observable = "direct_inference_gain";
  CHECK(case_run_precision(figure, run, 0.02) == 0.02);
  // A curve's point passes within 2 sd of its measured value: the small batch's point at 4 clients, 13.842
  // +- 0.574 s, allows 8.3 %, decided by a run known to 3.3 %; at 301 clients, 49.493 +- 7.626 s, 30.8 %:
  // 12 %, at most 8 %. (validation/data/protodune_2020_fig7_left.csv)
  ValidationCase curve;
  curve.observable = "curve_fraction_within_2sd";
  run.point_tolerance = 2.0 * 0.574 / 13.842;
  CHECK(case_run_precision(curve, run, 0.02) == doctest::Approx(0.0332).epsilon(0.01));
  run.point_tolerance = 2.0 * 7.626 / 49.493;
  CHECK(case_run_precision(curve, run, 0.02) == doctest::Approx(0.08));
  run.point_tolerance.reset();
  CHECK(case_run_precision(curve, run, 0.02) == 0.02);
}

TEST_CASE("a case's runs are held on the headline figure its value rests on") {
  const auto figure_of = [](const std::string& observable, const std::string& figure = "") {
    ValidationCase c;
    c.observable = observable;
    c.figure = figure;
    return case_precision_figure(c);
  };
  // Rates per job, their crossings and the gain over direct inference: the rate.
  CHECK(figure_of("events_per_s_per_job") == "events_per_s");
  CHECK(figure_of("direct_inference_gain") == "events_per_s");
  // A crossing with no measured curve to take its slope from: every figure held.
  CHECK_FALSE(figure_of("crossing_jobs", "events_per_s_per_job"));
  CHECK(figure_of("curve_fraction_within_2sd", "events_per_s_per_job") == "events_per_s");
  // ProtoDUNE's module-time curves (no figure named: a module's time), and the speed-ups.
  CHECK(figure_of("knee_jobs") == "module_mean_s");
  CHECK(figure_of("curve_fraction_within_2sd") == "module_mean_s");
  CHECK(figure_of("module_speedup") == "module_mean_s");
  CHECK(figure_of("event_speedup") == "event_mean_s");
  CHECK(figure_of("event_mean_s") == "event_mean_s");
  // A batch size rests on no headline figure: the rule holds them all.
  CHECK_FALSE(figure_of("mean_executed_batch"));
}

TEST_CASE("a measured crossing holds its rate to the tolerance in jobs times the measured curve's slope") {
  // The released scans (validation/data/cms_miniaod_2024/scans/calibration_series.csv): ParticleNet AK4 on
  // one T4 falls from 3.970 at 148 jobs to 3.773 at 180 against 3.88; all models from 4.27 at 16 to 3.71 at
  // 20 against 4.17.
  ValidationCase c;
  c.observable = "crossing_jobs";
  c.figure = "events_per_s_per_job";
  c.dataset = CurveDataset{std::string(SONICSIM_SOURCE_DIR) +
                               "/validation/data/cms_miniaod_2024/scans/calibration_series.csv",
                           "pn_ak4_single_t4",
                           "jobs",
                           "per_job_evt_s",
                           "sd_evt_s",
                           "direct_reference_evt_s"};
  c.measured = 163;
  c.minimum = 148;
  c.maximum = 180;
  // The nearer side, 15 jobs, over 2.5: 6 jobs; y - level falls 0.197 over 32 jobs; the point and its level
  // each to 1 / sqrt 2 of it, relative to 3.88: 0.67 %.
  const double ak4 = 6.0 * (0.197 / 32.0) / (std::sqrt(2.0) * 3.88);
  REQUIRE(crossing_rate_precision(c));
  CHECK(*crossing_rate_precision(c) == doctest::Approx(ak4));
  RunSpec run;
  CHECK(case_run_precision(c, run, 0.02) == doctest::Approx(ak4)); // finer than the scenario's 2 %
  CHECK(case_precision_figure(c) == "events_per_s");
  c.dataset->series = "all_models_near";
  c.measured = 17;
  c.minimum = 16;
  c.maximum = 20;
  CHECK(*crossing_rate_precision(c) == doctest::Approx(0.4 * (0.56 / 4.0) / (std::sqrt(2.0) * 4.17)));
  // Off stays off; a loose tolerance is at most 4 x the scenario's rule.
  CHECK(case_run_precision(c, run, 0.0) == 0.0);
  c.minimum = 1;
  c.maximum = 400;
  CHECK(case_run_precision(c, run, 0.02) == doctest::Approx(0.08));
  // A one-sided bound or a prediction: none (every figure held, at the scenario's rule).
  c.maximum.reset();
  CHECK_FALSE(crossing_rate_precision(c));
  CHECK_FALSE(case_precision_figure(c));
  c.maximum = 20;
  c.predicted = ValidationCase::Prediction{25.0, 18.0, 40.0, 3.0, "sonicsim calibrate", {}, ""};
  CHECK_FALSE(crossing_rate_precision(c));
  CHECK(case_run_precision(c, run, 0.02) == 0.02);
}
