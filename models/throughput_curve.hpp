// Throughput of one model on one device type as a function of the executed batch size: the one curve that
// both the simulation (a batch's service time) and the analytic models (t_GPU) read.
//
// The rule (docs/model.md, "Device service time"):
//   - between two measured points: throughput is linear in the batch size (piecewise linear, never
//   overshoots,
//     monotone wherever the data are);
//   - below the first point: the batch takes as long as the first point's batch (a device does not get faster
//     than its smallest measured batch: latency-bound), so throughput scales with the batch size;
//   - above the last point: throughput stays at the last value (saturated);
//   - a batch takes batch / throughput(batch) + overhead_s.
#pragma once

#include <utility>
#include <vector>

namespace sonicsim::models {

class ThroughputCurve {
public:
  using Point = std::pair<double, double>; // (batch size in inferences, inferences per second)

  // Throws std::invalid_argument when there is no point, a batch size or throughput is not positive and
  // finite, the batch sizes do not strictly increase, or the overhead is negative or not finite.
  explicit ThroughputCurve(std::vector<Point> points, double overhead_s = 0.0);

  // Inferences per second at `batch_size` (> 0).
  double throughput_per_s(double batch_size) const;
  // Time one batch of `batch_size` inferences occupies the device, in seconds.
  double batch_time_s(double batch_size) const;

  const std::vector<Point>& points() const { return points_; }
  double overhead_s() const { return overhead_s_; }

private:
  std::vector<Point> points_; // sorted by strictly increasing batch size
  double overhead_s_ = 0.0;   // fixed time added to every batch; default 0
};

} // namespace sonicsim::models
