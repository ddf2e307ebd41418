// Sweeps of the ProtoDUNE 2020 scenarios over the number of jobs: the knee of the simulated module time
// against the analytic knee derived from the same scenario and the measured knees (arXiv:2009.04509
// section 3.4, Fig. 7 left). Also the speed requirement: the full default sweep (25 points) in under
// a minute on 2 cores.
#include "simulate.hpp"

#include "sim/sweep/sweep_csv.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>

namespace {

struct Fits {
  double simulated_knee_jobs = 0.0, analytic_knee_jobs = 0.0, model_knee_jobs = 0.0;
};

Fits read_fits(const std::filesystem::path& dir) {
  const auto table = sonicsim::read_csv_file((dir / "fits.csv").string());
  Fits fits;
  const auto knees = table.numbers("knee_jobs");
  const auto model_knees = table.optional_numbers("model_knee_jobs"); // the analytic series' only
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const std::string& series = table.rows[i][table.column("series")];
    if (series == "simulated") fits.simulated_knee_jobs = knees[i];
    if (series == "analytic") {
      fits.analytic_knee_jobs = knees[i];
      fits.model_knee_jobs = model_knees[i].value();
    }
  }
  return fits;
}

} // namespace

TEST_CASE("default sweep: 25 points; large-batch knee ~270 jobs") {
  const auto dir = std::filesystem::temp_directory_path() / "sonicsim_sweep_default";
  std::filesystem::remove_all(dir);
  const auto start = std::chrono::steady_clock::now();
  // The default sweep: the embedded large-batch scenario, workload.jobs=1:500:20, 6 events per job.
  const auto result = sonicsim::testing::run_sonicsim("sweep -j 2 --out " + dir.string());
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  // Reported, not asserted: speed is measured by `sonicsim bench`, and a timed check fails on a loaded
  // machine or under sanitizers (74 s with ASan) without anything being wrong.
  MESSAGE("default 25-point sweep with -j 2: " << wall_s << " s");
  const auto table = sonicsim::read_csv_file((dir / "sweep.csv").string());
  CHECK(table.rows.size() == 25);
  const Fits fits = read_fits(dir);
  // The piecewise fit of the simulated module time against the model's knee N_GPU t_ideal / t_GPU (~271 from
  // this scenario) and the measured ~270 (arXiv:2009.04509 section 3.4): within 10 % (issue).
  CHECK(fits.model_knee_jobs == doctest::Approx(270.0).epsilon(0.05));
  CHECK(fits.simulated_knee_jobs == doctest::Approx(fits.model_knee_jobs).epsilon(0.10));
  CHECK(fits.simulated_knee_jobs == doctest::Approx(270.0).epsilon(0.10));
  // The same fit applied to the analytic curve sampled at the sweep's points finds the model's knee.
  CHECK(fits.analytic_knee_jobs == doctest::Approx(fits.model_knee_jobs).epsilon(0.02));
}

TEST_CASE("small-batch sweep: knee ~190 jobs") {
  const auto dir = std::filesystem::temp_directory_path() / "sonicsim_sweep_small_batch";
  std::filesystem::remove_all(dir);
  // Small batch sends ~230 requests per event (7x the large batch), so this sweep is coarser (every 40 jobs
  // up to 2x the knee) with 4 events per job (1 warm-up) to keep the suite fast; the knee fit needs the
  // saturated slope, which 3 events per job underestimate.
  const auto result = sonicsim::testing::run_sonicsim(
      "sweep " + sonicsim::testing::config_path("protodune_2020_small_batch.yaml") +
      " --vary workload.jobs=1:361:40 --set workload.events_per_job=4 --set output.precision=off -j 2 "
      "--out " +
      dir.string());
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  const Fits fits = read_fits(dir);
  // Measured ~190 (arXiv:2009.04509 Fig. 7 left, small batch); model: 4 x 125 s / 2.5 s ~ 200. Within 10 %
  // (issue).
  CHECK(fits.simulated_knee_jobs == doctest::Approx(190.0).epsilon(0.10));
  CHECK(fits.simulated_knee_jobs == doctest::Approx(fits.model_knee_jobs).epsilon(0.10));
  CHECK(fits.model_knee_jobs == doctest::Approx(190.0).epsilon(0.10));
}
