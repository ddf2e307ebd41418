#include "sim/planning/boundary_search.hpp"

#include <algorithm>
#include <stdexcept>

namespace sonicsim::planning {
namespace {

// Up to `count` untested indices spread evenly over the open interval (low, high).
std::vector<int> spread_between(int low, int high, int count, const std::map<int, bool>& evaluated) {
  std::vector<int> out;
  const int gap = high - low - 1;
  for (int k = 1; k <= count && k <= gap; ++k) {
    const int index =
        low + static_cast<int>(static_cast<long long>(k) * (gap + 1) / (std::min(count, gap) + 1));
    if (index > low && index < high && !evaluated.count(index) &&
        std::find(out.begin(), out.end(), index) == out.end())
      out.push_back(index);
  }
  if (out.empty())
    for (int index = low + 1; index < high; ++index)
      if (!evaluated.count(index)) return {index};
  return out;
}

} // namespace

BoundarySearch find_first_true(int lo, int hi, int start, int batch,
                               const std::function<std::vector<bool>(const std::vector<int>&)>& evaluate) {
  if (lo > hi) throw std::invalid_argument("find_first_true: empty range");
  batch = std::max(batch, 1);
  start = std::clamp(start, lo, hi);
  BoundarySearch search;
  std::vector<int> next;
  for (int index = start - 1; index <= start + 1; ++index)
    if (index >= lo && index <= hi) next.push_back(index);
  while (!next.empty()) {
    const std::vector<bool> results = evaluate(next);
    if (results.size() != next.size()) throw std::logic_error("find_first_true: one result per index");
    for (std::size_t k = 0; k < next.size(); ++k)
      search.evaluated[next[k]] = results[k];
    ++search.batches;
    next.clear();

    std::optional<int> first_true;
    for (const auto& [index, ok] : search.evaluated)
      if (ok) {
        first_true = index;
        break;
      }
    const int lowest = search.evaluated.begin()->first;
    const int highest = search.evaluated.rbegin()->first;
    if (!first_true) { // all false so far: go up
      for (int index = highest + 1; index <= hi && static_cast<int>(next.size()) < batch; ++index)
        next.push_back(index);
      continue;
    }
    if (*first_true == lo) break;
    const auto below = search.evaluated.find(*first_true - 1);
    if (below != search.evaluated.end()) break; // a known false right below the first true: the boundary
    // The largest known false below the first true, if any.
    std::optional<int> last_false;
    for (const auto& [index, ok] : search.evaluated)
      if (!ok && index < *first_true) last_false = index;
    if (!last_false) { // all true so far: go down
      for (int index = lowest - 1; index >= lo && static_cast<int>(next.size()) < batch; --index)
        next.push_back(index);
      continue;
    }
    next = spread_between(*last_false, *first_true, batch, search.evaluated);
  }
  for (const auto& [index, ok] : search.evaluated)
    if (ok && (index == lo || (search.evaluated.count(index - 1) && !search.evaluated.at(index - 1)))) {
      search.first_true = index;
      break;
    }
  return search;
}

} // namespace sonicsim::planning
