#include "sim/kernel/kernel_flows.hpp"

#include "sim/kernel/event_calendar.hpp"

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#include <xbt/config.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <unordered_set>

namespace sg4 = simgrid::s4u;

namespace sonicsim {
namespace {

KernelFlows* current = nullptr; // the engine's (one engine per process)

} // namespace

KernelFlows::KernelFlows(FlowSettings settings) : settings_(std::move(settings)) {
  if (current) throw std::logic_error("KernelFlows: one per engine");
  current = this;
  // The latency event and the fast path are CM02 without correction factors and without cross traffic (what
  // the simulator configures): a flow alone is then latency + bytes / cap. Another network model or factor
  // given with --cfg keeps SimGrid's own latency and every flow in SimGrid.
  exact_cm02_ = simgrid::config::get_value<std::string>("network/model") == "CM02" &&
                simgrid::config::is_default("network/latency-factor") &&
                simgrid::config::is_default("network/bandwidth-factor") &&
                simgrid::config::is_default("network/weight-S") &&
                !simgrid::config::get_value<bool>("network/crosstraffic");
  network_model_ = dynamic_cast<simgrid::kernel::resource::Model*>(
      sg4::Engine::get_instance()->get_netzone_root()->get_network_model());
  if (!network_model_) throw std::logic_error("KernelFlows: SimGrid's network model is not a kernel Model");
  if (!exact_cm02_) {
    settings_.fast_path = false;
    settings_.flow_classes = false;
  }
  if (!settings_.fast_path) settings_.one_full_link = false;
  if (!exact_cm02_) return;
  // A class's comm is told how many bytes it has left (Action::set_remains); SimGrid reads that at its next
  // step only when it updates every action (network/optim:Full, which the simulator sets). With the lazy heap
  // of completion dates, every flow gets its own comm.
  if (simgrid::config::get_value<std::string>("network/optim") != "Full") settings_.flow_classes = false;
  // SimGrid pays no latency for the flows started here: they have paid it already, as an event. (CM02 reads
  // the TCP window bound from the path's latency before this factor applies.)
  sg4::Engine::get_instance()->get_netzone_root()->get_network_model()->set_lat_factor_cb(
      [others = settings_.other_senders](double, const sg4::Host* from, const sg4::Host*,
                                         const std::vector<sg4::Link*>&,
                                         const std::unordered_set<sg4::NetZone*>&) {
        return std::find(others.begin(), others.end(), from) != others.end() ? 1.0 : 0.0;
      });
  static bool connected = false;
  if (connected) return;
  connected = true;
  sg4::Link::on_communication_state_change_cb(
      [](simgrid::kernel::resource::NetworkAction& network_action, simgrid::kernel::resource::Action::State) {
        // NetworkAction is SimGrid-internal; its first (and only) base is the public Action.
        const auto& action = reinterpret_cast<const simgrid::kernel::resource::Action&>(network_action);
        if (current && action.get_state() == simgrid::kernel::resource::Action::State::FINISHED)
          current->on_state_change(action.get_activity());
      });
}

KernelFlows::~KernelFlows() {
  current = nullptr;
}

KernelFlows::Path& KernelFlows::path(sg4::Host* from, sg4::Host* to) {
  const auto key = std::make_pair(static_cast<const void*>(from), static_cast<const void*>(to));
  const auto found = paths_.find(key);
  if (found != paths_.end()) return found->second;
  Path& p = paths_[key];
  p.from = from;
  p.to = to;
  std::vector<sg4::Link*> links;
  double simgrid_latency_s = 0.0;
  from->route_to(to, links, &simgrid_latency_s);
  p.timing.latency_s = simgrid_latency_s;
  double cap = std::numeric_limits<double>::infinity();
  for (sg4::Link* link : links) {
    LinkLoad& load = links_[link];
    load.capacity_bytes_per_s = link->get_bandwidth();
    p.links.push_back(&load);
    cap = std::min(cap, link->get_bandwidth());
  }
  // CM02's TCP-gamma bound: window / (2 x one-way latency), i.e. window / RTT.
  if (settings_.tcp_window_bytes > 0 && p.timing.latency_s > 0)
    cap = std::min(cap, settings_.tcp_window_bytes / (2.0 * p.timing.latency_s));
  // A NIC left out of the routes because it carries one flow at a time is that flow's bound.
  for (const sg4::Host* host : {from, to})
    if (const auto bound = settings_.host_bounds.find(host); bound != settings_.host_bounds.end())
      cap = std::min(cap, bound->second);
  p.timing.cap_bytes_per_s = cap;
  // A target's flows may leave its NIC out while it has room (slack links, kernel_flows.hpp).
  if (settings_.flow_classes && settings_.fast_path)
    for (const auto& [host, gateway] : settings_.gateways) {
      if (host != from && host != to) continue;
      // `p` stays valid as the gateway's path is added (std::map keeps its elements in place).
      Path& alternative = host == to ? path(from, gateway) : path(gateway, to);
      for (LinkLoad* link : p.links)
        if (std::find(alternative.links.begin(), alternative.links.end(), link) == alternative.links.end()) {
          p.slack.push_back(link);
          link->left_out = true;
        }
      if (!p.slack.empty()) p.via_gateway = &alternative;
      return p;
    }
  return p;
}

FlowTiming KernelFlows::timing(sg4::Host* from, sg4::Host* to) {
  return path(from, to).timing;
}

void KernelFlows::add_other_traffic(sg4::Host* from, sg4::Host* to, double peak_bytes_per_s) {
  for (LinkLoad* link : path(from, to).links) {
    link->committed_bytes_per_s += peak_bytes_per_s;
    link->other_traffic = true;
  }
}

std::uint32_t KernelFlows::allocate() {
  if (!free_flows_.empty()) {
    const std::uint32_t flow = free_flows_.back();
    free_flows_.pop_back();
    return flow;
  }
  flows_.emplace_back();
  return static_cast<std::uint32_t>(flows_.size() - 1);
}

void KernelFlows::release(std::uint32_t flow) {
  Flow& f = flows_[flow];
  ++f.generation; // stale entries in the links' fast lists no longer match
  f.fast = false;
  f.end_event = CalendarEvent{};
  f.done.reset();
  f.in_class = nullptr;
  f.via_gateway = false;
  f.shared = nullptr;
  f.waiting = false;
  free_flows_.push_back(flow);
}

void KernelFlows::start(Path* path, double bytes, OnceCall done) {
  const std::uint32_t id = allocate();
  Flow& f = flows_[id];
  f.path = path;
  f.bytes = bytes;
  f.start_s = calendar::now_s();
  f.done = std::move(done);
  const FlowTiming timing = f.path->timing;
  bool fits = settings_.fast_path;
  LinkLoad* full = nullptr; // the one link it overfills, if only one
  int full_links = 0;
  if (settings_.fast_path) {
    for (LinkLoad* link : f.path->links) {
      link->committed_bytes_per_s += timing.cap_bytes_per_s;
      ++link->flow_count;
      if (link->committed_bytes_per_s > link->capacity_bytes_per_s) {
        fits = false;
        full = link;
        ++full_links;
      }
      note_commitment(*link);
    }
  }
  if (fits) {
    // Every link of the path has room for every flow on it at its cap: this one gets its cap throughout.
    f.fast = true;
    for (LinkLoad* link : f.path->links) {
      link->fast.emplace_back(id, f.generation);
      ++link->fast_count;
      link->fast_bytes_per_s += timing.cap_bytes_per_s;
    }
    f.end_event = calendar::at(f.start_s + timing.latency_s + bytes / timing.cap_bytes_per_s, [this, id]() {
      flows_[id].end_event = CalendarEvent{};
      // An event runs between kernel steps, outside SimGrid's model update: the callback can run now.
      finish(id, false);
    });
    ++counts_.fast;
    return;
  }
  if (full_links == 1 && can_share(*full)) {
    // Its one full link binds it and every flow there, and nothing else does: shared there, after its
    // latency.
    share(*full);
    ++counts_.fast;
    ++counts_.shared;
    if (timing.latency_s > 0) {
      wait_to_share(id, *full->shared, f.start_s + timing.latency_s, bytes);
    } else {
      f.shared = full->shared;
      mark_crossed(f, +1);
      join_shared(id, bytes);
    }
    return;
  }
  ++counts_.simgrid;
  if (settings_.fast_path) {
    // The links this flow overfills are SimGrid's from now on, with every fast flow on them (and every flow
    // shared on one full link that crosses them).
    for (LinkLoad* link : f.path->links) {
      if (link->committed_bytes_per_s <= link->capacity_bytes_per_s) continue;
      if (settings_.one_full_link) unshare_crossing(*link);
      for (const auto& [other, generation] : link->fast)
        if (flows_[other].generation == generation && flows_[other].fast) hand_over(other);
      link->fast.clear();
      // No longer slack by its caps: the flows that left it out go to their target's own class, unless its
      // rates are checked (check_left_out_links, before SimGrid's clock moves).
      if (!(settings_.check_rates && link->rates_fit)) regroup_left_out(*link);
    }
  }
  // Its latency first, then its bytes in SimGrid (which, outside exact CM02, pays the latency itself).
  if (timing.latency_s > 0 && exact_cm02_)
    calendar::at(f.start_s + timing.latency_s, [this, id, bytes]() { start_in_simgrid(id, bytes); });
  else
    start_in_simgrid(id, bytes);
}

double KernelFlows::leave_fast_path(std::uint32_t id) {
  Flow& f = flows_[id];
  f.fast = false;
  for (LinkLoad* link : f.path->links) {
    --link->fast_count;
    link->fast_bytes_per_s -= f.path->timing.cap_bytes_per_s;
  }
  calendar::cancel(f.end_event);
  return f.start_s + f.path->timing.latency_s;
}

void KernelFlows::hand_over(std::uint32_t id) {
  Flow& f = flows_[id];
  ++counts_.handed;
  const FlowTiming timing = f.path->timing;
  const double now_s = calendar::now_s();
  const double sending_since_s = leave_fast_path(id);
  if (now_s < sending_since_s) {
    // Still paying its latency: it enters SimGrid when it starts sending, with all its bytes.
    calendar::at(sending_since_s, [this, id]() { start_in_simgrid(id, flows_[id].bytes); });
    return;
  }
  start_in_simgrid(id, f.bytes - timing.cap_bytes_per_s * (now_s - sending_since_s));
}

void KernelFlows::finish(std::uint32_t id, bool defer_callback) {
  Flow& f = flows_[id];
  if (settings_.fast_path) {
    for (LinkLoad* link : f.path->links) {
      const bool was_full = link->committed_bytes_per_s > link->capacity_bytes_per_s;
      link->committed_bytes_per_s -= f.path->timing.cap_bytes_per_s;
      --link->flow_count;
      note_commitment(*link);
      // Room again: its targets' flows may leave it out, after this step (this may be inside SimGrid's
      // update).
      if (was_full && link->committed_bytes_per_s <= link->capacity_bytes_per_s &&
          !link->own_classes.empty() && !link->ungroup_deferred) {
        link->ungroup_deferred = true;
        calendar::defer([this, link]() {
          link->ungroup_deferred = false;
          ungroup(*link);
        });
      }
      if (f.fast) {
        --link->fast_count;
        link->fast_bytes_per_s -= f.path->timing.cap_bytes_per_s;
      }
      drop_stale(link->fast, link->fast_count, &Flow::fast, id);
    }
    if (f.via_gateway) {
      count_gateway_member(id, -1);
      for (LinkLoad* link : f.path->slack) {
        --link->left_out_count;
        drop_stale(link->left_out_by, link->left_out_count, &Flow::via_gateway, id);
      }
    }
  }
  f.fast = false;
  OnceCall done = std::move(f.done);
  release(id);
  if (defer_callback)
    calendar::defer(std::move(done));
  else
    done();
}

void KernelFlows::drop_stale(std::vector<std::pair<std::uint32_t, std::uint32_t>>& list, std::uint32_t live,
                             bool Flow::*holds, std::uint32_t ending) {
  if (list.size() <= 64 || list.size() <= 4 * static_cast<std::size_t>(live)) return;
  list.erase(std::remove_if(list.begin(), list.end(),
                            [this, ending, holds](const auto& entry) {
                              const Flow& other = flows_[entry.first];
                              return entry.first == ending || other.generation != entry.second ||
                                     !(other.*holds);
                            }),
             list.end());
}

void KernelFlows::on_state_change(const void* activity) {
  EventCalendar::current().simgrid_action_ended();
  if (!class_comms_.empty()) {
    const auto in_class = class_comms_.find(activity);
    if (in_class != class_comms_.end()) {
      FlowClass& c = *in_class->second;
      class_comms_.erase(in_class);
      on_class_done(c);
      return;
    }
  }
  const auto found = in_simgrid_.find(activity);
  if (found == in_simgrid_.end()) return; // not ours: a background flow of an actor
  const std::uint32_t id = found->second;
  in_simgrid_.erase(found);
  finish(id, true); // inside SimGrid's model update: the callback waits for the end of the step
}

} // namespace sonicsim
