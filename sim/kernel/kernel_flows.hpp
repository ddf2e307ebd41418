// Work done in SimGrid's kernel context instead of in actors: network flows started from calendar events
// (event_calendar.hpp) and reported back when they end, and calls deferred to the end of the current step.
// The flows' owners are state machines on calendar events, not actors: a flow costs no actor, no stack and no
// context switch.
//
// A flow pays its path's latency as a calendar event, then moves its bytes as a host-to-host SimGrid
// communication (Comm::sendto_init + detach) whose latency SimGrid does not apply again (a latency factor of
// 0 for these flows, network/latency-factor's callback). CM02 still bounds it by its cap, its narrowest
// link's bandwidth and the TCP window / (2 x the path's latency), which it reads from the links. During its
// latency a CM02 flow shares nothing, so paying it first is the same, and it lets a flow be handed to SimGrid
// at any point of its life. Its end is seen through Link::on_communication_state_change, which hands over the
// network action, read through its public base class kernel::resource::Action (the cast is pinned by
// tests/scenario/test_kernel_flows.cpp).
//
// The fast path. While the caps of all flows on each link of its path (and the peak of any other traffic
// there) fit in the link's bandwidth, no link on the path can be saturated, so max-min sharing gives the flow
// exactly its cap: it is timed as latency + bytes / cap on an event, without entering SimGrid's solver. A
// flow that would overfill a link goes to SimGrid, and so does every fast flow on that link, with the bytes
// it has left: from then on SimGrid shares that link. The fast path only skips the solver where its answer is
// known; `platform.network.fast_path: false` sends every flow to SimGrid.
//
// Flow classes. Flows that cross the same links with the same cap are one SimGrid communication to the
// solver: k of them are one variable with k times a flow's weight (sharing penalty 1/k) and k times its
// bound. Max-min sharing gives identical flows identical rates, so the class's rate is exactly k times each
// member's and each member is served at rate / k, as SimGrid would serve it alone; the class's comm is given
// the bytes until its first member is done (k x what that member has left), and its end is that member's end.
// SimGrid still computes every share; the solver sees one variable per class instead of one per flow, which
// is what keeps a saturated switch with ~1,000 flows from being re-solved flow by flow (campaigns).
// `platform.network.flow_classes: false` gives each flow its own comm.
//
// Slack links. A link whose flows' caps (and other traffic's peak) fit in its bandwidth cannot bind any of
// them: max-min sharing gives the same rates with it or without it. A target (a host behind a link of its
// own, its NIC, as each server is) has such a link most of the time, and it is the only link that makes flows
// to different targets differ. So while a target's NIC has room, a flow to or from that target enters SimGrid
// between its worker and the targets' gateway (the target's route less the NIC), in one class with the flows
// to every other target with room; the solver's variables no longer grow with the targets. When a flow
// overfills the NIC, the flows of gateway classes on it move, with the bytes they have left, to their
// target's own class at once; when the NIC has room again, they move back (after the step, as every change of
// a class). Part of flow classes (the same switch).
//
// Links whose rates fit. A target's NIC that its flows' caps overfill may still carry them at rates that fit,
// while the switch they share is saturated (14 flows of ~0.07 Gb/s on a 16 Gb/s NIC in the 2022 campaign):
// then it binds none of them either. So on the calendar's own loop (FlowSettings::check_rates) such a
// target's flows also go through the gateway, and before SimGrid's clock moves after any change
// (check_left_out_links, from EventCalendar::set_before_solve) the solution is checked: the rates of the
// flows on each NIC left out (fast flows at their cap, its own classes, its share of the gateway classes)
// must fit it. Where they do not, its gateway flows move to its own class and SimGrid solves again, at the
// same date; a NIC whose own classes' rates leave a tenth of it free takes its flows back through the
// gateway. Exact: a max-min allocation of the system without some links that those links can carry is the
// max-min allocation of the whole system (it is feasible there, and no flow of it can grow in the larger
// system's relaxation). The solver's variables then no longer grow with the targets.
//
// One full link. A link that its flows' caps overfill, when every one of those flows has room on every other
// link of its path (their caps fit there) and nothing else sends through it, is the only link that can bind
// them: max-min sharing then gives each flow min(its cap, L) with L the level at which the rates fill the
// link (water-filling), exactly, as for slack links above. Such a link's flows are shared here, without
// SimGrid (SharedLink): grouped by cap, each group served at one rate, the soonest end one calendar event,
// the rates filled again at every start and end. When another link on one of their paths fills, or a flow
// fills this link and another at once, every flow shared there goes to SimGrid with the bytes it has left, as
// the fast path's flows do; so does the link's next filling while a flow in SimGrid crosses it (can_share).
// `platform.network.one_full_link: false` leaves them to SimGrid.
//
// Callbacks and deferred calls run after the current kernel step (an event at the current date), never inside
// SimGrid's model update or inside the caller: a callback may start flows and submit requests.
#pragma once

