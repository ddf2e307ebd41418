// How an event's inferences become requests, as LArSoft sends them: the inferences are spread over the
// module's planes/groups with lognormal weights, and each group is sent in chunks of at most max_batch, so
// request sizes vary and their mean is below max_batch. The job client sends exactly these requests and the
// analytic derivation averages over them: one rule for both. Pure code.
#pragma once

#include "sim/scenario/scenario.hpp"

#include "sim/random/random_engine.hpp"
#include <cstdint>
#include <random>
#include <vector>

namespace sonicsim {

class RequestSplitter {
public:
  // The request sizes (inferences each) of one event of `module` with `inferences` inferences, in the order
  // they are sent. Draws one standard normal per group from `rng` when module.group_spread > 0 (none
  // otherwise); the sizes sum to `inferences` exactly (cumulative rounding of the group shares).
  std::vector<int> split(const Module& module, std::int64_t inferences, RandomEngine& rng);

private:
  std::vector<double> group_weights_; // reused between calls
};

} // namespace sonicsim
