// Least-squares fits: exact recovery from noiseless data, and recovery within a few standard errors (computed
// here from the noise level and the design, independently of the fit) from noisy data.
#include "models/fits.hpp"

#include <doctest/doctest.h>

#include <Eigen/Dense>

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

using namespace sonicsim::models;

namespace {

// Deterministic standard normal: mt19937_64's output is fixed by the standard (std::normal_distribution is
// not), Box-Muller on top.
class Gaussian {
public:
  explicit Gaussian(std::uint64_t seed) : gen_(seed) {}
  double operator()() {
    const double u1 = (static_cast<double>(gen_() >> 11) + 0.5) * 0x1.0p-53;
    const double u2 = static_cast<double>(gen_() >> 11) * 0x1.0p-53;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::acos(-1.0) * u2);
  }

private:
  std::mt19937_64 gen_;
};

// Standard errors of (plateau, knee, slope) at the true parameters: sqrt(diag((J^T W J)^-1)), W = 1/sd^2.
Eigen::Vector3d hinge_standard_errors(const std::vector<double>& x, const std::vector<double>& sd,
                                      double knee, double slope) {
  Eigen::MatrixXd j(static_cast<Eigen::Index>(x.size()), 3);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto r = static_cast<Eigen::Index>(i);
    const bool right = x[i] > knee;
    j(r, 0) = 1.0 / sd[i];
    j(r, 1) = right ? -slope / sd[i] : 0.0;
    j(r, 2) = right ? (x[i] - knee) / sd[i] : 0.0;
  }
  const Eigen::Matrix3d cov = (j.transpose() * j).inverse();
  return cov.diagonal().cwiseSqrt();
}

} // namespace

