// KernelFlows' one full link (kernel_flows.hpp): a link that only its own flows' caps overfill, while each of
// them has room everywhere else on its path, shared by water-filling without SimGrid's solver.
//
// Why it is exact: every other link on those flows' paths carries caps that fit it, so it binds none of them
// at any rates up to their caps; max-min sharing of the whole system is then max-min sharing of this link
// alone with each flow bounded by its cap, which gives each flow min(cap, level), the level filling the link
// (the same argument as for slack links). CM02 as the simulator runs it gives every flow the same weight
// (flow classes rely on the same), so one level serves all.
#include "sim/kernel/event_calendar.hpp"
#include "sim/kernel/kernel_flows.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sonicsim {

namespace {
// Bytes under which a member counts as done when its group's end comes: the served bytes are a running sum of
// rate x time, exact to its last bits.
double done_tolerance_bytes(double served_bytes) {
  return 1e-6 + 1e-12 * served_bytes;
}
} // namespace

bool KernelFlows::can_share(const LinkLoad& link) const {
  if (!settings_.one_full_link || link.other_traffic || link.crossed_by_shared > 0) return false;
  const std::uint32_t shared = link.shared ? link.shared->members + link.shared->waiting : 0;
  return link.flow_count == link.fast_count + shared + 1; // the new flow is counted already
}

void KernelFlows::share(LinkLoad& link) {
  if (!link.shared) {
    SharedLink& shared = shared_by_link_[&link];
    shared.link = &link;
    shared.updated_s = calendar::now_s();
    link.shared = &shared;
    active_shared_.push_back(&shared);
  }
  // Its fast flows are shared from now on, with the bytes they have left.
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> fast = std::move(link.fast);
  link.fast.clear();
  for (const auto& [id, generation] : fast) {
    Flow& f = flows_[id];
    if (f.generation != generation || !f.fast) continue;
    ++counts_.shared;
    const double sending_since_s = leave_fast_path(id);
    const double now_s = calendar::now_s();
    if (now_s < sending_since_s) {
      wait_to_share(id, *link.shared, sending_since_s, f.bytes);
      continue;
    }
    f.shared = link.shared;
    mark_crossed(f, +1);
    join_shared(id, f.bytes - f.path->timing.cap_bytes_per_s * (now_s - sending_since_s));
  }
}

void KernelFlows::wait_to_share(std::uint32_t id, SharedLink& shared, double sending_since_s, double bytes) {
  Flow& f = flows_[id];
  f.shared = &shared;
  f.waiting = true;
  ++shared.waiting;
  shared.waiting_flows.push_back(id);
  mark_crossed(f, +1);
  calendar::at(sending_since_s, [this, id, bytes]() { start_shared(id, bytes); });
}

void KernelFlows::start_shared(std::uint32_t id, double bytes) {
  Flow& f = flows_[id];
  if (!f.shared) { // its link went to SimGrid meanwhile
    start_in_simgrid(id, bytes);
    return;
  }
  SharedLink& shared = *f.shared;
  f.waiting = false;
  --shared.waiting;
  auto& waiting = shared.waiting_flows;
  waiting.erase(std::find(waiting.begin(), waiting.end(), id));
  join_shared(id, bytes);
}

void KernelFlows::join_shared(std::uint32_t id, double bytes) {
  Flow& f = flows_[id];
  SharedLink& shared = *f.shared;
  advance(shared);
  SharedLink::Group& group = shared.groups[f.path->timing.cap_bytes_per_s];
  f.done_at = group.served_bytes + std::max(0.0, bytes);
  group.members.emplace(f.done_at, id);
  ++shared.members;
  fill_rates(shared);
  schedule_next_end(shared);
}

void KernelFlows::mark_crossed(const Flow& f, int change) {
  for (LinkLoad* link : f.path->links)
    if (link != f.shared->link)
      link->crossed_by_shared =
          static_cast<std::uint32_t>(static_cast<int>(link->crossed_by_shared) + change);
}

void KernelFlows::advance(SharedLink& shared) {
  const double now_s = calendar::now_s();
  const double elapsed_s = now_s - shared.updated_s;
  if (elapsed_s > 0)
    for (auto& [cap, group] : shared.groups)
      group.served_bytes += group.rate_bytes_per_s * elapsed_s;
  shared.updated_s = std::max(shared.updated_s, now_s);
}

