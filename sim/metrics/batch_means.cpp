#include "sim/metrics/batch_means.hpp"

#include "models/student_t.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace sonicsim {
namespace {

struct BatchValues {
  std::vector<double> values;
  double mean = 0.0;
  bool complete = true; // every batch had a denominator (a batch with no completed event has no event time)
};

BatchValues values_of(const WindowRatio& ratio, double start_s, double batch_s, int batches) {
  BatchValues out;
  double numerator = 0.0, denominator = 0.0;
  for (int b = 0; b < batches; ++b) {
    const auto [n, d] = ratio.over(start_s + b * batch_s, start_s + (b + 1) * batch_s);
    numerator += n;
    denominator += d;
    if (d > 0)
      out.values.push_back(n / d);
    else
      out.complete = false;
  }
  out.mean = denominator > 0 ? numerator / denominator : 0.0;
  return out;
}

BatchMeansFigure interval_of(const std::string& figure, const BatchValues& batch) {
  BatchMeansFigure out;
  out.figure = figure;
  out.mean = batch.mean;
  const double n = static_cast<double>(batch.values.size());
  double squares = 0.0;
  for (const double v : batch.values)
    squares += (v - out.mean) * (v - out.mean);
  const double sd = std::sqrt(squares / (n - 1.0));
  out.half_width = models::student_t_975(static_cast<int>(n) - 1) * sd / std::sqrt(n);
  out.relative = out.half_width / std::abs(out.mean);
  // Values equal to rounding have no correlation worth merging for.
  out.lag1 = sd > 1e-9 * std::abs(out.mean) ? lag1_autocorrelation(batch.values) : 0.0;
  return out;
}

std::string seconds_text(double seconds) {
  std::ostringstream text;
  text.precision(3);
  text << seconds << " s";
  return text.str();
}

} // namespace

double lag1_autocorrelation(const std::vector<double>& values) {
  const double n = static_cast<double>(values.size());
  double mean = 0.0;
  for (const double v : values)
    mean += v / n;
  double variance = 0.0, covariance = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    variance += (values[i] - mean) * (values[i] - mean);
    if (i + 1 < values.size()) covariance += (values[i] - mean) * (values[i + 1] - mean);
  }
  return variance > 0 ? covariance / variance : 0.0;
}

BatchMeans batch_means(const std::vector<WindowRatio>& series, double window_start_s, double window_end_s,
                       double resolution_s) {
  BatchMeans out;
  const double window_s = window_end_s - window_start_s;
  const double fit = resolution_s > 0 ? std::floor(window_s / (2.0 * resolution_s)) : max_batches;
  int batches = static_cast<int>(std::min<double>(max_batches, fit));
  if (!(window_s > 0) || batches < min_batches) {
    out.problem = "the steady-state window (" + seconds_text(std::max(0.0, window_s)) +
                  ") is too short to cut into " + std::to_string(min_batches) + " batches";
    return out;
  }
  while (true) {
    const double batch_s = window_s / batches;
    std::vector<BatchValues> values;
    bool complete = true, correlated = false;
    for (const auto& ratio : series) {
      values.push_back(values_of(ratio, window_start_s, batch_s, batches));
      complete = complete && values.back().complete;
    }
    std::vector<BatchMeansFigure> figures;
    if (complete)
      for (std::size_t i = 0; i < series.size(); ++i) {
        // A figure that is 0 throughout (the devices of a run that sends them nothing) has no relative
        // precision: it is left out.
        if (values[i].mean == 0.0) continue;
        figures.push_back(interval_of(series[i].figure, values[i]));
        correlated = correlated || figures.back().lag1 > max_lag1_autocorrelation;
      }
    // Merging pairs is only possible while it leaves at least min_batches.
    if ((!complete || correlated) && batches / 2 >= min_batches) {
      batches /= 2;
      continue;
    }
    out.batches = batches;
    out.batch_s = batch_s;
    if (!complete) {
      out.batches = 0;
      out.problem = "some of " + std::to_string(batches) + " batches of " + seconds_text(batch_s) +
                    " saw no completed event";
      return out;
    }
    // Still correlated at the fewest batches: the variance of a mean of AR(1)-like values is (1 + r) / (1 -
    // r) times what independent ones would give; the interval is widened by that much instead of understated.
    for (auto& figure : figures)
      if (figure.lag1 > max_lag1_autocorrelation) {
        const double r = std::min(figure.lag1, 0.95);
        figure.half_width *= std::sqrt((1.0 + r) / (1.0 - r));
        figure.relative = figure.half_width / std::abs(figure.mean);
      }
    out.figures = std::move(figures);
    return out;
  }
}

} // namespace sonicsim
