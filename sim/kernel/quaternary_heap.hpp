// A min-heap with four children per node, for the event calendar (sim/kernel/event_calendar.hpp).
//
// Why not std::push_heap / std::pop_heap (a binary heap): a run keeps a few thousand pending events, and
// each pop walks the whole depth, comparing two children per level and missing the cache on each. Four
// children per node halve the depth, and the four sit in one or two cache lines, so a pop touches half as
// many lines for about the same comparisons; a push (a sift up) does half the moves. The order popped is the
// same for any heap layout as long as `Less` is a strict total order (the calendar's (date, scheduling
// order) is), so a run's events, and its outputs, do not depend on which heap holds them.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace sonicsim {

template <class T, class Less> class QuaternaryHeap {
public:
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const T& top() const { return items_.front(); }

  void push(T item) {
    // Sift up with a hole: each parent that is later moves down once, the item is written once.
    std::size_t hole = items_.size();
    items_.emplace_back();
    while (hole > 0) {
      const std::size_t parent = (hole - 1) / 4;
      if (!less_(item, items_[parent])) break;
      items_[hole] = std::move(items_[parent]);
      hole = parent;
    }
    items_[hole] = std::move(item);
  }

  // Removes the top (the heap must not be empty).
  void pop() {
    T last = std::move(items_.back());
    items_.pop_back();
    const std::size_t n = items_.size();
    if (n == 0) return;
    // Sift down from the root with a hole: the least of up to four children moves up while it is before
    // `last`.
    std::size_t hole = 0;
    for (;;) {
      const std::size_t first = 4 * hole + 1;
      if (first >= n) break;
      const std::size_t end = first + 4 < n ? first + 4 : n;
      std::size_t least = first;
      for (std::size_t child = first + 1; child < end; ++child)
        if (less_(items_[child], items_[least])) least = child;
      if (!less_(items_[least], last)) break;
      items_[hole] = std::move(items_[least]);
      hole = least;
    }
    items_[hole] = std::move(last);
  }

private:
  std::vector<T> items_;
  Less less_{};
};

} // namespace sonicsim
