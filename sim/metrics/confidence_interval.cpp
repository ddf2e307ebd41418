#include "sim/metrics/confidence_interval.hpp"

#include "models/student_t.hpp"

#include <cmath>

namespace sonicsim {

ConfidenceInterval confidence_interval_95(const std::vector<double>& values) {
  ConfidenceInterval out;
  out.n = static_cast<int>(values.size());
  if (values.empty()) return out;
  double sum = 0.0;
  for (const double v : values)
    sum += v;
  out.mean = sum / out.n;
  if (out.n < 2) return out;
  double squares = 0.0;
  for (const double v : values)
    squares += (v - out.mean) * (v - out.mean);
  out.sd = std::sqrt(squares / (out.n - 1));
  out.half_width = models::student_t_975(out.n - 1) * out.sd / std::sqrt(static_cast<double>(out.n));
  return out;
}

} // namespace sonicsim
