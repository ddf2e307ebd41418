// Work done in SimGrid's kernel context instead of in actors: network flows started from kernel timer
// callbacks and reported back when they end, and calls deferred to the end of the current kernel step. Jobs
// are state machines on kernel timers (job_client.hpp): a job costs no actor, no stack and no context switch,
// and a request costs a flow and a few timers.
//
// A flow is a host-to-host SimGrid communication (Comm::sendto_init + detach) in the same network model as a
// blocking Comm::sendto: SimGrid still does all the sharing. Its end is seen through
// Link::on_communication_state_change, which hands over the network action; the action is read through its
// public base class `kernel::resource::Action` (the cast is pinned by a test: kernel_flow_cast_test). A
// flow's callback and a deferred call run after the current kernel step (a timer at the current date), never
// inside SimGrid's model update or inside the caller: a callback may start flows and submit requests.
#pragma once

#include <simgrid/s4u.hpp>

#include <functional>
#include <unordered_map>
#include <vector>

namespace sonicsim {

class KernelFlows {
public:
  // One per engine; connects to SimGrid's signal the first time one is made in the process.
  KernelFlows();
  ~KernelFlows();
  KernelFlows(const KernelFlows&) = delete;
  KernelFlows& operator=(const KernelFlows&) = delete;

  // Starts a flow of `bytes` from `from` to `to` now; `done` runs once it has been delivered.
  void start(simgrid::s4u::Host* from, simgrid::s4u::Host* to, double bytes, std::function<void()> done);
  // Runs `call` after the current kernel step, in the order deferred.
  void defer(std::function<void()> call);
  // Flows started so far (the benchmark's count).
  std::uint64_t started() const { return started_; }

private:
  void on_state_change(const void* activity);
  void run_deferred();

  std::unordered_map<const void*, std::function<void()>> in_flight_; // by the flow's kernel activity
  std::vector<std::function<void()>> deferred_, running_;
  bool drain_armed_ = false;
  std::uint64_t started_ = 0;
};

} // namespace sonicsim
