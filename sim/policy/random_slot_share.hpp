// The fluctuating share of a grid's slots that a campaign gets (workload.campaign.slots_random): a fraction
// drawn uniformly in [min, max], held for an exponential time of mean mean_hold, then drawn again. The steps
// are generated lazily from one seeded stream, in time order, so the value at a time does not depend on when
// or how often it is asked.
#pragma once

#include "sim/scenario/scenario.hpp"

#include "sim/random/random_engine.hpp"
#include <random>
#include <vector>

namespace sonicsim {

class RandomSlotShare {
public:
  RandomSlotShare(const Campaign::RandomSlots& settings, RandomEngine rng);
  // The fraction of the slots on offer at time t_s (>= 0).
  double at(double t_s);

private:
  void draw_next_step();

  Campaign::RandomSlots settings_;
  RandomEngine rng_;
  std::vector<double> from_s_;   // step times, increasing; the first is 0
  std::vector<double> fraction_; // fraction in force from each step on
};

} // namespace sonicsim
