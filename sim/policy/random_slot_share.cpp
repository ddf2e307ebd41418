#include "sim/policy/random_slot_share.hpp"

#include "sim/random/distribution.hpp"

#include <algorithm>
#include <cmath>

namespace sonicsim {

RandomSlotShare::RandomSlotShare(const Campaign::RandomSlots& settings, RandomEngine rng)
    : settings_(settings), rng_(std::move(rng)) {
  draw_next_step();
}

void RandomSlotShare::draw_next_step() {
  double from_s = 0.0;
  if (!from_s_.empty()) {
    // Exponential holding time by inversion; 1 - u is in (0, 1], so the logarithm is finite.
    from_s = from_s_.back() - settings_.mean_hold_s * std::log(1.0 - uniform01(rng_));
  }
  from_s_.push_back(from_s);
  fraction_.push_back(settings_.min_fraction +
                      (settings_.max_fraction - settings_.min_fraction) * uniform01(rng_));
}

double RandomSlotShare::at(double t_s) {
  while (from_s_.back() <= t_s)
    draw_next_step();
  // The last step starts after t_s; the one in force is the latest at or before it.
  const auto after = std::upper_bound(from_s_.begin(), from_s_.end(), t_s);
  return fraction_[static_cast<std::size_t>(after - from_s_.begin()) - 1];
}

} // namespace sonicsim
