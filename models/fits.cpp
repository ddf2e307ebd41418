#include "models/fits.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace sonicsim::models {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void check_inputs(const char* who, const std::vector<double>& x, const std::vector<double>& y,
                  const std::vector<double>& weights) {
  if (x.size() != y.size())
    throw std::invalid_argument(std::string(who) + ": x and y sizes differ (" + std::to_string(x.size()) +
                                " vs " + std::to_string(y.size()) + ")");
  if (!weights.empty() && weights.size() != x.size())
    throw std::invalid_argument(std::string(who) + ": weights size differs from the data size");
  for (double w : weights)
    if (!(w > 0.0) || !std::isfinite(w))
      throw std::invalid_argument(std::string(who) + ": weights must be positive and finite");
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i]) || !std::isfinite(y[i]))
      throw std::invalid_argument(std::string(who) + ": data contain a non-finite value");
}

Eigen::VectorXd sqrt_weights(const std::vector<double>& weights, std::size_t n) {
  Eigen::VectorXd s = Eigen::VectorXd::Ones(static_cast<Eigen::Index>(n));
  for (std::size_t i = 0; i < weights.size(); ++i)
    s(static_cast<Eigen::Index>(i)) = std::sqrt(weights[i]);
  return s;
}

// Weighted least squares: rows scaled by sqrt(w), solved by column-pivoting QR (rank-revealing, so a
// degenerate design gives a finite minimum-norm-like answer instead of garbage).
struct LeastSquares {
  Eigen::VectorXd beta;
  double rss = 0.0; // weighted
};

LeastSquares solve_least_squares(const Eigen::MatrixXd& design, const Eigen::VectorXd& y,
                                 const Eigen::VectorXd& sqrt_w) {
  const Eigen::MatrixXd a = sqrt_w.asDiagonal() * design;
  const Eigen::VectorXd b = sqrt_w.cwiseProduct(y);
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(a);
  LeastSquares out;
  out.beta = qr.solve(b);
  out.rss = (a * out.beta - b).squaredNorm();
  return out;
}

// (A^T W A)^-1 through the SVD of sqrt(W) A, which stays accurate when A^T A is badly conditioned.
Eigen::MatrixXd inverse_normal_matrix(const Eigen::MatrixXd& design, const Eigen::VectorXd& sqrt_w) {
  const Eigen::MatrixXd a = sqrt_w.asDiagonal() * design;
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(a, Eigen::ComputeThinV);
  const Eigen::VectorXd s = svd.singularValues();
  const double tol = s.size() > 0 ? s(0) * 1e-12 * static_cast<double>(a.rows()) : 0.0;
  Eigen::VectorXd inv_s2(s.size());
  for (Eigen::Index i = 0; i < s.size(); ++i)
    inv_s2(i) = s(i) > tol ? 1.0 / (s(i) * s(i)) : kNaN;
  return svd.matrixV() * inv_s2.asDiagonal() * svd.matrixV().transpose();
}

// --- plateau/knee helpers ---------------------------------------------------------------------------------

struct HingeData {
  Eigen::VectorXd x, y, sqrt_w;
};

Eigen::MatrixXd hinge_design(const Eigen::VectorXd& x, double knee) {
  Eigen::MatrixXd d(x.size(), 2);
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    d(i, 0) = 1.0;
    d(i, 1) = std::max(0.0, x(i) - knee);
  }
  return d;
}

PlateauKneeFit fit_at_knee(const HingeData& data, double knee) {
  const LeastSquares ls = solve_least_squares(hinge_design(data.x, knee), data.y, data.sqrt_w);
  PlateauKneeFit f;
  f.plateau = ls.beta(0);
  f.slope = ls.beta(1);
  f.knee = knee;
  f.residual_sum_squares = ls.rss;
  return f;
}

