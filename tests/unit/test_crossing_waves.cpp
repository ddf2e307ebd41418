// A validation's crossing cases read in waves (sim/validation/crossing_waves.hpp): the crossings those of the
// whole sweeps, the points past each replication's fall never run, and a run another case needs never kept
// back.
#include "sim/validation/case_crossing.hpp"
#include "sim/validation/crossing_waves.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace sonicsim;

namespace {

ValidationCase crossing_case(std::vector<double> sweep, int replications, double level) {
  ValidationCase c;
  c.file = "crossing.yaml";
  c.observable = "crossing_jobs";
  c.figure = "events_per_s_per_job";
  c.sweep_values = std::move(sweep);
  c.replications = replications;
  c.reference = level;
  return c;
}

RunSummary summary_with(double events_per_s_per_job) {
  RunSummary s;
  s.events_per_s_per_job = events_per_s_per_job;
  return s;
}

} // namespace

TEST_CASE("crossing cases in waves: the whole sweeps' crossings, from fewer runs") {
  // Two replications of a 5-point sweep against 3.9 events/s per job (falling at its third and fourth
  // points), and a curve case that reads run 0 and run 9 (the second replication's last point).
  std::vector<ValidationCase> cases{crossing_case({60, 100, 130, 160, 200}, 2, 3.9), ValidationCase{}};
  cases[1].observable = "curve_fraction_within_2sd";
  const std::vector<std::vector<std::size_t>> runs_of_case{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {0, 9}};
  const std::vector<double> rates{4.2, 4.1, 3.7, 3.5, 3.0, 4.3, 4.2, 4.0, 3.6, 3.1};
  std::vector<RunSummary> whole, summaries(rates.size());
  for (const double rate : rates)
    whole.push_back(summary_with(rate));

  // Kept back: the crossing case's points from the third on, less the one the curve case reads.
  const auto deferred = wave_runs(cases, runs_of_case, rates.size());
  CHECK(deferred == std::vector<bool>{false, false, true, true, true, false, false, true, true, false});

  std::vector<bool> ran(rates.size(), false);
  const auto run = [&](const std::vector<std::size_t>& runs) {
    for (const auto i : runs) {
      CHECK_FALSE(ran[i]); // each run once
      summaries[i] = whole[i];
      ran[i] = true;
    }
  };
  std::vector<std::size_t> first;
  for (std::size_t i = 0; i < deferred.size(); ++i)
    if (!deferred[i]) first.push_back(i);
  run(first);
  const auto crossings = crossings_in_waves(cases, runs_of_case, summaries, ran, run);
  REQUIRE(crossings.size() == 2);
  CHECK(crossings[1].empty()); // not a crossing case
  REQUIRE(crossings[0].size() == 2);
  // As the whole sweeps give them: 4.1 -> 3.7 across 3.9 at 115 jobs; 4.0 -> 3.6 at 137.5 jobs.
  for (int r = 0; r < 2; ++r) {
    const std::vector<RunSummary> sweep(whole.begin() + 5 * r, whole.begin() + 5 * (r + 1));
    const auto expected = simulated_crossing(cases[0], sweep);
    REQUIRE(expected);
    REQUIRE(crossings[0][static_cast<std::size_t>(r)]);
    CHECK(*crossings[0][static_cast<std::size_t>(r)] == doctest::Approx(*expected));
  }
  CHECK(*crossings[0][0] == doctest::Approx(115.0));
  CHECK(*crossings[0][1] == doctest::Approx(137.5));
  // Never run: the first replication's points past its fall (160 and 200 jobs), the second's past its own
  // (200 jobs is run: the curve case reads it).
  CHECK(ran == std::vector<bool>{true, true, true, false, false, true, true, true, true, true});
  // The outcome is the mean of the two, as evaluate gives it from the whole sweeps.
  const auto from_waves = crossing_outcome(cases[0], crossings[0]);
  REQUIRE(from_waves.simulated);
  CHECK(*from_waves.simulated == doctest::Approx(126.25));
}

TEST_CASE("crossing cases in waves: a replication that never falls is read to its end and has no crossing") {
  std::vector<ValidationCase> cases{crossing_case({10, 20, 30, 40}, 1, 1.0)};
  const std::vector<std::vector<std::size_t>> runs_of_case{{0, 1, 2, 3}};
  std::vector<RunSummary> summaries(4);
  std::vector<bool> ran(4, false);
  int waves = 0;
  const auto crossings = crossings_in_waves(cases, runs_of_case, summaries, ran, [&](const auto& runs) {
    ++waves;
    for (const auto i : runs) {
      summaries[i] = summary_with(2.0);
      ran[i] = true;
    }
  });
  CHECK(waves == 3); // the first two points, then one a wave
  CHECK(std::all_of(ran.begin(), ran.end(), [](bool r) { return r; }));
  REQUIRE(crossings[0].size() == 1);
  CHECK_FALSE(crossings[0][0]);
  CHECK_FALSE(crossing_outcome(cases[0], crossings[0]).simulated);
}