#include "sim/kernel/event_calendar.hpp"
#include "sim/kernel/once_call.hpp"

#include <simgrid/s4u.hpp>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

namespace simgrid::kernel::resource {
class Action;
class Model;
} // namespace simgrid::kernel::resource

namespace sonicsim {

struct FlowSettings {
  double tcp_window_bytes = 0.0; // network/TCP-gamma; 0: no window cap
  bool fast_path = true;
  bool flow_classes = true; // identical flows share one SimGrid comm (above); needs exact CM02
  // Hosts whose NIC was left out of SimGrid's routes because it never carries more than one flow at a time
  // in each direction: the NIC is then exactly a bound on that flow (bytes/s), applied as the flow's cap.
  // Looked up by host for every path made (one per client), so a map: a list scanned there made a run's
  // set-up quadratic in its nodes (10^6 clients spent minutes there before the first event).
  std::unordered_map<const simgrid::s4u::Host*, double> host_bounds;
  // Hosts whose flows are not started here (the background sources, which are actors): SimGrid pays their
  // latency itself.
  std::vector<const simgrid::s4u::Host*> other_senders;
  // Hosts behind a link of their own (a target behind its NIC), each with the host whose routes are its own
  // less that link (the targets' gateway): see "Slack links" above.
  std::vector<std::pair<const simgrid::s4u::Host*, simgrid::s4u::Host*>> gateways;
  // Links whose rates fit (above): needs the calendar's own loop, which calls check_left_out_links before
  // SimGrid's clock moves.
  bool check_rates = false;
  // One full link (above): needs the fast path and exact CM02.
  bool one_full_link = true;
};

// How SimGrid times a flow on an idle path: latency + bytes / cap.
struct FlowTiming {
  double latency_s = 0.0;
  double cap_bytes_per_s = 0.0;
};

struct FlowCounts {
  std::uint64_t fast = 0;        // started without the solver (at its cap, or shared on one full link)
  std::uint64_t simgrid = 0;     // in SimGrid from the start
  std::uint64_t handed = 0;      // started fast, handed to SimGrid when a link of theirs filled up
  std::uint64_t classes = 0;     // flow classes made (one SimGrid comm at a time each)
  std::uint64_t class_comms = 0; // SimGrid comms started for classes
  std::uint64_t via_gateway = 0; // flows that joined a class through the targets' gateway (slack links)
  std::uint64_t regrouped = 0;   // of those, moved to their target's own class when its NIC filled up
  std::uint64_t ungrouped = 0;   // moved from their target's own class to the gateway when its NIC had room
  std::uint64_t shared = 0;   // shared on one full link without SimGrid (started there, or moved from fast)
  std::uint64_t unshared = 0; // of those, moved to SimGrid when a flow on that link needed it
  // Started without the solver and never moved to it: timed without SimGrid from start to end.
  std::uint64_t without_solver() const { return fast - handed - unshared; }
};

class KernelFlows {
public:
  // One per engine; connects to SimGrid's signal the first time one is made in the process.
  explicit KernelFlows(FlowSettings settings);
  ~KernelFlows();
  KernelFlows(const KernelFlows&) = delete;
  KernelFlows& operator=(const KernelFlows&) = delete;

  // Traffic of others (background sources, which are actors) from `from` to `to`, at most `peak_bytes_per_s`:
  // counted on every link of that path, so that the fast path never assumes room the others may take.
  void add_other_traffic(simgrid::s4u::Host* from, simgrid::s4u::Host* to, double peak_bytes_per_s);
  struct Path;
  // The path from `from` to `to` (looked up once; valid as long as this object).
  Path* route(simgrid::s4u::Host* from, simgrid::s4u::Host* to) { return &path(from, to); }
  // Starts a flow of `bytes` on the path now; `done` runs once it has been delivered.
  void start(Path* path, double bytes, OnceCall done);
  void start(simgrid::s4u::Host* from, simgrid::s4u::Host* to, double bytes, OnceCall done) {
    start(route(from, to), bytes, std::move(done));
  }
  // The latency and cap of a flow on the path from `from` to `to`.
  FlowTiming timing(simgrid::s4u::Host* from, simgrid::s4u::Host* to);
  const FlowCounts& counts() const { return counts_; }
  // Before SimGrid's clock moves after a change (links whose rates fit, above): SimGrid solves, and each
  // target's NIC left out by flows whose caps overfill it is checked against their rates.
  void check_left_out_links();

