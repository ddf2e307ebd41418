// The ProtoDUNE 2020 numbers (arXiv:2009.04509, Wang et al., Front. Big Data 3:604083). Each tolerance is
// written next to its check with where it comes from.
#include "simulate.hpp"

#include <doctest/doctest.h>

using sonicsim::testing::module_mean_s;
using sonicsim::testing::simulate;

namespace {
// Low load: 40 jobs, well below both knees (~190 and ~270 jobs), 12 events each (1 warm-up) -> 440 events.
const std::vector<std::string> low_load{"workload.jobs=40", "workload.events_per_job=12",
                                        "output.precision=off"};
} // namespace

TEST_CASE("CPU-only: 110 s non-ML + 220 s EmTrkMichelId = 330 s per event") {
  const auto summary = simulate("protodune_2020_cpu_only.yaml");
  // Table 2: 110 + 7 + 55,000 x 3.8727 ms = 330 s. +/-2 % (issue): the lognormal non-ML sd of 20 s over 500
  // events gives a standard error of 0.9 s (0.3 %), well inside.
  CHECK(summary.event.mean_s == doctest::Approx(330.0).epsilon(0.02));
  CHECK(module_mean_s(summary, "EmTrkMichelId") == doctest::Approx(220.0).epsilon(0.02));
  CHECK(summary.events_failed == 0);
}

TEST_CASE("Large batch below the knee: ~13 s module, ~123 s event, 17x and 2.7x speed-ups") {
  const auto cpu_only = simulate("protodune_2020_cpu_only.yaml", low_load);
  const auto large = simulate("protodune_2020_large_batch.yaml", low_load);
  const double module_s = module_mean_s(large, "EmTrkMichelId");
  // Table 3: 13 s. +/-10 %: the scatter of the Fig. 7 large-batch points below 200 jobs (11.7-15.0 s, sd 1.1
  // s) and the talk's 12 s (the 2023 ProtoDUNE talk) for the same setup.
  CHECK(module_s == doctest::Approx(13.0).epsilon(0.10));
  // Table 3: 123 s per event, +/-5 % (the tolerance; 110 s of it is CPU and exact on average).
  CHECK(large.event.mean_s == doctest::Approx(123.0).epsilon(0.05));
  // Speed-ups against CPU-only from the same simulator: 17x on the module (+/-15 %), 2.7x on the event (+/-5
  // %).
  CHECK(module_mean_s(cpu_only, "EmTrkMichelId") / module_s == doctest::Approx(17.0).epsilon(0.15));
  CHECK(cpu_only.event.mean_s / large.event.mean_s == doctest::Approx(2.7).epsilon(0.05));
  // Requests: chunks of at most 16,384 per group average ~1,693-1,720 (arXiv:2009.04509 section 2.1; nuSONIC
  // README).
  CHECK(large.mean_request_size == doctest::Approx(1700.0).epsilon(0.05));
}

TEST_CASE("Small batch costs seconds of round trips at low load") {
  const auto large = simulate("protodune_2020_large_batch.yaml", low_load);
  const auto small = simulate("protodune_2020_small_batch.yaml", low_load);
  // Chunks of at most 256 average ~235 (arXiv:2009.04509 section 2.1).
  CHECK(small.mean_request_size == doctest::Approx(235.0).epsilon(0.05));
  const double difference_s = module_mean_s(small, "EmTrkMichelId") - module_mean_s(large, "EmTrkMichelId");
  // Expected: ~200 more round trips of 12 ms (+2.4 s) plus the GPU's lower throughput at 235 than at 1,693
  // (20,000 vs 31,250 /s per T4: +1.0 s per 55,000 inferences) = ~3.4 s. Measured
  // (protodune_2020_fig7_left.csv, points below 200 clients): small 15.37 s, large 12.91 s, difference 2.46 s
  // with a standard error of 0.56 s from the points' scatter; the check is the 2-sigma band [1.34, 3.58] s.
  // The "~2 s +/- 0.7" counts the round trips only; the simulation is above that band (see the
  // validation report).
  CHECK(difference_s > 1.34);
  CHECK(difference_s < 3.58);
}

TEST_CASE("400 jobs with dynamic batching: the 4-GPU server saturates at ~122-126k inferences/s") {
  const auto summary =
      simulate("protodune_2020_large_batch.yaml",
               {"workload.jobs=400", "models.emtrkmichelid.triton.dynamic_batching.enabled=true"});
  // arXiv:2009.04509 section 3.2: ~122,000 (text) to ~126,000 (Fig. 6) inferences/s; +/-10 % (issue) around
  // 124,000.
  CHECK(summary.inferences_per_s == doctest::Approx(124000.0).epsilon(0.10));
  CHECK(summary.gpu_utilisation > 0.95);
  CHECK(summary.bottleneck.sentence() == "GPU pool");
  // Requests of ~1,700 are merged: the executed batch is several requests (arXiv:2009.04509 observed 5,358),
  // and never above max_batch_size.
  CHECK(summary.mean_executed_batch > 2.0 * summary.mean_request_size);
  CHECK(summary.mean_executed_batch <= 16384.0);
}