// Golden-section minimum of the profile RSS on [lo, hi]; the profile is smooth inside the interval.
PlateauKneeFit golden_section(const HingeData& data, double lo, double hi) {
  const double inv_phi = (std::sqrt(5.0) - 1.0) / 2.0;
  double a = lo, b = hi;
  double c = b - inv_phi * (b - a), d = a + inv_phi * (b - a);
  PlateauKneeFit fc = fit_at_knee(data, c), fd = fit_at_knee(data, d);
  const double tol = 1e-12 * std::max(1.0, std::abs(hi) + std::abs(lo));
  for (int it = 0; it < 200 && (b - a) > tol; ++it) {
    if (fc.residual_sum_squares <= fd.residual_sum_squares) {
      b = d;
      d = c;
      fd = fc;
      c = b - inv_phi * (b - a);
      fc = fit_at_knee(data, c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + inv_phi * (b - a);
      fd = fit_at_knee(data, d);
    }
  }
  return fc.residual_sum_squares <= fd.residual_sum_squares ? fc : fd;
}

void add_standard_errors(const HingeData& data, bool weighted, PlateauKneeFit& f) {
  // Jacobian of the model in (plateau, knee, slope).
  const Eigen::Index n = data.x.size();
  Eigen::MatrixXd j(n, 3);
  Eigen::Index left = 0, right = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const bool is_right = data.x(i) > f.knee;
    (is_right ? right : left) += 1;
    j(i, 0) = 1.0;
    j(i, 1) = is_right ? -f.slope : 0.0;
    j(i, 2) = is_right ? data.x(i) - f.knee : 0.0;
  }
  f.plateau_se = f.knee_se = f.slope_se = kNaN;
  if (left == 0 || right == 0) return;
  double scale = 1.0;
  if (!weighted) {
    if (n <= 3) return;
    scale = f.residual_sum_squares / static_cast<double>(n - 3);
  }
  const Eigen::MatrixXd cov = scale * inverse_normal_matrix(j, data.sqrt_w);
  f.plateau_se = std::sqrt(cov(0, 0));
  f.knee_se = std::sqrt(cov(1, 1));
  f.slope_se = std::sqrt(cov(2, 2));
}

} // namespace

LinearFit fit_line(const std::vector<double>& x, const std::vector<double>& y,
                   const std::vector<double>& weights) {
  check_inputs("fit_line", x, y, weights);
  const std::size_t n = x.size();
  if (n < 2) throw std::invalid_argument("fit_line: needs at least 2 points");
  if (std::all_of(x.begin(), x.end(), [&](double v) { return v == x[0]; }))
    throw std::invalid_argument("fit_line: all x are equal, the slope is undefined");

  const auto rows = static_cast<Eigen::Index>(n);
  Eigen::MatrixXd design(rows, 2);
  Eigen::VectorXd yv(rows);
  for (Eigen::Index i = 0; i < rows; ++i) {
    design(i, 0) = 1.0;
    design(i, 1) = x[static_cast<std::size_t>(i)];
    yv(i) = y[static_cast<std::size_t>(i)];
  }
  const Eigen::VectorXd sw = sqrt_weights(weights, n);
  const LeastSquares ls = solve_least_squares(design, yv, sw);

  LinearFit f;
  f.points = n;
  f.intercept = ls.beta(0);
  f.slope = ls.beta(1);
  f.residual_sum_squares = ls.rss;
  const Eigen::VectorXd w = sw.cwiseProduct(sw);
  const double y_mean = w.dot(yv) / w.sum();
  const double tss = (sw.array() * (yv.array() - y_mean)).matrix().squaredNorm();
  f.r_squared = tss > 0.0 ? 1.0 - ls.rss / tss : 1.0;
  if (n > 2) {
    const Eigen::MatrixXd cov = (ls.rss / static_cast<double>(n - 2)) * inverse_normal_matrix(design, sw);
    f.intercept_se = std::sqrt(cov(0, 0));
    f.slope_se = std::sqrt(cov(1, 1));
  } else {
    f.intercept_se = f.slope_se = kNaN;
  }
  return f;
}

