// The uncertainty of a figure measured over one run's steady-state window, by the method of batch means: the
// window is cut into equal batches, the figure is computed in each, and the batches' values are treated as
// nearly independent samples of it (Law, "Simulation Modeling and Analysis", ch. 9.5). Neighbouring batches
// of a short window are correlated; batches are merged in pairs while their lag-1 autocorrelation says so,
// which widens the interval instead of understating it; at the fewest batches a remaining correlation r
// widens it by sqrt((1 + r) / (1 - r)). Pure code.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace sonicsim {

// A figure as a ratio over an interval of simulated time: {numerator, denominator}. Events per second:
// {completions, seconds}; event time: {summed event times, completions}; utilisation: {busy device-seconds,
// devices x seconds}.
struct WindowRatio {
  std::string figure; // its name in the figure table
  std::function<std::pair<double, double>(double start_s, double end_s)> over;
};

struct BatchMeansFigure {
  std::string figure;
  double mean = 0.0;       // over the whole window: the sum of numerators / the sum of denominators
  double half_width = 0.0; // 95 %, Student t with batches - 1 degrees of freedom
  double relative = 0.0;   // half_width / |mean|
  double lag1 = 0.0;       // lag-1 autocorrelation of the batches' values, at the batch count used
};

struct BatchMeans {
  int batches = 0; // 0: the window could not be cut into enough batches (see `problem`)
  double batch_s = 0.0;
  std::vector<BatchMeansFigure> figures;
  std::string problem; // empty when every figure has an interval
};

// Fewest batches an interval is computed from, and the most it starts from.
constexpr int min_batches = 8;
constexpr int max_batches = 32;
// Batches whose lag-1 autocorrelation exceeds this are merged in pairs (while at least 2 x min_batches).
constexpr double max_lag1_autocorrelation = 0.3;

// Lag-1 autocorrelation of a series (0 when it does not vary): how much each value resembles the one before.
double lag1_autocorrelation(const std::vector<double>& values);

// `resolution_s`: the width of the bins the series were recorded in; a batch spans at least 2 of them, so
// that spreading a bin over two batches does not make them look alike.
BatchMeans batch_means(const std::vector<WindowRatio>& series, double window_start_s, double window_end_s,
                       double resolution_s);

} // namespace sonicsim
