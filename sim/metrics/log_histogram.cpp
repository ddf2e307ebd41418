#include "sim/metrics/log_histogram.hpp"

#include <algorithm>
#include <cmath>

namespace sonicsim {

LogHistogram::LogHistogram(double min_value, double max_value, double relative_bin_width)
    : min_value_(min_value), log_min_(std::log(min_value)), log_bin_width_(std::log1p(relative_bin_width)) {
  const double bin_count = std::ceil((std::log(max_value) - log_min_) / log_bin_width_) + 1.0;
  bins_.assign(static_cast<std::size_t>(bin_count), 0U);
}

void LogHistogram::add(double value) {
  if (count_ == 0) {
    min_seen_ = max_seen_ = value;
  } else {
    min_seen_ = std::min(min_seen_, value);
    max_seen_ = std::max(max_seen_, value);
  }
  ++count_;
  sum_ += value;
  const double clamped = std::max(value, min_value_);
  const auto index = static_cast<std::size_t>((std::log(clamped) - log_min_) / log_bin_width_);
  ++bins_[std::min(index, bins_.size() - 1)];
}

double LogHistogram::quantile(double q) const {
  if (count_ == 0) return 0.0;
  // Nearest-rank definition: the smallest value with at least q * count values at or below it.
  const auto rank = static_cast<std::uint64_t>(std::max(1.0, std::ceil(q * static_cast<double>(count_))));
  if (rank >= count_) return max_seen_; // the largest value is kept exactly
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < bins_.size(); ++i) {
    seen += bins_[i];
    if (seen >= rank) {
      const double centre = std::exp(log_min_ + (static_cast<double>(i) + 0.5) * log_bin_width_);
      return std::clamp(centre, min_seen_, max_seen_);
    }
  }
  return max_seen_;
}

} // namespace sonicsim
