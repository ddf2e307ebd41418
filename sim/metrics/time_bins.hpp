// A quantity accumulated into fixed-width bins of simulated time (bytes on a link, GPU busy seconds, ...).
// Amounts that last over an interval are spread uniformly over it, so a 2-second transfer feeds two 1-second
// bins.
#pragma once

#include <vector>

namespace sonicsim {

class TimeBins {
public:
  explicit TimeBins(double bin_width_s) : bin_width_s_(bin_width_s) {}

  void add_at(double time_s, double amount);
  void add_spread(double start_s, double end_s, double amount);
  // Sum of the amounts between two times (partial bins pro rata).
  double sum_between(double start_s, double end_s) const;
  double bin_width_s() const { return bin_width_s_; }
  std::size_t size() const { return bins_.size(); }
  double bin(std::size_t i) const { return i < bins_.size() ? bins_[i] : 0.0; }

private:
  void grow_to(std::size_t index);
  double bin_width_s_;
  std::vector<double> bins_;
};

} // namespace sonicsim
