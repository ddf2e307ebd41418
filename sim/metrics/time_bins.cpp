#include "sim/metrics/time_bins.hpp"

#include <algorithm>
#include <cmath>

namespace sonicsim {

void TimeBins::grow_to(std::size_t index) {
  if (index >= bins_.size()) bins_.resize(index + 1, 0.0);
}

void TimeBins::add_at(double time_s, double amount) {
  const auto index = static_cast<std::size_t>(std::max(0.0, time_s) / bin_width_s_);
  grow_to(index);
  bins_[index] += amount;
}

void TimeBins::add_spread(double start_s, double end_s, double amount) {
  if (end_s <= start_s) {
    add_at(start_s, amount);
    return;
  }
  const double rate = amount / (end_s - start_s);
  auto index = static_cast<std::size_t>(std::max(0.0, start_s) / bin_width_s_);
  const auto last = static_cast<std::size_t>(end_s / bin_width_s_);
  grow_to(last);
  for (; index <= last; ++index) {
    const double bin_start = static_cast<double>(index) * bin_width_s_;
    const double overlap = std::min(end_s, bin_start + bin_width_s_) - std::max(start_s, bin_start);
    if (overlap > 0) bins_[index] += rate * overlap;
  }
}

double TimeBins::sum_between(double start_s, double end_s) const {
  double total = 0.0;
  for (std::size_t index = 0; index < bins_.size(); ++index) {
    const double bin_start = static_cast<double>(index) * bin_width_s_;
    const double overlap = std::min(end_s, bin_start + bin_width_s_) - std::max(start_s, bin_start);
    if (overlap > 0) total += bins_[index] * overlap / bin_width_s_;
  }
  return total;
}

} // namespace sonicsim
