// The event calendar's heap (sim/kernel/quaternary_heap.hpp): whatever the order of pushes and pops, it
// gives up its items in the order a sorted list would, ties of date broken by scheduling order.
#include "sim/kernel/quaternary_heap.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

using namespace sonicsim;

namespace {

using Item = std::pair<double, std::uint64_t>; // (date, scheduling order), as the calendar's entries
struct Earlier {
  bool operator()(const Item& a, const Item& b) const { return a < b; }
};

} // namespace

TEST_CASE("quaternary heap: a hand-made sequence comes out by date, equal dates first come first") {
  QuaternaryHeap<Item, Earlier> heap;
  const std::vector<Item> pushed{{3.0, 0}, {1.0, 1}, {2.0, 2}, {1.0, 3}, {0.5, 4}, {2.0, 5}, {9.0, 6}};
  for (const auto& item : pushed)
    heap.push(item);
  CHECK(heap.size() == 7);
  std::vector<Item> popped;
  while (!heap.empty()) {
    popped.push_back(heap.top());
    heap.pop();
  }
  CHECK(popped == std::vector<Item>{{0.5, 4}, {1.0, 1}, {1.0, 3}, {2.0, 2}, {2.0, 5}, {3.0, 0}, {9.0, 6}});
}

TEST_CASE("quaternary heap: 20,000 pushes and pops interleaved at random match a sorted reference") {
  // Dates drawn from few values, so that many tie and the scheduling order decides; the reference keeps the
  // pending items sorted and pops its front.
  std::mt19937_64 draw(7);
  std::uniform_int_distribution<int> date(0, 50), action(0, 2);
  QuaternaryHeap<Item, Earlier> heap;
  std::vector<Item> reference;
  std::uint64_t order = 0;
  int mismatches = 0;
  for (int step = 0; step < 20000; ++step) {
    if (action(draw) > 0 || reference.empty()) {
      const Item item{0.25 * date(draw), order++};
      heap.push(item);
      reference.insert(std::upper_bound(reference.begin(), reference.end(), item), item);
    } else {
      if (heap.top() != reference.front()) ++mismatches;
      heap.pop();
      reference.erase(reference.begin());
    }
    if (heap.size() != reference.size()) ++mismatches;
  }
  while (!reference.empty()) {
    if (heap.top() != reference.front()) ++mismatches;
    heap.pop();
    reference.erase(reference.begin());
  }
  CHECK(mismatches == 0);
  CHECK(heap.empty());
}
