// The event calendar's queue (sim/kernel/event_queue.hpp): its lane for entries dated now must give up the
// entries in exactly the order one heap would, (date, scheduling order), whichever pushes it takes.
#include "sim/kernel/event_queue.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

using namespace sonicsim;

namespace {

// As the calendar's entries: an integer date and a scheduling order, unique and growing.
struct Entry {
  std::uint64_t date_key;
  std::uint64_t order;
  bool operator==(const Entry& other) const { return date_key == other.date_key && order == other.order; }
};
struct Earlier {
  bool operator()(const Entry& a, const Entry& b) const {
    return a.date_key < b.date_key || (a.date_key == b.date_key && a.order < b.order);
  }
};

} // namespace

TEST_CASE("event queue: entries dated now, in the lane, run after the heap's earlier ones and before later") {
  EventQueue<Entry, Earlier> queue;
  queue.push({5, 0}, false); // heap
  queue.push({3, 1}, true);  // now is 3: opens the lane
  queue.push({3, 2}, true);  // lane
  queue.push({2, 3}, false); // a date a little before now (the calendar's tolerance): heap
  queue.push({3, 4}, false); // same date as the lane and later: the lane takes it whatever the flag says
  queue.push({4, 5}, false); // heap
  CHECK(queue.size() == 6);
  std::vector<Entry> popped;
  while (!queue.empty()) {
    popped.push_back(queue.top());
    queue.pop();
  }
  CHECK(popped == std::vector<Entry>{{2, 3}, {3, 1}, {3, 2}, {3, 4}, {4, 5}, {5, 0}});
}

TEST_CASE("event queue: 50,000 pushes and pops as a calendar makes them match a sorted reference") {
  // A clock that moves to each popped entry's date (never back); pushes dated now (two in seven, as the
  // deferred calls' drains), a little before it (as the calendar's tolerance of rounding allows), or later by
  // a few or by many units, so that many tie and the scheduling order decides.
  std::mt19937_64 draw(11);
  std::uniform_int_distribution<int> kind(0, 6), step(1, 4), far(1, 1 << 20);
  EventQueue<Entry, Earlier> queue;
  std::vector<Entry> reference;
  std::uint64_t order = 0, now = 0;
  int mismatches = 0;
  for (int i = 0; i < 50000; ++i) {
    const int k = kind(draw);
    if (k <= 4 || reference.empty()) {
      std::uint64_t date = now;
      if (k == 2) date = now + static_cast<std::uint64_t>(step(draw));
      if (k == 3) date = now + static_cast<std::uint64_t>(far(draw));
      if (k == 4 && now >= 1) date = now - 1;
      const Entry entry{date, order++};
      queue.push(entry, date == now);
      reference.insert(std::upper_bound(reference.begin(), reference.end(), entry, Earlier{}), entry);
    } else {
      if (!(queue.top() == reference.front())) ++mismatches;
      now = std::max(now, reference.front().date_key);
      queue.pop();
      reference.erase(reference.begin());
    }
    if (queue.size() != reference.size()) ++mismatches;
  }
  while (!reference.empty()) {
    if (!(queue.top() == reference.front())) ++mismatches;
    queue.pop();
    reference.erase(reference.begin());
  }
  CHECK(mismatches == 0);
  CHECK(queue.empty());
}
