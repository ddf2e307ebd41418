// A quantity accumulated into fixed-width bins of simulated time (bytes on a link, GPU busy seconds, ...).
// Amounts that last over an interval are spread uniformly over it, so a 2-second transfer feeds two 1-second
// bins.
#pragma once

#include <cstddef>
#include <vector>

namespace sonicsim {

// Memory does not grow without bound with simulated time: past its bin limit the bins are merged in pairs
// (the width doubles), so a series never holds more than that many values (by default max_bins, 32 MiB)
// however long the run. Sums over intervals stay exact; only the resolution of a very long run coarsens.
class TimeBins {
public:
  static constexpr std::size_t max_bins = std::size_t{1} << 22;

  explicit TimeBins(double bin_width_s, std::size_t bin_limit = max_bins)
      : bin_width_s_(bin_width_s), bin_limit_(bin_limit) {}

  void add_at(double time_s, double amount);
  void add_spread(double start_s, double end_s, double amount);
  // Sum of the amounts between two times (partial bins pro rata).
  double sum_between(double start_s, double end_s) const;
  double bin_width_s() const { return bin_width_s_; }
  std::size_t size() const { return bins_.size(); }
  // The time up to which amounts were recorded (the end of the last bin).
  double horizon_s() const { return static_cast<double>(bins_.size()) * bin_width_s_; }
  double bin(std::size_t i) const {
    settle();
    return i < bins_.size() ? bins_[i] : 0.0;
  }

  // A spread over more than this many bins adds its rate to a difference array (O(1)) instead of to every
  // bin: a job's whole life at 10^6 jobs spans millions of bins, and spreading each one bin by bin made the
  // end of such a run quadratic (its last jobs' ends took longer than all its events).
  static constexpr std::size_t long_spread_bins = 64;

private:
  // The bin of a time, after coarsening until it fits under max_bins.
  std::size_t index_for(double time_s);
  // The bin of a time at the current width: floor(time / width) as the division rounds it, taken from the
  // last bin's exact range of times when the time is in it (no division: most amounts fall in the bin of
  // the one before).
  std::size_t index_at_width(double time_s);
  void grow_to(std::size_t index);
  void coarsen();
  // Adds the long spreads' rates (rate_steps_) into the bins, once, before any bin is read or merged.
  void settle() const;
  double bin_width_s_;
  std::size_t bin_limit_;
  // The last bin looked up and the times that fall in it, [from, to): every double in that range gives that
  // bin by the division (which is monotonic in the time), found once per bin. Empty until a lookup and after
  // the width changes.
  double cached_from_s_ = 1.0, cached_to_s_ = 0.0;
  std::size_t cached_index_ = 0;
  mutable std::vector<double> bins_;
  // Where a long spread's rate starts (+) and stops (-), by bin: bin i gains width x (sum of steps to i).
  mutable std::vector<double> rate_steps_;
};

} // namespace sonicsim
