// SONIC latency model (arXiv:2009.04509, section 3.3) against the paper's published numbers.
#include "models/sonic_latency_model.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

using sonicsim::models::SonicLatencyModel;

namespace {

// Large batch (1693-1720 images, 32 requests), dynamic batching: t_CPU = 330 s, p = 0.65 (the paper's
// rounding), t_GPU = 55,000 inferences / 31,000 inf/s = 1.77 s, t_preprocess = 7 s (inside (1-p) t_CPU),
// t_transmit = 4.1 Gb / 2 Gb/s = 2.05 s, t_travel = 32 x 12 ms = 0.38 s, 4 GPUs.
SonicLatencyModel paper_large_batch() {
  return SonicLatencyModel::from_paper(330.0, 0.65, 1.77, 7.0, 2.05, 0.38, 4);
}

} // namespace

TEST_CASE("SONIC model reproduces the paper's large-batch numbers") {
  const SonicLatencyModel m = paper_large_batch();
  // t_latency = 7 + 2.05 + 0.38 = 9.43 s.
  CHECK(m.t_latency_s() == doctest::Approx(9.43).epsilon(1e-12));
  // Eq. 2 with preprocessing counted once: 0.35 x 330 + 1.77 + 2.05 + 0.38 = 115.5 + 4.2 = 119.7 s.
  CHECK(m.t_ideal_s() == doctest::Approx(119.7).epsilon(1e-12));
  // Knee: 4 x 119.7 / 1.77 = 270.508... jobs, the "about 270 simultaneous processes" of section 3.4.
  CHECK(m.knee_jobs() == doctest::Approx(4.0 * 119.7 / 1.77).epsilon(1e-12));
  CHECK(m.knee_jobs() == doctest::Approx(270.5).epsilon(1e-3));
  // Optimal ratio 119.7 / 1.77 = 67.63, the paper's "68:1".
  CHECK(m.optimal_cpu_per_gpu() == doctest::Approx(67.627).epsilon(1e-4));
  CHECK(std::lround(m.optimal_cpu_per_gpu()) == 68);
  // Eq. 5 at 400 jobs: 1.77 x 400 / 4 = 177 s; Eq. 4 equals it beyond the knee.
  CHECK(m.t_saturated_s(400) == doctest::Approx(177.0).epsilon(1e-12));
  CHECK(m.t_sonic_s(400) == doctest::Approx(177.0).epsilon(1e-12));
  // Flat below the knee: Eq. 4 = t_ideal for 1 and 270 jobs.
  CHECK(m.t_sonic_s(1) == doctest::Approx(119.7).epsilon(1e-12));
  CHECK(m.t_sonic_s(270) == doctest::Approx(119.7).epsilon(1e-12));
  // Eq. 3: 270 / 4 = 67.5 < 67.63 is unsaturated, 271 / 4 = 67.75 is saturated.
  CHECK_FALSE(m.saturated(270));
  CHECK(m.saturated(271));
}

TEST_CASE("SONIC model: small batch saturates at about 196 jobs") {
  // Small batch without dynamic batching: t_GPU = 2.5 s, t_travel = 214 x 12 ms ~ 2.6 s.
  // t_ideal = 115.5 + 2.5 + 2.05 + 2.6 = 122.65 s; knee = 4 x 122.65 / 2.5 = 196.24 (paper: "about 190").
  const auto m = SonicLatencyModel::from_paper(330.0, 0.65, 2.5, 7.0, 2.05, 2.6, 4);
  CHECK(m.t_ideal_s() == doctest::Approx(122.65).epsilon(1e-12));
  CHECK(m.knee_jobs() == doctest::Approx(196.24).epsilon(1e-12));
}

TEST_CASE("SONIC model: module time is the accelerated part alone") {
  const SonicLatencyModel m = paper_large_batch();
  // Unsaturated: 7 + 2.05 + 0.38 + 1.77 = 11.2 s (the paper measures ~13 s for EmTrackMichelId).
  CHECK(m.t_module_s(100) == doctest::Approx(11.2).epsilon(1e-12));
  // At 400 jobs the module absorbs all the queueing: 11.2 + 1.77 (100 - 119.7/1.77) = 68.5 s, and the other
  // CPU time (115.5 - 7 = 108.5 s) plus the module time is Eq. 4.
  CHECK(m.t_module_s(400) == doctest::Approx(11.2 + 1.77 * (100.0 - 119.7 / 1.77)).epsilon(1e-12));
  CHECK(m.t_other_cpu_s() == doctest::Approx(108.5).epsilon(1e-12));
  CHECK(m.t_other_cpu_s() + m.t_module_s(400) == doctest::Approx(m.t_sonic_s(400)).epsilon(1e-12));
}

TEST_CASE("SONIC model: the two conventions count preprocessing once") {
  const SonicLatencyModel paper = paper_large_batch();
  // Components: 108.5 s of CPU outside the module (preprocessing excluded) + 7 s preprocessing = same event.
  const auto components = SonicLatencyModel::from_components(108.5, 7.0, 1.77, 2.05, 0.38, 4);
  CHECK(components.t_ideal_s() == doctest::Approx(paper.t_ideal_s()).epsilon(1e-12));
  CHECK(components.knee_jobs() == doctest::Approx(paper.knee_jobs()).epsilon(1e-12));
  // Feeding the paper's 115.5 s as if it excluded preprocessing double-counts the 7 s (the public plotting
  // script's mistake): t_ideal 126.7 s and a knee of 286 jobs, which the measurements do not show.
  const auto double_counted = SonicLatencyModel::from_components(115.5, 7.0, 1.77, 2.05, 0.38, 4);
  CHECK(double_counted.t_ideal_s() == doctest::Approx(126.7).epsilon(1e-12));
  CHECK(double_counted.knee_jobs() > 286.0);
}

TEST_CASE("SONIC model rejects inconsistent parameters") {
  // Preprocessing cannot exceed (1-p) t_CPU when it is supposed to be inside it.
  CHECK_THROWS_AS(SonicLatencyModel::from_paper(10.0, 0.65, 1.77, 7.0, 2.05, 0.38, 4), std::invalid_argument);
  CHECK_THROWS_AS(SonicLatencyModel::from_paper(330.0, 0.65, 0.0, 7.0, 2.05, 0.38, 4), std::invalid_argument);
  CHECK_THROWS_AS(SonicLatencyModel::from_paper(330.0, 1.0, 1.77, 0.0, 2.05, 0.38, 4), std::invalid_argument);
  CHECK_THROWS_AS(SonicLatencyModel::from_components(108.5, 7.0, 1.77, 2.05, 0.38, 0), std::invalid_argument);
  CHECK_THROWS_AS(SonicLatencyModel::from_components(108.5, -1.0, 1.77, 2.05, 0.38, 4),
                  std::invalid_argument);
}
