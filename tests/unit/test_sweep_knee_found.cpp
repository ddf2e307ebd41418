// Which knees a sweep draws and tabulates (CurveFit::knee_found): one the fit found, with a finite 95 %
// interval inside the swept job counts, on a rising branch. A flat curve's "knee" (Eq. 1-5 past the network
// limit: the switch sweep's "analytic knee 158 jobs") and one beyond the points are not knees the sweep
// shows.
#include "models/fits.hpp"
#include "sim/sweep/sweep_table.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using namespace sonicsim;

namespace {

// Module time against jobs: a plateau, then a slope past the knee, with a small deterministic wiggle so that
// the fit's residuals (and so its standard errors) are not zero.
CurveFit fitted(double knee_jobs, double slope_s_per_job) {
  std::vector<double> jobs, module_s;
  for (int n = 100; n <= 1000; n += 100) {
    jobs.push_back(n);
    module_s.push_back(12.0 + slope_s_per_job * std::max(0.0, n - knee_jobs) + 0.02 * std::sin(n));
  }
  CurveFit fit;
  fit.series = "simulated";
  fit.points = jobs.size();
  fit.fit = models::fit_plateau_knee(jobs, module_s);
  fit.jobs_low = 100.0;
  fit.jobs_high = 1000.0;
  return fit;
}

} // namespace

TEST_CASE("a sweep shows a knee only where its fit found one inside the points") {
  // The switch sweep's simulated curve: flat to ~600 jobs, then 0.2 s per job.
  const CurveFit saturating = fitted(600.0, 0.2);
  CHECK(saturating.fit.knee == doctest::Approx(600.0).epsilon(0.02));
  CHECK(saturating.knee_found());
  // A flat curve (Eq. 1-5 where the network, not the GPU, fills): no slope, no knee to show.
  CHECK_FALSE(fitted(600.0, 0.0).knee_found());
  // A knee beyond the last point: the curve the sweep saw is flat.
  CHECK_FALSE(fitted(1500.0, 0.2).knee_found());
}