  struct FlowClass;
  struct SharedLink;
  // The load of one link: what the fast path knows of it.
  struct LinkLoad {
    double capacity_bytes_per_s = 0.0;
    double committed_bytes_per_s = 0.0; // caps of the flows on it, and the peak of other traffic
    std::vector<std::pair<std::uint32_t, std::uint32_t>> fast; // (flow, generation) of fast flows, lazily
    std::uint32_t fast_count = 0;
    // (flow, generation) of flows in gateway classes that leave this link out, lazily
    std::vector<std::pair<std::uint32_t, std::uint32_t>> left_out_by;
    std::uint32_t left_out_count = 0;
    std::vector<FlowClass*> own_classes; // classes of paths that may leave this link out, when it is slack
    bool ungroup_deferred = false;
    // Links whose rates fit (above): whether flows may leave it out though their caps overfill it; the caps
    // of its fast flows; how many members of each gateway class leave it out.
    bool rates_fit = true;
    double fast_bytes_per_s = 0.0;
    // Kept small and in the order of the changes (sums and moves in a deterministic order): only the
    // gateway classes with members on it, and its own classes that have members.
    std::vector<std::pair<FlowClass*, std::uint32_t>> gateway_members;
    std::vector<FlowClass*> own_busy;
    bool left_out = false;     // some path may leave it out (a target's NIC)
    int overcommitted_at = -1; // its place in overcommitted_, while a left-out link's caps overfill it
    // One full link (above): the flows whose path crosses it (every regime), whether others send through it,
    // its flows shared without SimGrid while it has some, and how many flows shared on other links cross it.
    std::uint32_t flow_count = 0;
    bool other_traffic = false;
    SharedLink* shared = nullptr;
    std::uint32_t crossed_by_shared = 0;
  };
  // A path between two hosts: its links and how a flow alone on it is timed.
  struct Path {
    simgrid::s4u::Host* from = nullptr;
    simgrid::s4u::Host* to = nullptr;
    std::vector<LinkLoad*> links;
    FlowTiming timing;
    FlowClass* flow_class = nullptr; // the class of its flows in SimGrid, made on first use
    // Through the gateway (slack links): the same flow's path less `slack`, and the class there.
    Path* via_gateway = nullptr;
    std::vector<LinkLoad*> slack;
    FlowClass* gateway_class = nullptr;
  };
  // Flows in SimGrid on the same links with the same cap (see above).
  struct FlowClass {
    Path* path = nullptr; // the first member's (or its gateway path): its hosts carry the class's comm
    double cap_bytes_per_s = 0.0; // each member's
    double served_bytes = 0.0;    // what each member has received since the class was made
    double synced_remains = 0.0;  // the comm's remaining bytes when served_bytes was brought up to date
    simgrid::kernel::resource::Action* action = nullptr; // the class's comm in SimGrid, if any
    // (served_bytes at which the member is done, flow), soonest first
    std::set<std::pair<double, std::uint32_t>> members;
  };

  // The flows of one full link, shared by water-filling (above). Members in groups by cap, each group's
  // members ordered by the group's served bytes at which they are done.
  struct SharedLink {
    LinkLoad* link = nullptr;
    double updated_s = 0.0; // the groups' served bytes are at this date
    struct Group {
      double served_bytes = 0.0;
      double rate_bytes_per_s = 0.0;
      std::set<std::pair<double, std::uint32_t>> members;
    };
    std::map<double, Group> groups; // by cap, lowest first: the order water-filling takes them in
    std::uint32_t members = 0;
    std::uint32_t waiting = 0; // paying their latency, to join when they start sending
    std::vector<std::uint32_t> waiting_flows;
    CalendarEvent next_end;
  };

private:
  struct Flow {
    std::uint32_t generation = 0;
    bool fast = false;
    Path* path = nullptr;
    double bytes = 0.0;
    double start_s = 0.0;
    CalendarEvent end_event; // its end, while on the fast path
    OnceCall done;
    FlowClass* in_class = nullptr;
    double done_at = 0.0;         // in_class's served_bytes at which it is done
    bool via_gateway = false;     // in_class leaves its target's NIC out
    SharedLink* shared = nullptr; // shared on one full link (a member, or waiting to join)
    bool waiting = false;         // still paying its latency
  };

