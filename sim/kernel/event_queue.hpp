// The event calendar's pending entries (sim/kernel/event_calendar.hpp): a quaternary heap, and beside it a
// first-in-first-out lane for entries that share one date, pushed in scheduling order.
//
// Why a lane: about a quarter of a run's events are dated now (the deferred calls' drains, mostly: 5.5 of 22
// million pushes in a run of 5.4 million flows, measured). In the heap such an entry is the earliest of all:
// its push sifts up the whole depth and its pop sifts the last entry down the whole depth again. In the lane
// both are a few instructions.
//
// Why the order stays exactly the heap's: the lane only takes an entry whose date equals the date of the
// entries already in it (or, when it is empty, one the caller says is dated now), and a later push always
// has a later scheduling order, so the lane is sorted by (date, order) as the heap is. top() is the earlier
// of the two fronts: the merge of two sorted sequences, the same sequence one heap gives.
#pragma once

#include "sim/kernel/quaternary_heap.hpp"

#include <cstddef>
#include <vector>

namespace sonicsim {

// Entry has a `date_key` (integer ordered as the date); Less orders entries strictly and totally, by date
// first.
template <class Entry, class Less> class EventQueue {
public:
  bool empty() const { return heap_.empty() && lane_empty(); }
  std::size_t size() const { return heap_.size() + (lane_.size() - lane_head_); }

  // `dated_now`: the entry's date is the calendar's now. Only such an entry opens the lane (one dated later
  // would hold it shut to the many dated now until it ran); the order is right whichever opens it.
  void push(const Entry& entry, bool dated_now) {
    const bool joins_lane =
        lane_empty() ? dated_now : lane_.back().date_key == entry.date_key && less_(lane_.back(), entry);
    if (joins_lane)
      lane_.push_back(entry);
    else
      heap_.push(entry);
  }

  // The earliest entry (the queue must not be empty).
  const Entry& top() const {
    if (lane_empty()) return heap_.top();
    if (heap_.empty()) return lane_[lane_head_];
    return less_(heap_.top(), lane_[lane_head_]) ? heap_.top() : lane_[lane_head_];
  }

  void pop() {
    if (!lane_empty() && (heap_.empty() || !less_(heap_.top(), lane_[lane_head_]))) {
      if (++lane_head_ == lane_.size()) { // emptied: start again at the front, keeping the capacity
        lane_.clear();
        lane_head_ = 0;
      }
      return;
    }
    heap_.pop();
  }

private:
  bool lane_empty() const { return lane_head_ == lane_.size(); }
  QuaternaryHeap<Entry, Less> heap_;
  std::vector<Entry> lane_;
  std::size_t lane_head_ = 0;
  Less less_{};
};

} // namespace sonicsim
