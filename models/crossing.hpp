// Where a measured or simulated curve crosses a level: the x at which y, sampled at increasing x, first
// falls from at or above `level` to below it, by linear interpolation between the two points around the
// crossing. Used for "the job count at which per-job throughput falls below direct inference". Pure code.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace sonicsim::models {

struct Crossing {
  double x = 0.0;
  // Standard error of x from the standard errors of the two bracketing points' y (and of the level),
  // propagated through the interpolation to first order; 0 when none were given.
  double se = 0.0;
  double lower_x = 0.0, upper_x = 0.0; // the bracketing points: the data place the crossing between them
};

// ys[i] at xs[i] (increasing); level[i] the level at xs[i] (a single level: the same value everywhere).
// y_se and level_se: per point, or empty. None when y never falls below the level, or is below it already at
// the first point. Throws std::invalid_argument for lists of different lengths or x not increasing.
std::optional<Crossing> first_fall_below(const std::vector<double>& xs, const std::vector<double>& ys,
                                         const std::vector<double>& levels,
                                         const std::vector<double>& y_se = {},
                                         const std::vector<double>& level_se = {});

// One point of one curve: its y and its level.
struct CurvePoint {
  double y = 0.0;
  double level = 0.0;
};
// A wave of points to read: (curve, index into xs) pairs; the reader returns their values in that order.
using CurveReader =
    std::function<std::vector<CurvePoint>(const std::vector<std::pair<std::size_t, std::size_t>>&)>;

// first_fall_below of `curves` curves sampled at the same xs, each read point by point in waves (every open
// curve's next point in one wave, the first wave two points): a curve's points after its first fall below its
// level (or after a first point below it) are never asked for, and each answer is the one the whole curve
// gives. Where points are simulations, the largest x (the dearest runs) past a crossing are not run.
std::vector<std::optional<Crossing>> first_falls_in_waves(const std::vector<double>& xs, std::size_t curves,
                                                          const CurveReader& read);
// The same for curves each sampled at its own xs (several sweeps read in the same waves: the cases of one
// validation).
std::vector<std::optional<Crossing>> first_falls_in_waves(const std::vector<std::vector<double>>& xs,
                                                          const CurveReader& read);

} // namespace sonicsim::models
