// Least-squares fits applied identically to measured and simulated data (all solved with Eigen's QR).
//   - a straight line with standard errors (outbound traffic vs running jobs, the 2023 ProtoDUNE talk);
//   - GPU throughput vs batch size: a saturating curve (the measured curve itself is throughput_curve.hpp);
//   - "flat then rising" (plateau, knee, slope): processing time vs simultaneous jobs, arXiv:2009.04509
//   Fig. 7.
#pragma once

#include <cstddef>
#include <vector>

namespace sonicsim::models {

struct LinearFit {
  double intercept = 0.0;
  double slope = 0.0;
  double intercept_se = 0.0; // standard errors from the residual variance RSS / (n - 2); NaN when n == 2
  double slope_se = 0.0;
  double r_squared = 0.0; // 1 - RSS / total sum of squares (1 when all y are equal and fit exactly)
  double residual_sum_squares = 0.0;
  std::size_t points = 0;
};

// y = intercept + slope x. Optional weights (e.g. 1 / sd^2) make it weighted least squares; the standard
// errors then still use the scatter of the residuals (RSS weighted / (n - 2)). Throws std::invalid_argument
// for fewer than 2 points, mismatched sizes, non-positive weights, or all x equal.
LinearFit fit_line(const std::vector<double>& x, const std::vector<double>& y,
                   const std::vector<double>& weights = {});

// throughput(b) = t_max_per_s b / (b + b_half).
struct SaturatingFit {
  double t_max_per_s = 0.0;          // asymptotic throughput for large batches
  double b_half = 0.0;               // batch size at which half of t_max is reached
  double residual_sum_squares = 0.0; // in throughput units, against the data
  double throughput_per_s(double batch) const { return t_max_per_s * batch / (batch + b_half); }
};

// Solved on the linearised form 1/T = 1/T_max + (b_half / T_max)(1/b). With weight_for_throughput_errors the
// rows get weight T^4 so that a constant absolute error on T is weighted evenly (the plain reciprocal fit
// lets the smallest throughputs dominate). Throws std::invalid_argument for fewer than 2 points, a
// non-positive value, or data without a positive saturating trend (fitted 1/T_max <= 0 or b_half < 0).
SaturatingFit fit_saturating(const std::vector<double>& batch, const std::vector<double>& throughput_per_s,
                             bool weight_for_throughput_errors = false);

// y = plateau for x <= knee, plateau + slope (x - knee) for x > knee.
struct PlateauKneeFit {
  double plateau = 0.0;
  double knee = 0.0;
  double slope = 0.0;
  double residual_sum_squares = 0.0; // weighted when weights were given
  // Standard errors from the Gauss-Newton covariance at the optimum: with weights (1 / sd^2) they are
  // absolute, (J^T W J)^-1; without weights they are scaled by RSS / (n - 3). NaN when not estimable
  // (n == 3, zero slope, or no point on one side of the knee).
  double plateau_se = 0.0;
  double knee_se = 0.0;
  double slope_se = 0.0;
  double predict(double x) const { return x <= knee ? plateau : plateau + slope * (x - knee); }
};

// The knee is searched in [min x, max x]. For a fixed knee the model is linear in (plateau, slope), solved
// by QR. Between two consecutive distinct x the set of points right of the knee is fixed, so the exact
// optimum of the interval is found from the unconstrained 3-parameter fit y = a + b h x - c h (h: right of
// knee, knee = c / b) when it falls inside the interval; otherwise golden-section on the profile RSS and the
// interval ends are evaluated. Throws std::invalid_argument for fewer than 3 distinct x, mismatched sizes,
// or non-positive weights.
PlateauKneeFit fit_plateau_knee(const std::vector<double>& x, const std::vector<double>& y,
                                const std::vector<double>& weights = {});

} // namespace sonicsim::models
