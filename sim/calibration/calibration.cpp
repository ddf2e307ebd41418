#include "sim/calibration/calibration.hpp"

#include "models/chi_square.hpp"
#include "models/student_t.hpp"

#include <Eigen/Dense>
#include <unsupported/Eigen/NonLinearOptimization>
#include <unsupported/Eigen/NumericalDiff>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace sonicsim::calibration {
namespace {

// The fit works on each parameter scaled to its range, u = (value - lower) / (upper - lower), so that the
// forward-difference step (1 % of the range, or of u) means the same for every parameter; values outside
// [lower, upper] are clamped (Levenberg-Marquardt has no bounds).
constexpr double fit_epsfcn = 1e-4;

struct Residuals {
  using Scalar = double;
  using InputType = Eigen::VectorXd;
  using ValueType = Eigen::VectorXd;
  using JacobianType = Eigen::MatrixXd;
  enum { InputsAtCompileTime = Eigen::Dynamic, ValuesAtCompileTime = Eigen::Dynamic };

  const std::vector<FitParameter>* parameters;
  const std::vector<DataPoint>* data;
  const Predictor* predict;
  int* evaluations;

  int inputs() const { return static_cast<int>(parameters->size()); }
  int values() const { return static_cast<int>(data->size()); }

  std::vector<double> to_values(const Eigen::VectorXd& u) const {
    std::vector<double> values;
    for (int i = 0; i < inputs(); ++i) {
      const auto& p = (*parameters)[static_cast<std::size_t>(i)];
      values.push_back(p.lower + std::clamp(u[i], 0.0, 1.0) * (p.upper - p.lower));
    }
    return values;
  }

  int operator()(const Eigen::VectorXd& u, Eigen::VectorXd& residuals) const {
    ++*evaluations;
    const std::vector<double> predicted = (*predict)(to_values(u));
    residuals.resize(values());
    for (int j = 0; j < values(); ++j) {
      const auto& point = (*data)[static_cast<std::size_t>(j)];
      residuals[j] = (predicted[static_cast<std::size_t>(j)] - point.y) / point.sd;
    }
    return 0;
  }
};

const char* status_text(int status) {
  using namespace Eigen::LevenbergMarquardtSpace;
  switch (status) {
  case RelativeReductionTooSmall:
    return "converged: the sum of squares no longer decreases";
  case RelativeErrorTooSmall:
    return "converged: the parameters no longer change";
  case RelativeErrorAndReductionTooSmall:
    return "converged: neither the sum of squares nor the parameters change";
  case CosinusTooSmall:
    return "converged: the residuals are orthogonal to the Jacobian";
  case TooManyFunctionEvaluation:
    return "stopped: evaluation budget used up (the answer is the best point seen)";
  case FtolTooSmall:
  case XtolTooSmall:
  case GtolTooSmall:
    return "stopped: tolerance too small for further progress";
  default:
    return "stopped";
  }
}

// The covariance in the parameters' units, the correlations, and which parameters the data separate.
void fill_covariance(const std::vector<FitParameter>& parameters, const Eigen::MatrixXd& scaled,
                     CalibrationResult& result) {
  const std::size_t k = parameters.size();
  result.covariance.assign(k * k, 0.0);
  result.correlation.assign(k * k, 0.0);
  result.separable.assign(k, true);
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j) {
      const double range_i = parameters[i].upper - parameters[i].lower,
                   range_j = parameters[j].upper - parameters[j].lower;
      const auto a = static_cast<Eigen::Index>(i), b = static_cast<Eigen::Index>(j);
      result.covariance[i * k + j] = scaled(a, b) * range_i * range_j;
      const double norm = std::sqrt(scaled(a, a) * scaled(b, b));
      result.correlation[i * k + j] = norm > 0.0 ? scaled(a, b) / norm : (i == j ? 1.0 : 0.0);
    }
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j)
      if (i != j && result.identifiable[i] && result.identifiable[j] &&
          std::fabs(result.correlation[i * k + j]) > separable_correlation)
        result.separable[i] = false;
}

