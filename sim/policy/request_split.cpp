#include "sim/policy/request_split.hpp"

#include "sim/random/distribution.hpp"

#include "sim/random/random_engine.hpp"
#include <algorithm>
#include <cmath>
#include <numeric>

namespace sonicsim {

std::vector<int> RequestSplitter::split(const Module& module, std::int64_t inferences, RandomEngine& rng) {
  group_weights_.resize(static_cast<std::size_t>(module.groups));
  // sonicsim's own normal draw (not std::normal_distribution, whose output differs between standard
  // libraries).
  for (auto& weight : group_weights_)
    weight = module.group_spread > 0 ? std::exp(module.group_spread * standard_normal(rng)) : 1.0;
  const double weight_sum = std::accumulate(group_weights_.begin(), group_weights_.end(), 0.0);
  std::vector<int> requests;
  std::int64_t assigned = 0;
  double cumulative = 0.0;
  for (const double weight : group_weights_) {
    // Cumulative rounding keeps the total exact.
    cumulative += weight;
    const auto upto =
        static_cast<std::int64_t>(std::llround(static_cast<double>(inferences) * cumulative / weight_sum));
    std::int64_t in_group = upto - assigned;
    assigned = upto;
    while (in_group > 0) {
      const auto chunk = static_cast<int>(std::min<std::int64_t>(in_group, module.max_batch));
      requests.push_back(chunk);
      in_group -= chunk;
    }
  }
  return requests;
}

} // namespace sonicsim
