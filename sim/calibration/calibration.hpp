// Calibration: fit chosen scenario parameters to a measured series by simulation, with Eigen's
// Levenberg-Marquardt (unsupported/Eigen/NonLinearOptimization) on forward-difference derivatives. Every
// evaluation simulates with the same seed (common random numbers), so the objective is a fixed function of
// the parameters and the derivative is not swamped by sampling noise. Pure code: the simulations are passed
// in as a function.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace sonicsim::calibration {

// A parameter to fit: a scenario key and its bounds, in the unit the values are written in (e.g. "ns").
struct FitParameter {
  std::string key;
  double lower = 0.0;
  double upper = 0.0;
  std::string unit; // appended to a value for --set ("" for plain numbers)
};

struct DataPoint {
  double x = 0.0;
  double y = 0.0;
  double sd = 0.0; // the measurement's standard deviation (> 0): residuals are in units of it
};

// The simulated observable at each data point, for parameter values (in their units). One call may run many
// simulations; it must be deterministic.
using Predictor = std::function<std::vector<double>(const std::vector<double>& values)>;

struct FitQuality {
  double mape = 0.0;       // mean |predicted - measured| / measured
  double pearson_r = 0.0;  // correlation of predicted with measured
  double chi_square = 0.0; // sum of ((predicted - measured) / sd)^2
};

FitQuality fit_quality(const std::vector<DataPoint>& data, const std::vector<double>& predicted);

struct CalibrationResult {
  std::vector<double> values; // fitted, in the parameters' units
  // With other seeds, `values` is the mean of each seed's fit. Half-width: Student t over n - k degrees of
  // freedom from the Jacobian at the values, and with other seeds the seeds' part below in quadrature.
  std::vector<double> ci95_half_width;
  // The seeds' part alone: the standard error of the mean of the seeds' fits, times Student t over seeds - 1
  // degrees of freedom (each fit is of one seed's simulation). Empty without other seeds.
  std::vector<double> ci95_seed_part;
  int seeds = 1;                  // fits `values` is the mean of
  std::vector<bool> at_bound;     // the fit ran into a bound: the interval is not meaningful
  std::vector<bool> identifiable; // false: the residuals do not change with this parameter
  // Covariance of the fitted values, in their units (k x k, row-major), and the correlations it implies.
  std::vector<double> covariance, correlation;
  // false: the data cannot separate it from another parameter (|correlation| above separable_correlation):
  // only a combination of the two is measured.
  std::vector<bool> separable;
  std::vector<double> predicted_before, predicted_after;
  FitQuality before, after;
  int evaluations = 0; // calls of the predictor
  int status = 0;      // Eigen's LevenbergMarquardtSpace::Status
  std::string status_text;
};

// Above this |correlation| two fitted values are one measured combination, not two measured values.
inline constexpr double separable_correlation = 0.95;

// Throws std::invalid_argument for no parameters, a bound pair with lower >= upper, an initial value outside
// its bounds, fewer data points than parameters, or a non-positive sd. `other_seeds`: the same predictor at
// other seeds, each fitted from the first seed's fit (up to max_evaluations each).
CalibrationResult calibrate(const std::vector<FitParameter>& parameters, const std::vector<double>& initial,
                            const std::vector<DataPoint>& data, const Predictor& predict,
                            int max_evaluations = 40, const std::vector<Predictor>& other_seeds = {});

// The seeds' part for a fit already made at one seed (`first_seed`, by calibrate without other seeds; e.g.
// the best of several starts): each other seed fitted from its values, the answer their mean, as calibrate
// with other_seeds gives. Keeps first_seed's `before` and status; counts on from its evaluations.
CalibrationResult add_seeds(const std::vector<FitParameter>& parameters, const std::vector<DataPoint>& data,
                            const Predictor& predict, const CalibrationResult& first_seed,
                            const std::vector<Predictor>& other_seeds, int max_evaluations = 40);

} // namespace sonicsim::calibration