TEST_CASE("fit_line recovers a known line exactly") {
  // y = 3 + 2x on 5 points: intercept 3, slope 2, R^2 = 1, zero residuals.
  const std::vector<double> x{0, 1, 2, 3, 4}, y{3, 5, 7, 9, 11};
  const LinearFit f = fit_line(x, y);
  CHECK(f.intercept == doctest::Approx(3.0).epsilon(1e-12));
  CHECK(f.slope == doctest::Approx(2.0).epsilon(1e-12));
  CHECK(f.r_squared == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(f.residual_sum_squares < 1e-20);
  CHECK(f.slope_se < 1e-9);
  CHECK(f.points == 5);
}

TEST_CASE("fit_line on noisy traffic vs running jobs") {
  // Outbound traffic = 5 Gb/s background + 0.164 Gb/s per job (4.1 Gb / 25 s), noise sd 1 Gb/s, 0..600 jobs.
  // slope SE = sd / sqrt(Sxx), intercept SE = sd sqrt(1/n + mean^2 / Sxx); require 4 SE.
  Gaussian noise(7);
  std::vector<double> x, y;
  for (int jobs = 0; jobs <= 600; jobs += 5) {
    x.push_back(jobs);
    y.push_back(5.0 + 0.164 * jobs + 1.0 * noise());
  }
  double mean = 0.0, sxx = 0.0;
  for (double v : x)
    mean += v / static_cast<double>(x.size());
  for (double v : x)
    sxx += (v - mean) * (v - mean);
  const double slope_se = 1.0 / std::sqrt(sxx);
  const double intercept_se = std::sqrt(1.0 / static_cast<double>(x.size()) + mean * mean / sxx);
  const LinearFit f = fit_line(x, y);
  CHECK(std::abs(f.slope - 0.164) < 4.0 * slope_se);
  CHECK(std::abs(f.intercept - 5.0) < 4.0 * intercept_se);
  // Reported standard errors estimate the true ones (121 points: the sd estimate is good to ~15%).
  CHECK(f.slope_se == doctest::Approx(slope_se).epsilon(0.2));
  CHECK(f.intercept_se == doctest::Approx(intercept_se).epsilon(0.2));
  CHECK(f.r_squared > 0.99);
}

TEST_CASE("fit_line rejects degenerate input") {
  CHECK_THROWS_AS(fit_line({1.0}, {2.0}), std::invalid_argument);
  CHECK_THROWS_AS(fit_line({1.0, 1.0, 1.0}, {2.0, 3.0, 4.0}), std::invalid_argument);
  CHECK_THROWS_AS(fit_line({1.0, 2.0}, {2.0}), std::invalid_argument);
  CHECK_THROWS_AS(fit_line({1.0, 2.0}, {2.0, 3.0}, {1.0, 0.0}), std::invalid_argument);
}

TEST_CASE("fit_saturating recovers T_max and b_half") {
  // T(b) = 130,000 b / (b + 300) sampled exactly: both forms return T_max = 130,000 and b_half = 300.
  std::vector<double> b, t;
  for (double batch : {32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0, 4096.0}) {
    b.push_back(batch);
    t.push_back(130000.0 * batch / (batch + 300.0));
  }
  for (bool weighted : {false, true}) {
    CAPTURE(weighted);
    const SaturatingFit f = fit_saturating(b, t, weighted);
    CHECK(f.t_max_per_s == doctest::Approx(130000.0).epsilon(1e-9));
    CHECK(f.b_half == doctest::Approx(300.0).epsilon(1e-9));
    CHECK(f.throughput_per_s(300.0) == doctest::Approx(65000.0).epsilon(1e-9));
  }
  // Throughput proportional to batch (1/T = 1/b exactly) has no saturation: 1/T_max = 0 is rejected.
  CHECK_THROWS_AS(fit_saturating({1, 2, 4}, {1, 2, 4}), std::invalid_argument);
}

TEST_CASE("fit_plateau_knee recovers noiseless plateau, knee and slope") {
  // SONIC large batch: plateau 119.7 s, knee 270.508 jobs (between samples), slope 1.77 / 4 s per job.
  const double plateau = 119.7, knee = 4.0 * 119.7 / 1.77, slope = 1.77 / 4.0;
  std::vector<double> x, y;
  for (int jobs = 10; jobs <= 400; jobs += 10) {
    x.push_back(jobs);
    y.push_back(jobs <= knee ? plateau : plateau + slope * (jobs - knee));
  }
  PlateauKneeFit f = fit_plateau_knee(x, y);
  CHECK(f.plateau == doctest::Approx(plateau).epsilon(1e-9));
  CHECK(std::abs(f.knee - knee) < 1e-6);
  CHECK(f.slope == doctest::Approx(slope).epsilon(1e-9));
  CHECK(f.residual_sum_squares < 1e-16);
  CHECK(f.predict(400) == doctest::Approx(plateau + slope * (400 - knee)).epsilon(1e-12));

  // Knee exactly on a sample (250): found as an interval end.
  for (std::size_t i = 0; i < x.size(); ++i)
    y[i] = x[i] <= 250.0 ? 50.0 : 50.0 + 0.2 * (x[i] - 250.0);
  f = fit_plateau_knee(x, y);
  CHECK(f.plateau == doctest::Approx(50.0).epsilon(1e-9));
  CHECK(std::abs(f.knee - 250.0) < 1e-6);
  CHECK(f.slope == doctest::Approx(0.2).epsilon(1e-9));
}

TEST_CASE("fit_plateau_knee on noisy data lands within the Gauss-Newton standard errors") {
  // 1..400 jobs, sd 1 s (unweighted), then heteroscedastic sd = 0.5 + 0.005 x with weights 1/sd^2. The
  // standard errors of (plateau, knee, slope) follow from the design and sd alone; require 4 of them.
  const double plateau = 119.7, knee = 270.5, slope = 0.4425;
  for (bool weighted : {false, true}) {
    CAPTURE(weighted);
    Gaussian noise(weighted ? 11 : 3);
    std::vector<double> x, y, sd, w;
    for (int jobs = 1; jobs <= 400; ++jobs) {
      const double s = weighted ? 0.5 + 0.005 * jobs : 1.0;
      x.push_back(jobs);
      sd.push_back(s);
      w.push_back(1.0 / (s * s));
      y.push_back((jobs <= knee ? plateau : plateau + slope * (jobs - knee)) + s * noise());
    }
    const Eigen::Vector3d se = hinge_standard_errors(x, sd, knee, slope);
    const PlateauKneeFit f = weighted ? fit_plateau_knee(x, y, w) : fit_plateau_knee(x, y);
    CHECK(std::abs(f.plateau - plateau) < 4.0 * se(0));
    CHECK(std::abs(f.knee - knee) < 4.0 * se(1));
    CHECK(std::abs(f.slope - slope) < 4.0 * se(2));
    // The fit's own standard errors agree with the ones from the true parameters.
    CHECK(f.plateau_se == doctest::Approx(se(0)).epsilon(0.25));
    CHECK(f.knee_se == doctest::Approx(se(1)).epsilon(0.25));
    CHECK(f.slope_se == doctest::Approx(se(2)).epsilon(0.25));
  }
}

TEST_CASE("fit_plateau_knee rejects degenerate input") {
  CHECK_THROWS_AS(fit_plateau_knee({1, 1, 2, 2}, {1, 1, 2, 2}), std::invalid_argument);
  CHECK_THROWS_AS(fit_plateau_knee({1, 2, 3}, {1, 2}), std::invalid_argument);
  CHECK_THROWS_AS(fit_plateau_knee({1, 2, 3}, {1, 2, 3}, {1, -1, 1}), std::invalid_argument);
}