// Levenberg-Marquardt from u on one seed's predictor; returns the fitted u (Eigen's status in `status`).
Eigen::VectorXd fit_one_seed(const std::vector<FitParameter>& parameters, const std::vector<DataPoint>& data,
                             const Predictor& predict, int* evaluations, Eigen::VectorXd u,
                             int max_evaluations, int& status) {
  Residuals residuals{&parameters, &data, &predict, evaluations};
  // Forward differences with a step of sqrt(epsfcn) = 1 % of the range (or of u): large enough to step over
  // the small discontinuities of a discrete-event run (an event order that flips), small enough to follow
  // the curve.
  Eigen::NumericalDiff<Residuals> numerical(residuals, fit_epsfcn);
  // A fit that stops where its chi-square is beyond the 99.9th percentile for n - k degrees of freedom is
  // restarted from there while a restart still lowers it by more than 1 %: on a simulated response a step's
  // Jacobian can be a poor one (an event order that flips under one of its differences), and the damping it
  // left stops the steps short of the minimum (ParticleNet AK4's capacity on two points stopped at
  // chi-square 218 where a restart reaches 1). A fresh start computes a new Jacobian and damping. A fit the
  // data find plausible is not restarted: its cost and its answer are as before.
  const int first = *evaluations;
  const double plausible =
      models::chi_square_999(static_cast<int>(data.size()) - static_cast<int>(parameters.size()));
  double sum_of_squares = std::numeric_limits<double>::infinity();
  for (int attempt = 0; attempt < 4; ++attempt) {
    Eigen::LevenbergMarquardt<Eigen::NumericalDiff<Residuals>> solver(numerical);
    solver.parameters.maxfev = max_evaluations - (*evaluations - first);
    solver.parameters.xtol = 1e-4;
    solver.parameters.ftol = 1e-6;
    const Eigen::VectorXd from = u;
    const int status_before = status;
    status = static_cast<int>(solver.minimize(u));
    const double reached = solver.fvec.squaredNorm();
    if (!(reached < sum_of_squares)) { // no better than the last attempt's: keep that, and how it ended
      u = from;
      status = status_before;
      break;
    }
    // Another attempt only for a fit still implausible that this one lowered by more than 1 %.
    const bool restart = reached < 0.99 * sum_of_squares && reached > plausible;
    sum_of_squares = reached;
    if (!restart || status == Eigen::LevenbergMarquardtSpace::TooManyFunctionEvaluation ||
        *evaluations - first >= max_evaluations)
      break;
  }
  return u;
}

} // namespace

FitQuality fit_quality(const std::vector<DataPoint>& data, const std::vector<double>& predicted) {
  FitQuality q;
  const auto n = static_cast<double>(data.size());
  double mean_y = 0.0, mean_p = 0.0;
  for (std::size_t i = 0; i < data.size(); ++i) {
    q.mape += std::fabs(predicted[i] - data[i].y) / std::fabs(data[i].y) / n;
    q.chi_square += std::pow((predicted[i] - data[i].y) / data[i].sd, 2);
    mean_y += data[i].y / n;
    mean_p += predicted[i] / n;
  }
  double syy = 0.0, spp = 0.0, syp = 0.0;
  for (std::size_t i = 0; i < data.size(); ++i) {
    syy += (data[i].y - mean_y) * (data[i].y - mean_y);
    spp += (predicted[i] - mean_p) * (predicted[i] - mean_p);
    syp += (data[i].y - mean_y) * (predicted[i] - mean_p);
  }
  q.pearson_r = syy > 0.0 && spp > 0.0 ? syp / std::sqrt(syy * spp) : 0.0;
  return q;
}

namespace {

void check_inputs(const std::vector<FitParameter>& parameters, const std::vector<double>& initial,
                  const std::vector<DataPoint>& data) {
  if (parameters.empty()) throw std::invalid_argument("calibrate: no parameter to fit");
  if (initial.size() != parameters.size())
    throw std::invalid_argument("calibrate: one initial value per parameter");
  if (data.size() < parameters.size())
    throw std::invalid_argument("calibrate: fewer data points than parameters");
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    if (!(parameters[i].lower < parameters[i].upper))
      throw std::invalid_argument("calibrate: " + parameters[i].key +
                                  ": the lower bound must be below the upper");
    if (initial[i] < parameters[i].lower || initial[i] > parameters[i].upper)
      throw std::invalid_argument("calibrate: " + parameters[i].key +
                                  ": the initial value is outside its bounds");
  }
  for (const auto& point : data)
    if (!(point.sd > 0.0)) throw std::invalid_argument("calibrate: every data point needs an sd > 0");
}

