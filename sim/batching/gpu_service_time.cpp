#include "sim/batching/gpu_service_time.hpp"

#include <algorithm>
#include <stdexcept>

namespace sonicsim {

double interpolated_throughput_per_s(const ThroughputCurve& curve, double batch_size) {
  const auto& points = curve.points;
  if (points.empty()) throw std::invalid_argument("throughput curve has no points");
  if (batch_size <= points.front().first) {
    // Constant time per batch below the first point: throughput scales with the batch size.
    return points.front().second * batch_size / points.front().first;
  }
  if (batch_size >= points.back().first) return points.back().second;
  const auto upper =
      std::upper_bound(points.begin(), points.end(), batch_size,
                       [](double b, const std::pair<double, double>& p) { return b < p.first; });
  const auto lower = upper - 1;
  const double fraction = (batch_size - lower->first) / (upper->first - lower->first);
  return lower->second + fraction * (upper->second - lower->second);
}

double batch_service_time_s(const ThroughputCurve& curve, double batch_size) {
  return batch_size / interpolated_throughput_per_s(curve, batch_size) + curve.overhead_s;
}

} // namespace sonicsim