  Path& path(simgrid::s4u::Host* from, simgrid::s4u::Host* to);
  std::uint32_t allocate();
  void release(std::uint32_t flow);
  void start_in_simgrid(std::uint32_t flow, double bytes);
  FlowClass& flow_class(Path& path);
  FlowClass& class_on(const std::vector<LinkLoad*>& links, double cap_bytes_per_s, Path& carrier);
  void join_class(std::uint32_t flow, double bytes);
  void enter_class(std::uint32_t flow, FlowClass& c, double bytes);
  double leave_class(std::uint32_t flow); // its bytes left
  bool slack(const Path& path) const;     // has a gateway, and every link it would leave out has room
  FlowClass& gateway_class(Path& path);
  void leave_out_slack(std::uint32_t flow);
  void regroup(std::uint32_t flow); // from the gateway to its target's own class (its NIC filled up)
  void ungroup(LinkLoad& link);     // the flows of its targets' own classes through the gateway (room again)
  void move_to_gateway(LinkLoad& link); // its own classes' members whose paths are slack, through the gateway
  void count_gateway_member(std::uint32_t flow, int change); // in its slack links' gateway_members
  double load_by_rates(const LinkLoad& link) const;          // at SimGrid's last solution
  void regroup_left_out(LinkLoad& link); // its gateway flows to their targets' own classes
  void sync_class(FlowClass& c);
  void reshape_class(FlowClass& c);
  void on_class_done(FlowClass& c);
  double leave_fast_path(std::uint32_t flow); // its links' fast counts and its end event; when it sends
  void hand_over(std::uint32_t flow);
  // One full link (kernel_flow_shared.cpp).
  bool can_share(const LinkLoad& link) const; // its flows are all fast or shared there (the new one too)
  void share(LinkLoad& link);                 // its fast flows join its SharedLink
  void wait_to_share(std::uint32_t flow, SharedLink& shared, double sending_since_s, double bytes);
  void start_shared(std::uint32_t flow, double bytes); // at the end of its latency: shared, or SimGrid's
  void join_shared(std::uint32_t flow, double bytes);  // its SharedLink, now
  void stop_sharing(SharedLink& shared);
  void unshare_crossing(LinkLoad& link); // every SharedLink on it, or with members crossing it, to SimGrid
  void unshare(SharedLink& shared);
  void mark_crossed(const Flow& f, int change); // its links other than its SharedLink's
  void advance(SharedLink& shared);
  void fill_rates(SharedLink& shared);
  void schedule_next_end(SharedLink& shared);
  void on_shared_end(SharedLink& shared);
  // Frees the flow and runs its callback, now or (inside SimGrid's update) after the current step.
  void finish(std::uint32_t flow, bool defer_callback);
  // Drops the entries of a lazy list (a link's fast flows or flows leaving it out) that no longer hold,
  // once they are most of it.
  void drop_stale(std::vector<std::pair<std::uint32_t, std::uint32_t>>& list, std::uint32_t live,
                  bool Flow::*holds, std::uint32_t ending);
  void on_state_change(const void* activity);

  FlowSettings settings_;
  bool exact_cm02_ = false; // see the constructor
  std::map<std::pair<const void*, const void*>, Path> paths_;
  // The links some path may leave out (targets' NICs) whose flows' caps overfill them: those the check of
  // rates looks at (kept as the caps change, so that a check costs nothing while none is).
  std::vector<LinkLoad*> overcommitted_;
  void note_commitment(LinkLoad& link); // after its committed_bytes_per_s changed
  void note_members(FlowClass& c);      // after its members changed: in its links' own_busy or not
  std::unordered_map<const void*, LinkLoad> links_;
  std::deque<Flow> flows_;
  std::vector<std::uint32_t> free_flows_;
  std::unordered_map<const void*, std::uint32_t> in_simgrid_;              // by the flow's kernel activity
  std::map<std::pair<std::vector<LinkLoad*>, double>, FlowClass> classes_; // by links and cap
  std::unordered_map<const void*, FlowClass*> class_comms_;                // by the comm's kernel activity
  simgrid::kernel::resource::Model* network_model_ = nullptr;
  std::unordered_map<const LinkLoad*, SharedLink> shared_by_link_; // in place: links point at theirs
  std::vector<SharedLink*> active_shared_;
  FlowCounts counts_;
};

} // namespace sonicsim
