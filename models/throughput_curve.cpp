#include "models/throughput_curve.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sonicsim::models {

ThroughputCurve::ThroughputCurve(std::vector<Point> points, double overhead_s)
    : points_(std::move(points)), overhead_s_(overhead_s) {
  if (points_.empty()) throw std::invalid_argument("throughput curve: no points");
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const auto [batch, throughput_per_s] = points_[i];
    if (!(batch > 0.0) || !std::isfinite(batch))
      throw std::invalid_argument("throughput curve: batch sizes must be positive and finite");
    if (!(throughput_per_s > 0.0) || !std::isfinite(throughput_per_s))
      throw std::invalid_argument("throughput curve: throughputs must be positive and finite");
    if (i > 0 && !(batch > points_[i - 1].first))
      throw std::invalid_argument("throughput curve: batch size " + std::to_string(batch) +
                                  " does not increase on the previous point's");
  }
  if (!(overhead_s_ >= 0.0) || !std::isfinite(overhead_s_))
    throw std::invalid_argument("throughput curve: the overhead must be >= 0 and finite");
}

double ThroughputCurve::throughput_per_s(double batch_size) const {
  const Point& first = points_.front();
  // Constant time per batch below the first point: throughput scales with the batch size.
  if (batch_size <= first.first) return first.second * batch_size / first.first;
  if (batch_size >= points_.back().first) return points_.back().second;
  const auto upper = std::upper_bound(points_.begin(), points_.end(), batch_size,
                                      [](double b, const Point& p) { return b < p.first; });
  const auto lower = upper - 1;
  const double fraction = (batch_size - lower->first) / (upper->first - lower->first);
  return lower->second + fraction * (upper->second - lower->second);
}

double ThroughputCurve::batch_time_s(double batch_size) const {
  return batch_size / throughput_per_s(batch_size) + overhead_s_;
}

} // namespace sonicsim::models
