#include "sim/kernel/event_calendar.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/kernel/resource/Model.hpp>
#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#include <simgrid/s4u.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sg4 = simgrid::s4u;
using simgrid::kernel::timer::Timer;

namespace sonicsim {
namespace {

EventCalendar* current_calendar = nullptr; // the engine's (one engine per process)

} // namespace

EventCalendar::EventCalendar(Driver driver) : driver_(driver) {
  if (current_calendar) throw std::logic_error("EventCalendar: one per engine");
  network_model_ = dynamic_cast<simgrid::kernel::resource::Model*>(
      sg4::Engine::get_instance()->get_netzone_root()->get_network_model());
  if (!network_model_) throw std::logic_error("EventCalendar: SimGrid's network model is not a kernel Model");
  current_calendar = this;
  now_s_ = sg4::Engine::get_clock();
}

EventCalendar::~EventCalendar() {
  disarm_wakes();
  current_calendar = nullptr;
}

EventCalendar& EventCalendar::current() {
  if (!current_calendar) throw std::logic_error("EventCalendar: no calendar for this engine");
  return *current_calendar;
}

double EventCalendar::now_s() const {
  return simgrid_driving_ && !in_event_ ? sg4::Engine::get_clock() : now_s_;
}

std::uint32_t EventCalendar::take_slot() {
  if (!free_slots_.empty()) {
    const std::uint32_t slot = free_slots_.back();
    free_slots_.pop_back();
    return slot;
  }
  if (slot_count_ == (1u << slot_bits))
    throw std::runtime_error("the event calendar holds at most " + std::to_string(1u << slot_bits) +
                             " pending events; this run needs more (fewer clients per simulation, or "
                             "--campaign-windows)");
  if ((slot_count_ >> chunk_bits) == chunks_.size())
    chunks_.push_back(std::make_unique<Slot[]>(1u << chunk_bits));
  return slot_count_++;
}

CalendarEvent EventCalendar::push(double time_s, std::uint32_t slot) {
  const double now = now_s();
  if (!(time_s >= now - 1e-9 * std::max(1.0, std::fabs(now))))
    throw std::logic_error("EventCalendar: an event dated in the past");
  if (order_ == order_limit)
    throw std::runtime_error("the event calendar ran " + std::to_string(order_limit) +
                             " events, its limit for one run (--campaign-windows cuts a run into several)");
  const std::uint64_t key = date_key(time_s);
  pending_.push(Entry{key, (order_++ << slot_bits) | slot}, key == date_key(now));
  if (simgrid_driving_ && time_s <= drive_until_s_ && (wakes_.empty() || time_s < wakes_.front().first))
    arm_wake(time_s);
  return CalendarEvent{slot, slot_at(slot).generation};
}

void EventCalendar::cancel(CalendarEvent& event) {
  if (!event.pending()) return;
  Slot& slot = slot_at(event.slot);
  if (slot.generation == event.generation) {
    ++slot.generation; // the handle no longer matches
    slot.call.reset(); // the slot is freed when its entry comes up (drop_cancelled_top)
  }
  event = CalendarEvent{};
}

bool EventCalendar::drop_cancelled_top() {
  while (!pending_.empty() && slot_at(pending_.top().slot()).call.empty()) {
    free_slots_.push_back(pending_.top().slot());
    pending_.pop();
  }
  return !pending_.empty();
}

void EventCalendar::run_top() {
  const Entry entry = pending_.top();
  pending_.pop();
  Slot& slot = slot_at(entry.slot());
  ++slot.generation; // it runs: cancelling it now does nothing
  now_s_ = std::max(now_s_, date_from_key(entry.date_key));
  in_event_ = true;
  slot.call();
  in_event_ = false;
  slot.call.reset();
  free_slots_.push_back(entry.slot()); // only now: the call may have added events
  ++counts_.events;
  if (on_event_) on_event_(now_s_);
}

bool EventCalendar::simgrid_busy() const {
  return !network_model_->get_started_action_set()->empty();
}

void EventCalendar::bring_simgrid_to_now() {
  if (simgrid_driving_) return; // SimGrid's clock is now's
  next_end_known_ = false;      // what follows changes SimGrid's actions
  if (holding_clock_) return;   // before_solve_: its changes happen at SimGrid's clock
  // The own loop runs an event only before SimGrid's next action end (run), and no wake is armed: SimGrid
  // only moves its clock and its actions' progress. run_until stops within 1e-5 s of its date, and rounding
  // may leave the clock an ulp short: a few rounds.
  const std::uint64_t ends_before = simgrid_ends_;
  for (int round = 0; round < 8 && sg4::Engine::get_clock() < now_s_; ++round) {
    sg4::Engine::get_instance()->run_until(now_s_);
    ++counts_.simgrid_runs;
  }
  if (simgrid_ends_ != ends_before)
    throw std::logic_error(
        "EventCalendar: a SimGrid action ended while its clock was brought to an event's date");
}

void EventCalendar::simgrid_action_ended() {
  ++simgrid_ends_;
}

// The date of SimGrid's next action end (infinite with none), computed once per change of its actions.
double EventCalendar::simgrid_next_end_s() {
  if (!next_end_known_) {
    if (before_solve_ && !holding_clock_) {
      holding_clock_ = true;
      before_solve_();
      holding_clock_ = false;
    }
    const double clock_s = sg4::Engine::get_clock();
    const double delta_s = simgrid_busy() ? network_model_->next_occurring_event(clock_s) : -1.0;
    simgrid_next_end_s_ = delta_s >= 0 ? clock_s + delta_s : std::numeric_limits<double>::infinity();
    next_end_known_ = true;
  }
  return simgrid_next_end_s_;
}

void EventCalendar::run() {
  if (driver_ == Driver::simgrid) {
    simgrid_driving_ = true;
    drive_until_s_ = std::numeric_limits<double>::infinity();
    arm_head();
    sg4::Engine::get_instance()->run();
    simgrid_driving_ = false;
    disarm_wakes();
    now_s_ = std::max(now_s_, sg4::Engine::get_clock());
    return;
  }
  for (;;) {
    if (!drop_cancelled_top()) {
      if (!simgrid_busy()) break;
      let_simgrid_drive();
      continue;
    }
    // An event well before SimGrid's next action end runs without it: until then nothing SimGrid computes
    // changes but its actions' progress, which a flow's start or change brings to the date first. The margin
    // (1e-9 of the date, at least 1 ns) keeps an end that rounding could bring forward out of that step.
    const double event_s = date_from_key(pending_.top().date_key);
    if (!(event_s < simgrid_next_end_s() - 1e-9 * std::max(1.0, std::fabs(event_s)))) {
      let_simgrid_drive();
      continue;
    }
    ++counts_.own_events;
    run_top();
  }
}

// SimGrid has actions in flight: it runs to the calendar's next date or its own next action's end, whichever
// comes first, every event dated in between running on a wake; then the own loop looks again.
void EventCalendar::let_simgrid_drive() {
  const double clock_s = sg4::Engine::get_clock();
  double until_s = drop_cancelled_top() ? std::max(date_from_key(pending_.top().date_key), clock_s)
                                        : std::numeric_limits<double>::infinity();
  // An action ending in less than the clock's resolution still needs SimGrid's step to end: a date one ulp
  // ahead lets it take that step (SimGrid moves by the action's own delta, not to the date).
  const double next_end_s = simgrid_next_end_s();
  if (!std::isinf(next_end_s))
    until_s = std::min(
        until_s, std::max(next_end_s, std::nextafter(clock_s, std::numeric_limits<double>::infinity())));
  simgrid_driving_ = true;
  drive_until_s_ = until_s;
  arm_head();
  ++counts_.simgrid_runs;
  const std::uint64_t events_before = counts_.events;
  const std::size_t actions_before = network_model_->get_started_action_set()->size();
  if (std::isinf(until_s))
    sg4::Engine::get_instance()->run();
  else
    sg4::Engine::get_instance()->run_until(until_s);
  simgrid_driving_ = false;
  next_end_known_ = false;
  disarm_wakes();
  now_s_ = std::max(now_s_, sg4::Engine::get_clock());
  // A hang is a bug: said at once rather than looped on.
  const bool moved = sg4::Engine::get_clock() > clock_s || counts_.events > events_before ||
                     network_model_->get_started_action_set()->size() != actions_before;
  stalled_rounds_ = moved ? 0 : stalled_rounds_ + 1;
  if (stalled_rounds_ > 1000)
    throw std::logic_error(
        "EventCalendar: SimGrid made no progress in 1,000 rounds at t = " + std::to_string(clock_s) + " s");
}

void EventCalendar::run_due(double limit_s) {
  while (drop_cancelled_top() && date_from_key(pending_.top().date_key) <= limit_s)
    run_top();
}

void EventCalendar::arm_wake(double time_s) {
  Timer* timer = Timer::set(std::max(time_s, sg4::Engine::get_clock()), [this, time_s]() {
    // SimGrid deletes a timer once it has run.
    const auto self =
        std::find_if(wakes_.begin(), wakes_.end(), [time_s](const auto& w) { return w.first == time_s; });
    if (self != wakes_.end()) wakes_.erase(self);
    if (in_event_) throw std::logic_error("EventCalendar: a wake inside an event");
    run_due(time_s);
    arm_head();
  });
  wakes_.emplace_back(time_s, timer);
  std::sort(wakes_.begin(), wakes_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
}

void EventCalendar::arm_head() {
  if (!simgrid_driving_ || !drop_cancelled_top()) return;
  const double head_s = date_from_key(pending_.top().date_key);
  if (head_s > drive_until_s_ || (!wakes_.empty() && wakes_.front().first <= head_s)) return;
  arm_wake(head_s);
}

void EventCalendar::disarm_wakes() {
  for (const auto& [time_s, timer] : wakes_)
    timer->remove();
  wakes_.clear();
}

void EventCalendar::defer(OnceCall call) {
  deferred_.push_back(std::move(call));
  if (drain_armed_) return;
  drain_armed_ = true;
  at(now_s(), [this]() { run_deferred(); });
}

void EventCalendar::run_deferred() {
  // Calls deferred while these run go to the next drain (an event at the same date, run in the same step).
  drain_armed_ = false;
  running_deferred_.swap(deferred_);
  for (auto& call : running_deferred_)
    call();
  running_deferred_.clear();
}

} // namespace sonicsim