Eigen::VectorXd scaled(const std::vector<FitParameter>& parameters, const std::vector<double>& values) {
  Eigen::VectorXd u(static_cast<Eigen::Index>(parameters.size()));
  for (std::size_t i = 0; i < parameters.size(); ++i)
    u[static_cast<Eigen::Index>(i)] =
        (values[i] - parameters[i].lower) / (parameters[i].upper - parameters[i].lower);
  return u;
}

// The seeds' fits: their mean (the answer), the covariance of that mean (the seeds' part), and whether a
// seed's own fit ended on a bound (the data at that seed want the parameter beyond it). With no other seed,
// the first fit as it is.
struct SeedSpread {
  Eigen::VectorXd mean;
  Eigen::MatrixXd covariance;
  std::vector<bool> on_bound;
};

SeedSpread fit_other_seeds(const std::vector<FitParameter>& parameters, const std::vector<DataPoint>& data,
                           const std::vector<Predictor>& other_seeds, int max_evaluations,
                           const Eigen::VectorXd& u, CalibrationResult& result) {
  const auto k = static_cast<int>(parameters.size());
  SeedSpread out{u, Eigen::MatrixXd::Zero(k, k), std::vector<bool>(static_cast<std::size_t>(k), false)};
  if (other_seeds.empty()) return out;
  // Each fit within the bounds (the values a fit gives), once.
  std::vector<Eigen::VectorXd> fits{u.cwiseMax(0.0).cwiseMin(1.0)};
  for (const auto& other : other_seeds) {
    int status = 0;
    fits.push_back(fit_one_seed(parameters, data, other, &result.evaluations, u, max_evaluations, status)
                       .cwiseMax(0.0)
                       .cwiseMin(1.0));
  }
  const auto seeds = static_cast<double>(fits.size());
  out.mean = Eigen::VectorXd::Zero(k);
  for (const auto& fit : fits)
    out.mean += fit / seeds;
  for (const auto& fit : fits) {
    const Eigen::VectorXd d = fit - out.mean;
    out.covariance += d * d.transpose() / (seeds - 1.0) / seeds;
    for (int i = 0; i < k; ++i)
      if (fit[i] <= 0.0 || fit[i] >= 1.0) out.on_bound[static_cast<std::size_t>(i)] = true;
  }
  result.seeds = static_cast<int>(fits.size());
  return out;
}