SaturatingFit fit_saturating(const std::vector<double>& batch, const std::vector<double>& throughput_per_s,
                             bool weight_for_throughput_errors) {
  check_inputs("fit_saturating", batch, throughput_per_s, {});
  if (batch.size() < 2) throw std::invalid_argument("fit_saturating: needs at least 2 points");
  std::vector<double> inv_b, inv_t, weights;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (!(batch[i] > 0.0) || !(throughput_per_s[i] > 0.0))
      throw std::invalid_argument("fit_saturating: batch sizes and throughputs must be positive");
    inv_b.push_back(1.0 / batch[i]);
    inv_t.push_back(1.0 / throughput_per_s[i]);
    // d(1/T) = dT / T^2: equal absolute errors on T mean variance of 1/T proportional to 1 / T^4.
    if (weight_for_throughput_errors) weights.push_back(std::pow(throughput_per_s[i], 4));
  }
  if (weight_for_throughput_errors) {
    // Rescale so the weights are O(1): only their ratios matter and T^4 overflows the QR's comfort zone.
    const double max_w = *std::max_element(weights.begin(), weights.end());
    for (double& w : weights)
      w /= max_w;
  }
  const LinearFit line = fit_line(inv_b, inv_t, weights);
  if (!(line.intercept > 0.0))
    throw std::invalid_argument("fit_saturating: no saturation in the data (fitted 1/T_max <= 0)");
  if (line.slope < 0.0)
    throw std::invalid_argument("fit_saturating: throughput decreases with batch size (b_half < 0)");
  SaturatingFit f;
  f.t_max_per_s = 1.0 / line.intercept;
  f.b_half = line.slope / line.intercept;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const double r = throughput_per_s[i] - f.throughput_per_s(batch[i]);
    f.residual_sum_squares += r * r;
  }
  return f;
}

PlateauKneeFit fit_plateau_knee(const std::vector<double>& x, const std::vector<double>& y,
                                const std::vector<double>& weights) {
  check_inputs("fit_plateau_knee", x, y, weights);
  std::vector<double> distinct = x;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  if (distinct.size() < 3)
    throw std::invalid_argument("fit_plateau_knee: needs at least 3 distinct x values");

  const auto n = static_cast<Eigen::Index>(x.size());
  HingeData data;
  data.x = Eigen::Map<const Eigen::VectorXd>(x.data(), n);
  data.y = Eigen::Map<const Eigen::VectorXd>(y.data(), n);
  data.sqrt_w = sqrt_weights(weights, x.size());

  // Candidates: every distinct x (interval ends), then the best point inside each interval.
  PlateauKneeFit best = fit_at_knee(data, distinct.front());
  auto consider = [&](const PlateauKneeFit& f) {
    if (f.residual_sum_squares < best.residual_sum_squares) best = f;
  };
  for (double k : distinct)
    consider(fit_at_knee(data, k));

  for (std::size_t i = 0; i + 1 < distinct.size(); ++i) {
    const double lo = distinct[i], hi = distinct[i + 1];
    // Unconstrained fit with the right-hand set fixed: y = a + b h x - c h, knee = c / b.
    Eigen::MatrixXd design(n, 3);
    for (Eigen::Index r = 0; r < n; ++r) {
      const double h = data.x(r) > lo ? 1.0 : 0.0;
      design(r, 0) = 1.0;
      design(r, 1) = h * data.x(r);
      design(r, 2) = -h;
    }
    const LeastSquares free_fit = solve_least_squares(design, data.y, data.sqrt_w);
    const double b = free_fit.beta(1);
    if (b != 0.0) {
      const double k = free_fit.beta(2) / b;
      if (k > lo && k < hi) {
        consider(fit_at_knee(data, k));
        continue; // the interval's minimum is attained there
      }
    }
    consider(golden_section(data, lo, hi));
  }

  add_standard_errors(data, !weights.empty(), best);
  return best;
}

} // namespace sonicsim::models
