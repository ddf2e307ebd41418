// Fits the data cannot tell apart. Levenberg-Marquardt from each start ends where the objective's slope leads
// it. On a ridge (parameters the series see mostly together, such as the CMS scans' client CPU speed and
// the inference contention) two starts, or one start under another rounding of the same runs, end far apart
// in the parameters with chi-squares the data do not tell apart, and the covariance at one end does not
// reach the other: a refit after a change that only reordered same-time ties moved the contention from
// 0.43 +- 0.09 to 0.78 +- 0.12 at a chi-square 5 % higher.
//
// A start's end is a rival of the answer when its chi-square exceeds the best start's by less than the 95 %
// quantile of chi-square over the parameters fitted, scaled by the reduced chi-square when that is above 1
// (the misfit the covariance is scaled by as well: a model that misses the points by several sd cannot tell
// apart fits that differ by less). Each prediction is made again at each rival's values, and its span covers
// them (sim/calibration/joint_prediction.hpp).
#pragma once

#include "sim/calibration/joint_fit.hpp"

#include <cstddef>
#include <vector>

namespace sonicsim {

struct RivalFit {
  std::size_t start = 0; // index among the fit's starts (0: the initial values)
  std::vector<double> values;
  double chi_square = 0.0;
};

// How much above the best a rival's chi-square may be: models::chi_square_95(fitted) x max(1, best / (points
// - fitted)).
double rival_margin(double best_chi_square, std::size_t points, std::size_t fitted);

// The starts other than the best whose chi-square is within rival_margin of the best, in start order.
std::vector<RivalFit> rival_fits(const std::vector<FitStart>& starts, std::size_t points, std::size_t fitted);

} // namespace sonicsim
