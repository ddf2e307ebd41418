#include "sim/policy/dynamic_batcher.hpp"

#include <algorithm>

namespace sonicsim {

int BatcherSettings::max_preferred_batch_size() const {
  if (preferred_batch_sizes.empty()) return max_batch_size;
  return *std::max_element(preferred_batch_sizes.begin(), preferred_batch_sizes.end());
}

bool BatcherSettings::is_preferred(int batch_size) const {
  return std::find(preferred_batch_sizes.begin(), preferred_batch_sizes.end(), batch_size) !=
         preferred_batch_sizes.end();
}

} // namespace sonicsim
