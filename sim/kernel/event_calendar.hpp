// The simulator's event calendar: every dated step of the clients, the servers and the flows (a CPU piece's
// end, a batch's end, a fast-path flow's end, the calls deferred to the end of a step) is an event here, run
// in order of date and, at the same date, in the order scheduled (deterministic, whatever the queue's
// layout).
//
// Why not SimGrid's timers: SimGrid's engine pays a whole step for each date (every model asked for its next
// event and updated, signals, trash), ~2,800 instructions, even when none of its resources is in use or none
// of its actions can end; most of a run's events touch none (measured: 85 % of the flows of 400 ProtoDUNE
// clients start while SimGrid has no flow in flight, 98 % of the CMS ones). So the calendar has two drivers:
//
// - Own loop (the default when the run has no SimGrid actor). An event dated before SimGrid's next action end
//   (none while its network is idle) runs without SimGrid: until that end nothing SimGrid computes changes
//   but its actions' progress. SimGrid's clock stays behind, and is brought to the event's date
//   (Engine::run_until, no action ending in between) just before its actions are read or changed: a flow
//   handed to it, a class of flows reshaped (bring_simgrid_to_now). At an action's end SimGrid drives: the
//   calendar's next date becomes a SimGrid timer ("wake") and SimGrid runs to the end, running the events
//   dated up to it on wakes, exactly as when it drives throughout. The answer is the same either way, to the
//   rounding of its actions' progress (one step where it would take several).
// - SimGrid (scenarios with actors: background traffic; or
//   `platform.network.event_calendar: false`): SimGrid's engine runs the whole run and every date of the
//   calendar is a wake. tests/scenario/test_event_calendar.cpp compares the two event by event.
//
// One calendar per engine (SimGrid allows one engine per process); the actors reach it through calendar::.
#pragma once

#include "sim/kernel/date_key.hpp"
#include "sim/kernel/event_queue.hpp"
#include "sim/kernel/once_call.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

namespace simgrid::kernel::timer {
class Timer;
}
namespace simgrid::kernel::resource {
class Model;
}

namespace sonicsim {

// An event that may still be cancelled; a default one refers to none.
struct CalendarEvent {
  std::uint32_t slot = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t generation = 0;
  bool pending() const { return slot != std::numeric_limits<std::uint32_t>::max(); }
};

class EventCalendar {
public:
  enum class Driver { own_loop, simgrid };
  // Made after the engine and its platform; one at a time.
  explicit EventCalendar(Driver driver);
  ~EventCalendar();
  EventCalendar(const EventCalendar&) = delete;
  EventCalendar& operator=(const EventCalendar&) = delete;
  static EventCalendar& current();

  // The date of the event running, or inside SimGrid (an action's end, an actor) SimGrid's clock.
  double now_s() const;
  template <class F> CalendarEvent at(double time_s, F&& call) {
    const std::uint32_t slot = take_slot();
    slot_at(slot).call.emplace(std::forward<F>(call));
    return push(time_s, slot);
  }
  // Nothing happens if the event has run or was cancelled; `event` then refers to none.
  void cancel(CalendarEvent& event);
  // Runs `call` after the current step (the event running, or SimGrid's model update in which an action
  // ended), at the same date, in the order deferred: all calls deferred by then in one event; calls deferred
  // while they run go to the next such event. What a step's own callbacks must not do inside it (change
  // SimGrid's actions inside its update, answer a caller before it has returned) is deferred.
  void defer(OnceCall call);
  // Before SimGrid's actions are read or changed (a flow handed to it, a class reshaped): its clock brought
  // to now, where the own loop left it behind.
  void bring_simgrid_to_now();
  // Told by the flows when SimGrid ends one of their actions (a check: never while its clock is brought).
  void simgrid_action_ended();
  // Runs every event, and SimGrid's actions, to the end.
  void run();
  // Called after each event with its date (progress reports).
  void set_on_event(std::function<void(double)> on_event) { on_event_ = std::move(on_event); }
  // Own loop: called after SimGrid's actions changed, before its clock moves (once per change, when the
  // loop next asks for SimGrid's next action end). What it changes happens at SimGrid's clock: its calls
  // to bring_simgrid_to_now do not move it (kernel_flows.hpp, "Links whose rates fit").
  void set_before_solve(std::function<void()> before_solve) { before_solve_ = std::move(before_solve); }

