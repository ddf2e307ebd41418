// A histogram with logarithmic bins (0.1 % wide) for percentiles in bounded memory: the recorder keeps one
// per module instead of every event's time, so memory does not grow with the number of events.
#pragma once

#include <cstdint>
#include <vector>

namespace sonicsim {

class LogHistogram {
public:
  // Values are clamped to [min_value, max_value]; the defaults span 1 us to ~116 days.
  explicit LogHistogram(double min_value = 1e-6, double max_value = 1e7, double relative_bin_width = 1e-3);

  void add(double value);
  std::uint64_t count() const { return count_; }
  double mean() const { return count_ ? sum_ / static_cast<double>(count_) : 0.0; }
  double min() const { return min_seen_; }
  double max() const { return max_seen_; }
  // The q-quantile (0 <= q <= 1), exact to half a bin (0.05 % relative), clamped to the observed range.
  double quantile(double q) const;

private:
  double min_value_;
  double log_min_;
  double log_bin_width_;
  std::vector<std::uint32_t> bins_;
  std::uint64_t count_ = 0;
  double sum_ = 0.0;
  double min_seen_ = 0.0;
  double max_seen_ = 0.0;
};

} // namespace sonicsim