// Water-filling: the groups by cap, lowest first; each gets its cap while that is under an even split of what
// is left, and from the first that does not, every flow gets the even split (which then stays the same).
void KernelFlows::fill_rates(SharedLink& shared) {
  double left_bytes_per_s = shared.link->capacity_bytes_per_s;
  double flows_left = shared.members;
  for (auto& [cap, group] : shared.groups) {
    const auto n = static_cast<double>(group.members.size());
    if (n == 0) continue;
    const double even = left_bytes_per_s / flows_left;
    group.rate_bytes_per_s = std::min(cap, even);
    left_bytes_per_s -= group.rate_bytes_per_s * n;
    flows_left -= n;
  }
}

void KernelFlows::schedule_next_end(SharedLink& shared) {
  calendar::cancel(shared.next_end);
  double soonest_s = std::numeric_limits<double>::infinity();
  for (const auto& [cap, group] : shared.groups)
    if (!group.members.empty() && group.rate_bytes_per_s > 0)
      soonest_s = std::min(soonest_s, shared.updated_s +
                                          std::max(0.0, group.members.begin()->first - group.served_bytes) /
                                              group.rate_bytes_per_s);
  if (std::isfinite(soonest_s))
    shared.next_end = calendar::at(soonest_s, [this, &shared]() {
      shared.next_end = CalendarEvent{};
      on_shared_end(shared);
    });
}

void KernelFlows::on_shared_end(SharedLink& shared) {
  advance(shared);
  std::vector<std::uint32_t> ended;
  // The soonest member was due now: it ends whatever the rounding left of it (so that time always moves on).
  SharedLink::Group* soonest = nullptr;
  double soonest_left_s = std::numeric_limits<double>::infinity();
  for (auto& [cap, group] : shared.groups) {
    if (group.members.empty() || !(group.rate_bytes_per_s > 0)) continue;
    const double left_s = (group.members.begin()->first - group.served_bytes) / group.rate_bytes_per_s;
    if (left_s < soonest_left_s) soonest_left_s = left_s, soonest = &group;
  }
  for (auto& [cap, group] : shared.groups) {
    const double done_at = group.served_bytes + done_tolerance_bytes(group.served_bytes);
    while (!group.members.empty() &&
           (group.members.begin()->first <= done_at || (&group == soonest && ended.empty()))) {
      ended.push_back(group.members.begin()->second);
      group.members.erase(group.members.begin());
    }
    if (group.members.empty()) group.served_bytes = 0.0;
  }
  for (const std::uint32_t id : ended) {
    mark_crossed(flows_[id], -1);
    flows_[id].shared = nullptr;
    --shared.members;
  }
  if (shared.members == 0 && shared.waiting == 0) {
    stop_sharing(shared);
  } else {
    fill_rates(shared);
    schedule_next_end(shared);
  }
  // Every end is booked before any callback runs (they may start flows on this link).
  for (const std::uint32_t id : ended)
    finish(id, true);
}

void KernelFlows::stop_sharing(SharedLink& shared) {
  calendar::cancel(shared.next_end);
  shared.link->shared = nullptr;
  active_shared_.erase(std::find(active_shared_.begin(), active_shared_.end(), &shared));
}

void KernelFlows::unshare(SharedLink& shared) {
  advance(shared);
  for (auto& [cap, group] : shared.groups) {
    for (const auto& [done_at, id] : group.members) {
      mark_crossed(flows_[id], -1);
      flows_[id].shared = nullptr;
      ++counts_.unshared;
      start_in_simgrid(id, done_at - group.served_bytes);
    }
    group.members.clear();
    group.served_bytes = 0.0;
  }
  // Those paying their latency enter SimGrid when they start sending (start_shared).
  for (const std::uint32_t id : shared.waiting_flows) {
    mark_crossed(flows_[id], -1);
    flows_[id].shared = nullptr;
    flows_[id].waiting = false;
    ++counts_.unshared;
  }
  shared.waiting_flows.clear();
  shared.members = 0;
  shared.waiting = 0;
  stop_sharing(shared);
}

void KernelFlows::unshare_crossing(LinkLoad& link) {
  if (link.shared) unshare(*link.shared);
  if (link.crossed_by_shared == 0) return;
  const auto crosses = [&link, this](const SharedLink& shared) {
    const auto on_path = [&link, this](std::uint32_t id) {
      const auto& links = flows_[id].path->links;
      return std::find(links.begin(), links.end(), &link) != links.end();
    };
    for (const auto& [cap, group] : shared.groups)
      for (const auto& member : group.members)
        if (on_path(member.second)) return true;
    return std::any_of(shared.waiting_flows.begin(), shared.waiting_flows.end(), on_path);
  };
  const std::vector<SharedLink*> active = active_shared_;
  for (SharedLink* shared : active)
    if (shared->link->shared == shared && crosses(*shared)) unshare(*shared);
}

} // namespace sonicsim