  struct Counts {
    std::uint64_t events = 0;       // run
    std::uint64_t own_events = 0;   // of which run by the own loop, before SimGrid's next action end
    std::uint64_t simgrid_runs = 0; // times SimGrid drove (run_until), idle clock moves included
  };
  const Counts& counts() const { return counts_; }

private:
  // A pending event's call. A cancelled one keeps its slot, with an empty call, until its entry comes up
  // (an entry then always names its own event: no generation in the entry).
  struct Slot {
    OnceCall call;
    std::uint32_t generation = 0; // for the handles: bumped when the event runs or is cancelled
  };
  // Slots in fixed chunks: a slot stays in place while its call runs and others are added, and its address
  // is a shift and a mask (a std::deque of 80-byte slots divides by its block's count on every access).
  static constexpr unsigned chunk_bits = 10;
  Slot& slot_at(std::uint32_t slot) { return chunks_[slot >> chunk_bits][slot & ((1u << chunk_bits) - 1)]; }
  // An entry in 16 bytes, four to a cache line: the date as an integer that orders as the date does
  // (date_key.hpp), and the scheduling order (ties run first come, first served) above the slot. Ordered by
  // date, then by scheduling order (unique, so the slot's bits never decide): a strict total order of
  // integer compares.
  static constexpr unsigned slot_bits = 26; // 67 million pending events (5 GB of slots)
  static constexpr std::uint64_t order_limit = std::uint64_t{1} << (64 - slot_bits); // 2.7e11 events a run
  struct Entry {
    std::uint64_t date_key;
    std::uint64_t order_and_slot;
    std::uint32_t slot() const {
      return static_cast<std::uint32_t>(order_and_slot & ((1u << slot_bits) - 1));
    }
  };
  struct Earlier {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.date_key < b.date_key || (a.date_key == b.date_key && a.order_and_slot < b.order_and_slot);
    }
  };
  std::uint32_t take_slot();
  CalendarEvent push(double time_s, std::uint32_t slot);
  bool drop_cancelled_top(); // true while an event is left
  void run_top();
  void run_due(double limit_s); // on a wake: every event dated up to limit_s
  bool simgrid_busy() const;
  double simgrid_next_end_s();
  void let_simgrid_drive();
  void arm_wake(double time_s);
  void arm_head();
  void disarm_wakes();
  void run_deferred();

  Driver driver_;
  simgrid::kernel::resource::Model* network_model_ = nullptr;
  std::vector<std::unique_ptr<Slot[]>> chunks_;
  std::uint32_t slot_count_ = 0;
  std::vector<std::uint32_t> free_slots_;
  EventQueue<Entry, Earlier> pending_;
  std::uint64_t order_ = 0;
  double now_s_ = 0.0;
  bool in_event_ = false;
  bool simgrid_driving_ = false;
  double drive_until_s_ = 0.0;
  int stalled_rounds_ = 0; // SimGrid drove without moving its clock, an action or an event
  bool next_end_known_ = false;
  double simgrid_next_end_s_ = 0.0; // when next_end_known_
  std::uint64_t simgrid_ends_ = 0;
  std::vector<std::pair<double, simgrid::kernel::timer::Timer*>> wakes_; // armed, not run yet
  std::function<void(double)> on_event_;
  std::function<void()> before_solve_;
  bool holding_clock_ = false; // inside before_solve_
  std::vector<OnceCall> deferred_, running_deferred_;
  bool drain_armed_ = false; // an event to run deferred_ is scheduled
  Counts counts_;
};

// The current calendar's clock and events, for the actors.
namespace calendar {
inline double now_s() {
  return EventCalendar::current().now_s();
}
template <class F> CalendarEvent at(double time_s, F&& call) {
  return EventCalendar::current().at(time_s, std::forward<F>(call));
}
inline void cancel(CalendarEvent& event) {
  EventCalendar::current().cancel(event);
}
inline void defer(OnceCall call) {
  EventCalendar::current().defer(std::move(call));
}
} // namespace calendar

} // namespace sonicsim
