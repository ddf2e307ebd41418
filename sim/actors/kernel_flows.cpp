#include "sim/actors/kernel_flows.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/kernel/resource/Action.hpp>

#include <cmath>
#include <stdexcept>

namespace sg4 = simgrid::s4u;
using simgrid::kernel::timer::Timer;

namespace sonicsim {
namespace {

KernelFlows* current = nullptr; // the engine's (one engine per process)

} // namespace

KernelFlows::KernelFlows() {
  if (current) throw std::logic_error("KernelFlows: one per engine");
  current = this;
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

void KernelFlows::start(sg4::Host* from, sg4::Host* to, double bytes, std::function<void()> done) {
  const sg4::CommPtr comm = sg4::Comm::sendto_init(from, to);
  comm->set_payload_size(static_cast<std::uint64_t>(bytes));
  comm->detach();
  in_flight_.emplace(comm->get_impl(), std::move(done));
  ++started_;
}

void KernelFlows::on_state_change(const void* activity) {
  const auto found = in_flight_.find(activity);
  if (found == in_flight_.end()) return; // not ours: a background flow of an actor
  defer(std::move(found->second));
  in_flight_.erase(found);
}

void KernelFlows::defer(std::function<void()> call) {
  deferred_.push_back(std::move(call));
  if (drain_armed_) return;
  drain_armed_ = true;
  Timer::set(sg4::Engine::get_clock(), [this]() { run_deferred(); });
}

void KernelFlows::run_deferred() {
  // Calls deferred while these run go to the next drain (a timer at the same date, run in the same step).
  drain_armed_ = false;
  running_.swap(deferred_);
  for (auto& call : running_)
    call();
  running_.clear();
}

} // namespace sonicsim
