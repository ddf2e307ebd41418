// KernelFlows' flows in SimGrid (kernel_flows.hpp): a flow's comm, or its place in a flow class (identical
// flows as one comm), and the classes through the targets' gateway while a target's NIC has room (slack
// links).
#include "sim/kernel/kernel_flows.hpp"

#include "sim/kernel/event_calendar.hpp"

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/kernel/resource/Model.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sg4 = simgrid::s4u;

namespace sonicsim {

namespace {
// The network action of a comm just started from the kernel: the newest in the model's started set (SimGrid
// appends an action there when it creates it). Checked against the comm's activity; pinned by
// tests/scenario/test_kernel_flows.cpp.
simgrid::kernel::resource::Action* action_of(simgrid::kernel::resource::Model& model, const void* activity) {
  auto* started = model.get_started_action_set();
  for (auto it = started->rbegin(); it != started->rend(); ++it)
    if (it->get_activity() == activity) return &*it;
  throw std::logic_error("KernelFlows: no network action for a comm just started");
}
} // namespace

void KernelFlows::start_in_simgrid(std::uint32_t id, double bytes) {
  const Flow& f = flows_[id];
  // Less than a byte left: SimGrid counts whole bytes, and the flow ends now.
  const auto payload = static_cast<std::uint64_t>(std::llround(std::max(0.0, bytes)));
  if (payload == 0) {
    finish(id, true);
    return;
  }
  EventCalendar::current().bring_simgrid_to_now(); // its clock may have stayed behind (event_calendar.hpp)
  if (settings_.flow_classes) {
    join_class(id, static_cast<double>(payload)); // whole bytes, as SimGrid would move them
    return;
  }
  const sg4::CommPtr comm = sg4::Comm::sendto_init(f.path->from, f.path->to);
  comm->set_payload_size(payload);
  comm->detach();
  in_simgrid_.emplace(comm->get_impl(), id);
  // A NIC left out of the route bounds the flow: its cap (never above CM02's own bound) is the bound.
  if (!settings_.host_bounds.empty())
    action_of(*network_model_, comm->get_impl())->set_bound(f.path->timing.cap_bytes_per_s);
}

KernelFlows::FlowClass& KernelFlows::class_on(const std::vector<LinkLoad*>& links, double cap_bytes_per_s,
                                              Path& carrier) {
  auto [it, made] = classes_.try_emplace(std::make_pair(links, cap_bytes_per_s));
  if (made) {
    it->second.path = &carrier;
    it->second.cap_bytes_per_s = cap_bytes_per_s;
    ++counts_.classes;
  }
  return it->second;
}

KernelFlows::FlowClass& KernelFlows::flow_class(Path& path) {
  if (!path.flow_class) {
    path.flow_class = &class_on(path.links, path.timing.cap_bytes_per_s, path);
    // Its members may go back through the gateway when the link has room again (ungroup).
    for (LinkLoad* link : path.slack)
      if (std::find(link->own_classes.begin(), link->own_classes.end(), path.flow_class) ==
          link->own_classes.end())
        link->own_classes.push_back(path.flow_class);
  }
  return *path.flow_class;
}

void KernelFlows::sync_class(FlowClass& c) {
  if (!c.action || c.members.empty()) return;
  EventCalendar::current().bring_simgrid_to_now(); // the comm's remains at now, not at a clock behind
  const double remains = c.action->get_remains();
  c.served_bytes += (c.synced_remains - remains) / static_cast<double>(c.members.size());
  c.synced_remains = remains;
}

bool KernelFlows::slack(const Path& path) const {
  return path.via_gateway && std::all_of(path.slack.begin(), path.slack.end(), [this](const LinkLoad* link) {
           return link->committed_bytes_per_s <= link->capacity_bytes_per_s ||
                  (settings_.check_rates && link->rates_fit); // checked before SimGrid's clock moves
         });
}

KernelFlows::FlowClass& KernelFlows::gateway_class(Path& path) {
  if (!path.gateway_class)
    path.gateway_class = &class_on(path.via_gateway->links, path.timing.cap_bytes_per_s, *path.via_gateway);
  return *path.gateway_class;
}

void KernelFlows::join_class(std::uint32_t id, double bytes) {
  Path& path = *flows_[id].path;
  if (!slack(path)) {
    enter_class(id, flow_class(path), bytes);
    return;
  }
  leave_out_slack(id);
  ++counts_.via_gateway;
  enter_class(id, gateway_class(path), bytes);
  count_gateway_member(id, +1);
}

void KernelFlows::leave_out_slack(std::uint32_t id) {
  Flow& f = flows_[id];
  f.via_gateway = true;
  for (LinkLoad* link : f.path->slack) {
    link->left_out_by.emplace_back(id, f.generation);
    ++link->left_out_count;
  }
}

void KernelFlows::enter_class(std::uint32_t id, FlowClass& c, double bytes) {
  sync_class(c); // what the members have received so far, at the old count
  Flow& f = flows_[id];
  f.in_class = &c;
  f.done_at = c.served_bytes + bytes;
  c.members.emplace(f.done_at, id);
  if (c.members.size() == 1) note_members(c);
  reshape_class(c);
}

double KernelFlows::leave_class(std::uint32_t id) {
  Flow& f = flows_[id];
  FlowClass& from = *f.in_class;
  sync_class(from);
  const double left_bytes = std::max(0.0, f.done_at - from.served_bytes);
  from.members.erase({f.done_at, id});
  f.in_class = nullptr;
  if (from.members.empty()) note_members(from);
  if (!from.members.empty()) {
    reshape_class(from);
  } else if (from.action) {
    // No member left: the comm ends at this date, and its end finds no member (on_class_done).
    from.synced_remains = 0.0;
    from.action->set_remains(0.0);
  }
  return left_bytes;
}

void KernelFlows::regroup(std::uint32_t id) {
  Flow& f = flows_[id];
  count_gateway_member(id, -1);
  const double left_bytes = leave_class(id);
  f.via_gateway = false;
  for (LinkLoad* link : f.path->slack)
    if (link->left_out_count > 0) --link->left_out_count;
  ++counts_.regrouped;
  enter_class(id, flow_class(*f.path), left_bytes);
}

void KernelFlows::ungroup(LinkLoad& link) {
  if (link.committed_bytes_per_s > link.capacity_bytes_per_s) return;
  link.rates_fit = true; // its caps fit again
  move_to_gateway(link);
}

// Called with served_bytes up to date (join_class syncs first; a new comm follows a member's end at once).
void KernelFlows::reshape_class(FlowClass& c) {
  if (c.members.empty()) return;
  EventCalendar::current().bring_simgrid_to_now();
  const auto k = static_cast<double>(c.members.size());
  const double first_left_bytes = std::max(c.members.begin()->first - c.served_bytes, 0.0);
  if (!c.action) {
    const sg4::CommPtr comm = sg4::Comm::sendto_init(c.path->from, c.path->to);
    comm->set_payload_size(std::max<std::uint64_t>(1, static_cast<std::uint64_t>(k * first_left_bytes)));
    comm->detach();
    c.action = action_of(*network_model_, comm->get_impl());
    class_comms_.emplace(comm->get_impl(), &c);
    ++counts_.class_comms;
  }
  // k members: k times a flow's weight and bound; the comm ends when the first member has its bytes.
  c.action->set_sharing_penalty(1.0 / k);
  c.action->set_bound(k * c.cap_bytes_per_s);
  c.synced_remains = k * first_left_bytes;
  c.action->set_remains(c.synced_remains);
}

void KernelFlows::on_class_done(FlowClass& c) {
  // Inside SimGrid's model update: the comm is finishing; members end after this step.
  c.action = nullptr;
  if (c.members.empty()) return;
  c.served_bytes = c.members.begin()->first;
  // Members whose bytes are all there (to well under a byte: SimGrid ends flows at whole-byte precision).
  const double done_at = c.served_bytes + 1e-6;
  while (!c.members.empty() && c.members.begin()->first <= done_at) {
    const std::uint32_t id = c.members.begin()->second;
    c.members.erase(c.members.begin());
    finish(id, true);
  }
  if (c.members.empty()) note_members(c);
  // The others go on in a new comm, started after this step (not inside SimGrid's update) at the same date.
  if (!c.members.empty())
    calendar::defer([this, &c]() {
      if (!c.action) reshape_class(c);
    });
}

} // namespace sonicsim
