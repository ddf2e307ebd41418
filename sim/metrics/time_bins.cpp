#include "sim/metrics/time_bins.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sonicsim {

void TimeBins::grow_to(std::size_t index) {
  if (index >= bins_.size()) bins_.resize(index + 1, 0.0);
}

void TimeBins::settle() const {
  if (rate_steps_.empty()) return;
  double rate = 0.0;
  for (std::size_t i = 0; i < bins_.size() && i < rate_steps_.size(); ++i) {
    rate += rate_steps_[i];
    bins_[i] += rate * bin_width_s_;
  }
  rate_steps_.clear();
}

void TimeBins::coarsen() {
  settle();
  const std::size_t merged = (bins_.size() + 1) / 2;
  for (std::size_t i = 0; i < merged; ++i)
    bins_[i] = bins_[2 * i] + (2 * i + 1 < bins_.size() ? bins_[2 * i + 1] : 0.0);
  bins_.resize(merged);
  bin_width_s_ *= 2.0;
  cached_from_s_ = 1.0;
  cached_to_s_ = 0.0;
}

namespace {

// The least non-negative double whose quotient by `width_s` (as divided, rounded) reaches `index`: the
// product as a first guess, then moved by ulps to the exact edge (a step or two at most).
double first_time_of(std::size_t index, double width_s) {
  const auto reaches = [&](double t) { return t / width_s >= static_cast<double>(index); };
  double t = static_cast<double>(index) * width_s;
  while (!reaches(t))
    t = std::nextafter(t, std::numeric_limits<double>::infinity());
  for (double before = std::nextafter(t, 0.0); t > 0.0 && reaches(before); before = std::nextafter(t, 0.0))
    t = before;
  return t;
}

} // namespace

std::size_t TimeBins::index_at_width(double time_s) {
  if (time_s >= cached_from_s_ && time_s < cached_to_s_) return cached_index_;
  cached_index_ = static_cast<std::size_t>(time_s / bin_width_s_);
  cached_from_s_ = first_time_of(cached_index_, bin_width_s_);
  cached_to_s_ = first_time_of(cached_index_ + 1, bin_width_s_);
  return cached_index_;
}

std::size_t TimeBins::index_for(double time_s) {
  const double clamped_s = std::max(0.0, time_s);
  if (clamped_s >= cached_from_s_ && clamped_s < cached_to_s_) return cached_index_; // fits: it did before
  while (clamped_s / bin_width_s_ >= static_cast<double>(bin_limit_))
    coarsen();
  return index_at_width(clamped_s);
}

void TimeBins::add_at(double time_s, double amount) {
  const std::size_t index = index_for(time_s);
  grow_to(index);
  bins_[index] += amount;
}

void TimeBins::add_spread(double start_s, double end_s, double amount) {
  if (end_s <= start_s) {
    add_at(start_s, amount);
    return;
  }
  const double rate = amount / (end_s - start_s);
  const std::size_t last = index_for(end_s); // coarsens first, so that the start's index uses the final width
  std::size_t index = index_at_width(std::max(0.0, start_s));
  grow_to(last);
  if (last - std::min(index, last) > long_spread_bins) {
    // The two partial bins at the ends directly, the whole bins between by their rate's steps.
    const double first_end_s = static_cast<double>(index + 1) * bin_width_s_;
    bins_[index] += rate * (first_end_s - std::max(start_s, static_cast<double>(index) * bin_width_s_));
    bins_[last] += rate * (end_s - static_cast<double>(last) * bin_width_s_);
    if (rate_steps_.size() < bins_.size() + 1) rate_steps_.resize(bins_.size() + 1, 0.0);
    rate_steps_[index + 1] += rate;
    rate_steps_[last] -= rate;
    return;
  }
  for (; index <= last; ++index) {
    const double bin_start = static_cast<double>(index) * bin_width_s_;
    const double overlap = std::min(end_s, bin_start + bin_width_s_) - std::max(start_s, bin_start);
    if (overlap > 0) bins_[index] += rate * overlap;
  }
}

double TimeBins::sum_between(double start_s, double end_s) const {
  settle();
  double total = 0.0;
  if (!(end_s > start_s) || bins_.empty()) return total;
  // Only the bins that overlap [start, end): the writers call this once per output row.
  const double first_index = std::max(0.0, start_s) / bin_width_s_;
  const double end_index = end_s / bin_width_s_;
  if (first_index >= static_cast<double>(bins_.size())) return total;
  const auto first = static_cast<std::size_t>(first_index);
  const std::size_t stop =
      end_index >= static_cast<double>(bins_.size()) ? bins_.size() : static_cast<std::size_t>(end_index) + 1;
  for (std::size_t index = first > 0 ? first - 1 : 0; index < stop; ++index) {
    const double bin_start = static_cast<double>(index) * bin_width_s_;
    const double overlap = std::min(end_s, bin_start + bin_width_s_) - std::max(start_s, bin_start);
    if (overlap > 0) total += bins_[index] * overlap / bin_width_s_;
  }
  return total;
}

} // namespace sonicsim
