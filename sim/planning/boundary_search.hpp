// The search behind `sonicsim plan`: the first index at which a monotone test turns true (false ... false
// true ... true), where each test is a simulation. Tests run in batches (one batch = runs in parallel child
// processes), starting around an analytic estimate, so a plan costs a few runs near the answer instead of a
// sweep. Pure code: the caller supplies the evaluation.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace sonicsim::planning {

struct BoundarySearch {
  std::optional<int> first_true; // none: false up to `hi`
  std::map<int, bool> evaluated; // every index tested, with its result
  int batches = 0;
};

// Tests indices in [lo, hi]: first start - 1, start, start + 1, then `batch` at a time upward while all are
// false, downward while all are true, and between the last false and the first true when they are not
// neighbours. The answer is the smallest true index whose lower neighbour is false (or which is lo).
// Simulated tests are noisy, so a false above the answer can remain in `evaluated`; it is evidence, not
// ignored.
BoundarySearch find_first_true(int lo, int hi, int start, int batch,
                               const std::function<std::vector<bool>(const std::vector<int>&)>& evaluate);

} // namespace sonicsim::planning
