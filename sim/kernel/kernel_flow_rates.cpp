// KernelFlows' links whose rates fit (kernel_flows.hpp): a target's NIC that its flows' caps overfill is left
// out of their SimGrid routes while SimGrid's solution has their rates fit it, checked before SimGrid's clock
// moves.
#include "sim/kernel/event_calendar.hpp"
#include "sim/kernel/kernel_flows.hpp"

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/kernel/resource/Model.hpp>

#include <algorithm>
#include <stdexcept>

namespace sg4 = simgrid::s4u;

namespace sonicsim {

namespace {
// A NIC whose own classes leave this share of it free takes its flows back through the gateway; one over it
// by more than the solver's rounding sends them to its own class. The gap keeps a NIC near full from moving
// its flows at every change.
constexpr double readmit_below = 0.9;
constexpr double overfull_above = 1.0 + 1e-9;
} // namespace

void KernelFlows::count_gateway_member(std::uint32_t id, int change) {
  const Flow& f = flows_[id];
  if (!f.in_class) return;
  for (LinkLoad* link : f.path->slack) {
    auto& members = link->gateway_members;
    const auto it = std::find_if(members.begin(), members.end(),
                                 [&f](const auto& entry) { return entry.first == f.in_class; });
    if (change > 0) {
      if (it == members.end())
        members.emplace_back(f.in_class, 1);
      else
        ++it->second;
    } else if (it == members.end()) {
      throw std::logic_error("KernelFlows: a gateway member that was not counted");
    } else if (--it->second == 0) {
      *it = members.back();
      members.pop_back();
    }
  }
}

void KernelFlows::note_members(FlowClass& c) {
  if (!settings_.check_rates) return;
  for (LinkLoad* link : c.path->slack) { // empty for a gateway class: it is no link's own
    auto& busy = link->own_busy;
    const auto it = std::find(busy.begin(), busy.end(), &c);
    if (c.members.empty() && it != busy.end()) {
      *it = busy.back();
      busy.pop_back();
    } else if (!c.members.empty() && it == busy.end()) {
      busy.push_back(&c);
    }
  }
}

// The bytes/s its flows receive at SimGrid's last solution: the fast ones their caps, each class its rate
// (a gateway class: its share, members on this link over all its members). A class between comms (a member
// just done, its next comm made after this step, at this date) moves nothing until then, and the comm it
// then makes is a change that this check follows before SimGrid's clock moves.
double KernelFlows::load_by_rates(const LinkLoad& link) const {
  const auto class_rate = [](const FlowClass& c) { return c.action ? c.action->get_rate() : 0.0; };
  double load = link.fast_bytes_per_s;
  for (const FlowClass* c : link.own_busy)
    load += class_rate(*c);
  for (const auto& [c, members] : link.gateway_members)
    if (!c->members.empty())
      load += class_rate(*c) * static_cast<double>(members) / static_cast<double>(c->members.size());
  return load;
}

void KernelFlows::regroup_left_out(LinkLoad& link) {
  for (const auto& [other, generation] : link.left_out_by)
    if (flows_[other].generation == generation && flows_[other].via_gateway) regroup(other);
  link.left_out_by.clear();
  link.left_out_count = 0;
}

void KernelFlows::move_to_gateway(LinkLoad& link) {
  // Its own classes with members (a copy: moving members changes the list); without the check of rates,
  // every own class.
  const std::vector<FlowClass*> classes = settings_.check_rates ? link.own_busy : link.own_classes;
  for (FlowClass* c : classes) {
    std::vector<std::uint32_t> movable;
    for (const auto& member : c->members)
      if (slack(*flows_[member.second].path)) movable.push_back(member.second);
    for (const std::uint32_t id : movable) {
      const double left_bytes = leave_class(id);
      leave_out_slack(id);
      ++counts_.ungrouped;
      enter_class(id, gateway_class(*flows_[id].path), left_bytes);
      count_gateway_member(id, +1);
    }
  }
}

void KernelFlows::note_commitment(LinkLoad& link) {
  if (!link.left_out || !settings_.check_rates) return;
  const bool over = link.committed_bytes_per_s > link.capacity_bytes_per_s;
  if (over && link.overcommitted_at < 0) {
    link.overcommitted_at = static_cast<int>(overcommitted_.size());
    overcommitted_.push_back(&link);
  } else if (!over && link.overcommitted_at >= 0) {
    LinkLoad* last = overcommitted_.back();
    overcommitted_[static_cast<std::size_t>(link.overcommitted_at)] = last;
    last->overcommitted_at = link.overcommitted_at;
    overcommitted_.pop_back();
    link.overcommitted_at = -1;
  }
}

void KernelFlows::check_left_out_links() {
  if (overcommitted_.empty()) return; // the usual case, at every change: nothing to sum (always, unchecked)
  // Each round moves one NIC's flows: out of the gateway when the rates overfill it (and then none is taken
  // back in this check), into it when its own classes leave a tenth of it free (it binds none of its flows,
  // so without it their rates stay and it is not sent out again). So the rounds end; a bound says so if not.
  bool moved_out = false; // in this check: then no NIC is taken back before the next
  for (int round = 0; round < 10000; ++round) {
    bool solved = false, moved = false;
    for (LinkLoad* link : overcommitted_) { // a link whose caps fit binds none of its flows
      const bool gateway = link->rates_fit && link->left_out_count > 0;
      const bool own = !link->rates_fit && !moved_out;
      if (!gateway && !own) continue;
      if (!solved) { // SimGrid solves (if anything changed since it last did)
        network_model_->next_occurring_event(sg4::Engine::get_clock());
        solved = true;
      }
      const double load = load_by_rates(*link);
      if (gateway && load > overfull_above * link->capacity_bytes_per_s) {
        link->rates_fit = false;
        regroup_left_out(*link);
        moved = moved_out = true;
      } else if (own && load <= readmit_below * link->capacity_bytes_per_s) {
        link->rates_fit = true;
        move_to_gateway(*link);
        moved = true;
      }
      if (moved) break; // the rates changed: solve again before the next NIC
    }
    if (!moved) return;
  }
  throw std::logic_error("KernelFlows: the NICs left out did not settle in 10,000 rounds");
}

} // namespace sonicsim