// From u, the first seed's fit: the other seeds' fits and their mean, the fit's quality there, and the
// covariance with its seeds' part. `result` keeps what it holds of the first fit (before, status).
void finish(const std::vector<FitParameter>& parameters, const std::vector<DataPoint>& data,
            const Predictor& predict, int max_evaluations, const std::vector<Predictor>& other_seeds,
            Eigen::VectorXd u, CalibrationResult& result) {
  Residuals residuals{&parameters, &data, &predict, &result.evaluations};
  const auto k = static_cast<int>(parameters.size());
  const auto n = static_cast<int>(data.size());
  // The seeds' part: the fit is of one seed's simulation (common random numbers), and near a knee a
  // discrete-event run's response to a parameter is too rough for a linearised noise term (measured: three
  // seeds' fits of a ProtoDUNE host cost spread three times wider than it said). So each other seed is fitted
  // too, from this fit, and the answer is the mean of the seeds' fits, its seeds' part their standard error.
  const SeedSpread spread = fit_other_seeds(parameters, data, other_seeds, max_evaluations, u, result);
  const Eigen::MatrixXd& seed_covariance = spread.covariance;
  const std::vector<bool>& seed_on_bound = spread.on_bound;
  u = spread.mean;
  result.values = residuals.to_values(u);
  result.predicted_after = predict(result.values);
  ++result.evaluations;
  result.after = fit_quality(data, result.predicted_after);

  // Uncertainty: covariance (J^T J)^-1 of the scaled parameters at the fit, inflated by the reduced
  // chi-square when the residuals scatter more than the sd say; half-width t_{0.975, n-k} sigma.
  Eigen::MatrixXd jacobian(n, k);
  Eigen::VectorXd u_clamped = u;
  for (int i = 0; i < k; ++i)
    u_clamped[i] = std::clamp(u[i], 0.0, 1.0);
  Eigen::NumericalDiff<Residuals> numerical(residuals, fit_epsfcn);
  numerical.df(u_clamped, jacobian); // k + 1 more evaluations, counted by the functor
  const double reduced_chi_square = n > k ? result.after.chi_square / (n - k) : 1.0;
  const Eigen::MatrixXd jtj = jacobian.transpose() * jacobian;
  // A tiny ridge instead of a pseudo-inverse: where the data see only a combination of two parameters, the
  // pseudo-inverse would report the measured combination's small variance and the wrong sign of their
  // correlation; the ridge keeps the unmeasured direction's variance huge and the correlation near -1 or 1.
  const double ridge = 1e-10 * std::max(1e-300, jtj.diagonal().maxCoeff());
  const Eigen::MatrixXd jtj_inverse =
      (jtj + ridge * Eigen::MatrixXd::Identity(k, k)).ldlt().solve(Eigen::MatrixXd::Identity(k, k));
  const Eigen::MatrixXd covariance = jtj_inverse * std::max(1.0, reduced_chi_square);
  const double t = models::student_t_975(std::max(1, n - k));
  const double t_seeds = models::student_t_975(std::max(1, result.seeds - 1));
  for (int i = 0; i < k; ++i) {
    const auto& p = parameters[static_cast<std::size_t>(i)];
    const double range = p.upper - p.lower;
    // A column of (nearly) zeros: moving this parameter by 1 % of its range changes no residual by more than
    // 1e-6 sd.
    const bool identifiable = jacobian.col(i).norm() > 1e-6;
    result.identifiable.push_back(identifiable);
    const double fit_part = t * std::sqrt(std::max(0.0, covariance(i, i))) * range;
    const double seed_part = t_seeds * std::sqrt(std::max(0.0, seed_covariance(i, i))) * range;
    result.ci95_half_width.push_back(identifiable ? std::hypot(fit_part, seed_part)
                                                  : std::numeric_limits<double>::infinity());
    // On its bound when the seeds' mean is, or when a seed's fit is and the interval reaches the bound: the
    // mean of fits at the bound and a fit just inside it lies just inside too, an artefact of averaging
    // (ParticleNet AK4's direct share at 5.026 +- 0.113 ms against its 5 ms bound), not a placed value.
    const double reach = result.ci95_half_width.back() / range;
    result.at_bound.push_back(
        u[i] <= 0.0 || u[i] >= 1.0 ||
        (seed_on_bound[static_cast<std::size_t>(i)] && (u[i] - reach <= 0.0 || u[i] + reach >= 1.0)));
    if (!other_seeds.empty()) result.ci95_seed_part.push_back(seed_part);
  }
  fill_covariance(parameters, covariance + seed_covariance, result);
}

} // namespace

CalibrationResult calibrate(const std::vector<FitParameter>& parameters, const std::vector<double>& initial,
                            const std::vector<DataPoint>& data, const Predictor& predict, int max_evaluations,
                            const std::vector<Predictor>& other_seeds) {
  check_inputs(parameters, initial, data);
  CalibrationResult result;
  result.predicted_before = predict(initial);
  ++result.evaluations;
  result.before = fit_quality(data, result.predicted_before);
  const Eigen::VectorXd u = fit_one_seed(parameters, data, predict, &result.evaluations,
                                         scaled(parameters, initial), max_evaluations, result.status);
  result.status_text = status_text(result.status);
  finish(parameters, data, predict, max_evaluations, other_seeds, u, result);
  return result;
}

CalibrationResult add_seeds(const std::vector<FitParameter>& parameters, const std::vector<DataPoint>& data,
                            const Predictor& predict, const CalibrationResult& first_seed,
                            const std::vector<Predictor>& other_seeds, int max_evaluations) {
  check_inputs(parameters, first_seed.values, data);
  CalibrationResult result;
  result.predicted_before = first_seed.predicted_before;
  result.before = first_seed.before;
  result.evaluations = first_seed.evaluations;
  result.status = first_seed.status;
  result.status_text = first_seed.status_text;
  finish(parameters, data, predict, max_evaluations, other_seeds, scaled(parameters, first_seed.values),
         result);
  return result;
}

} // namespace sonicsim::calibration
