// Flows started from SimGrid's kernel (sim/kernel/kernel_flows.hpp): the cast their end relies on, and their
// timing against a blocking Comm::sendto from an actor. Each engine runs in its own child process (SimGrid
// allows one engine per process).
#include "sim/execution/process_pool.hpp"
#include "sim/kernel/event_calendar.hpp"
#include "sim/kernel/kernel_flows.hpp"

#include <doctest/doctest.h>

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/s4u.hpp>

#include <cmath>
#include <cstdio>
#include <string>

namespace sg4 = simgrid::s4u;

namespace {

// Runs `body` in a child process; returns what it returned (or the error).
std::string in_child(const std::function<std::string()>& body) {
  std::string output;
  sonicsim::run_in_child_processes(
      1, 1, [&](std::size_t) { return body(); },
      [&](std::size_t, const sonicsim::ChildResult& child) {
        output = (child.ok ? "" : "error: ") + child.output;
      });
  return output;
}

// An engine on CM02 as the simulator runs it (flow classes need network/optim:Full).
std::unique_ptr<sg4::Engine> simulator_engine() {
  int argc = 4;
  char name[] = "test";
  char model[] = "--cfg=network/model:CM02";
  char cross[] = "--cfg=network/crosstraffic:0";
  char optim[] = "--cfg=network/optim:Full";
  char* argv[] = {name, model, cross, optim, nullptr};
  return std::make_unique<sg4::Engine>(&argc, argv);
}

// End dates as the tests compare them: to the nanosecond, space-separated.
std::string end_dates_text(const std::vector<double>& done_s) {
  std::string text;
  for (double t : done_s) {
    char one[32];
    std::snprintf(one, sizeof one, "%s%.9f", text.empty() ? "" : " ", t);
    text += one;
  }
  return text;
}

// Two hosts and one link of 1e8 B/s between them, on CM02 as the simulator runs it.
struct TwoHosts {
  std::unique_ptr<sg4::Engine> engine;
  sg4::Host* a = nullptr;
  sg4::Host* b = nullptr;
  explicit TwoHosts(double latency_s = 1e-3) : engine(simulator_engine()) {
    auto* zone = sg4::create_full_zone("site");
    a = zone->create_host("a", 1e9);
    b = zone->create_host("b", 1e9);
    sg4::Link* link = zone->create_link("link", 1e8)->set_latency(latency_s)->seal();
    zone->add_route(a->get_netpoint(), b->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(link)}, true);
    zone->seal();
  }
};

} // namespace

TEST_CASE(
    "kernel flows: the network action the state-change signal hands over is read as its public Action") {
  const std::string out = in_child([]() {
    TwoHosts site;
    sg4::CommPtr comm;
    const void* seen_activity = nullptr;
    double seen_cost = -1.0;
    sg4::Link::on_communication_state_change_cb([&](simgrid::kernel::resource::NetworkAction& network_action,
                                                    simgrid::kernel::resource::Action::State) {
      const auto& action = reinterpret_cast<const simgrid::kernel::resource::Action&>(network_action);
      if (action.get_state() != simgrid::kernel::resource::Action::State::FINISHED) return;
      seen_activity = action.get_activity();
      seen_cost = action.get_cost();
    });
    simgrid::kernel::timer::Timer::set(0.5, [&]() {
      comm = sg4::Comm::sendto_init(site.a, site.b);
      comm->set_payload_size(1000000);
      comm->detach();
    });
    site.engine->run();
    char text[160];
    std::snprintf(text, sizeof text, "%d %.0f", seen_activity != nullptr && seen_activity == comm->get_impl(),
                  seen_cost);
    return std::string(text);
  });
  // The activity behind the action is the one the Comm started, and its cost is the payload in bytes.
  CHECK(out == "1 1000000");
}

// Flows of the given sizes on one 1e8 B/s link, the k-th started at 0.25 + 0.01 k s, from the kernel (with or
// without the fast path, with or without flow classes) or as blocking sendtos from actors: their end dates.
std::string flows_on_one_link(const char* how, std::vector<double> sizes_bytes) {
  return in_child([how, sizes_bytes]() {
    TwoHosts site(0.0);
    std::vector<double> done_s(sizes_bytes.size(), -1.0);
    const std::string mode = how;
    std::unique_ptr<sonicsim::EventCalendar> calendar;
    std::unique_ptr<sonicsim::KernelFlows> flows;
    if (mode == "actors") {
      for (std::size_t k = 0; k < sizes_bytes.size(); ++k)
        sg4::Actor::create("sender", site.a, [&, k]() {
          sg4::this_actor::sleep_until(0.25 + 0.01 * static_cast<double>(k));
          sg4::Comm::sendto(site.a, site.b, static_cast<std::uint64_t>(sizes_bytes[k]));
          done_s[k] = sg4::Engine::get_clock();
        });
    } else {
      sonicsim::FlowSettings settings;
      settings.tcp_window_bytes = 0.0;
      settings.fast_path = mode == "fast" || mode == "fast+classes" || mode == "one full link";
      settings.flow_classes = mode == "classes" || mode == "fast+classes";
      // "one full link": the link's flows shared by water-filling, never in SimGrid; the others test SimGrid.
      settings.one_full_link = mode == "one full link";
      // The calendar's own loop, as the simulator runs without actors (event_calendar.hpp).
      calendar = std::make_unique<sonicsim::EventCalendar>(sonicsim::EventCalendar::Driver::own_loop);
      flows = std::make_unique<sonicsim::KernelFlows>(settings);
      for (std::size_t k = 0; k < sizes_bytes.size(); ++k)
        calendar->at(0.25 + 0.01 * static_cast<double>(k), [&, k]() {
          flows->start(site.a, site.b, sizes_bytes[k], [&, k]() { done_s[k] = sonicsim::calendar::now_s(); });
        });
    }
    if (calendar)
      calendar->run();
    else
      site.engine->run();
    std::string text = end_dates_text(done_s);
    // In the class modes every flow that reached SimGrid was in the one class of the path (flows that stay
    // on the fast path never do): anything else is reported, and the comparison fails.
    if (flows && (mode == "classes" || mode == "fast+classes") &&
        !(flows->counts().classes == 1 && flows->counts().class_comms >= 1))
      text += " (not in one class)";
    if (flows && mode == "one full link" &&
        !(flows->counts().simgrid == 0 && flows->counts().handed == 0 && flows->counts().shared >= 1))
      text += " (not shared on the link)";
    return text;
  });
}

// Two flows of 2e6 B. The first runs alone at its cap until the second arrives; then the link is shared and
// the fast path hands the first to SimGrid with the 1e6 B it has left: it ends at 0.26 + 1e6 / 5e7 = 0.28 s,
// the second at 0.28 + 1e6 / 1e8 = 0.29 s, as SimGrid alone says.
TEST_CASE("kernel flows: the fast path hands a flow to SimGrid when a link fills, and ends as SimGrid does") {
  const std::vector<double> sizes{2e6, 2e6};
  const std::string actors = flows_on_one_link("actors", sizes);
  CHECK(actors == "0.280000000 0.290000000");
  CHECK(flows_on_one_link("fast", sizes) == actors);
  CHECK(flows_on_one_link("simgrid", sizes) == actors);
  CHECK(flows_on_one_link("classes", sizes) == actors);
  CHECK(flows_on_one_link("fast+classes", sizes) == actors);
  CHECK(flows_on_one_link("one full link", sizes) == actors);
}

// A class whose count changes three times: 3e6, 2e6 and 1e6 B at 0.25, 0.26, 0.27 s. The first alone sends
// 1e6 B by 0.26; two share 5e7 B/s each until 0.27 (the first has 1.5e6 left, the second 1.5e6); three share
// 3.33e7 each, so the third (1e6) ends at 0.27 + 0.03 = 0.30 with 0.5e6 left to the other two, which end
// together at 0.30 + 0.5e6 / 5e7 = 0.31. One comm with weight k and bound k x cap gives each member what
// SimGrid gives it alone.
TEST_CASE("kernel flows: a flow class serves each member as SimGrid serves one flow") {
  const std::vector<double> sizes{3e6, 2e6, 1e6};
  const std::string actors = flows_on_one_link("actors", sizes);
  CHECK(actors == "0.310000000 0.310000000 0.300000000");
  CHECK(flows_on_one_link("simgrid", sizes) == actors);
  CHECK(flows_on_one_link("classes", sizes) == actors);
  CHECK(flows_on_one_link("fast+classes", sizes) == actors);
  // Shared on the one full link by water-filling: the same ends, without SimGrid.
  CHECK(flows_on_one_link("one full link", sizes) == actors);
}

namespace {

// A worker w behind a 1e8 B/s switch, two pods behind their own NICs (A: 5e7 B/s, B: 1.5e8 B/s), and the
// pods' gateway: the pods' routes less their NIC (sim/platform/site_platform.cpp builds the same star).
struct TwoPods {
  std::unique_ptr<sg4::Engine> engine;
  sg4::Host *worker = nullptr, *pod_a = nullptr, *pod_b = nullptr, *gateway = nullptr;
  TwoPods() : engine(simulator_engine()) {
    auto* zone = sg4::create_star_zone("site");
    sg4::Link* site_switch = zone->create_link("switch", 1e8)->set_latency(0.0)->seal();
    worker = zone->create_host("w", 1e9)->seal();
    zone->add_route(worker->get_netpoint(), nullptr, nullptr, nullptr, {sg4::LinkInRoute(site_switch)}, true);
    const auto pod = [&](const char* host, const char* nic_name, double nic_bytes_per_s) {
      sg4::Host* h = zone->create_host(host, 1e9)->seal();
      sg4::Link* nic = zone->create_link(nic_name, nic_bytes_per_s)->set_latency(0.0)->seal();
      zone->add_route(h->get_netpoint(), nullptr, nullptr, nullptr, {sg4::LinkInRoute(nic)}, true);
      return h;
    };
    pod_a = pod("a", "nic_a", 5e7);
    pod_b = pod("b", "nic_b", 1.5e8);
    gateway = zone->create_host("gateway", 1e9)->seal();
    zone->add_route(gateway->get_netpoint(), nullptr, nullptr, nullptr, {}, true);
    zone->seal();
  }
};

// Flows w -> A (2e6 B at 0.25 s), w -> B (2e6 B at 0.26 s), w -> A (1e6 B at 0.27 s): their end dates, as
// actors' blocking sendtos (pure SimGrid) or kernel flows with fast path, classes and the gateway.
std::string flows_to_two_pods(bool actors, double third_bytes, bool one_full_link = false) {
  return in_child([actors, third_bytes, one_full_link]() {
    TwoPods site;
    const std::vector<std::pair<sg4::Host*, double>> flows{
        {site.pod_a, 2e6}, {site.pod_b, 2e6}, {site.pod_a, third_bytes}};
    std::vector<double> done_s(flows.size(), -1.0);
    std::unique_ptr<sonicsim::EventCalendar> calendar;
    std::unique_ptr<sonicsim::KernelFlows> kernel;
    if (actors) {
      for (std::size_t k = 0; k < flows.size(); ++k)
        sg4::Actor::create("sender", site.worker, [&, k]() {
          sg4::this_actor::sleep_until(0.25 + 0.01 * static_cast<double>(k));
          sg4::Comm::sendto(site.worker, flows[k].first, static_cast<std::uint64_t>(flows[k].second));
          done_s[k] = sg4::Engine::get_clock();
        });
    } else {
      sonicsim::FlowSettings settings;
      settings.gateways = {{site.pod_a, site.gateway}, {site.pod_b, site.gateway}};
      settings.one_full_link = one_full_link; // off: the gateway's mechanism in SimGrid is what is tested
      calendar = std::make_unique<sonicsim::EventCalendar>(sonicsim::EventCalendar::Driver::own_loop);
      kernel = std::make_unique<sonicsim::KernelFlows>(settings);
      for (std::size_t k = 0; k < flows.size(); ++k)
        calendar->at(0.25 + 0.01 * static_cast<double>(k), [&, k]() {
          kernel->start(site.worker, flows[k].first, flows[k].second,
                        [&, k]() { done_s[k] = sonicsim::calendar::now_s(); });
        });
    }
    if (calendar)
      calendar->run();
    else
      site.engine->run();
    std::string text = end_dates_text(done_s);
    if (kernel) {
      const auto& c = kernel->counts();
      char one[128];
      std::snprintf(one, sizeof one, " | via gateway %llu, regrouped %llu, ungrouped %llu",
                    static_cast<unsigned long long>(c.via_gateway),
                    static_cast<unsigned long long>(c.regrouped),
                    static_cast<unsigned long long>(c.ungrouped));
      if (one_full_link)
        std::snprintf(one, sizeof one, " | shared %llu, unshared %llu, handed %llu",
                      static_cast<unsigned long long>(c.shared), static_cast<unsigned long long>(c.unshared),
                      static_cast<unsigned long long>(c.handed));
      text += one;
    }
    return text;
  });
}

} // namespace

// The first flow runs alone on the fast path at A's NIC (5e7 B/s). The second (to B) overfills the switch:
// the first is handed to SimGrid with 1.5e6 B left, and both leave their NICs out (each has room): through
// the gateway, 5e7 B/s each. The third overfills A's NIC: the first moves, with 1e6 B left, to A's own class
// with the third; A's NIC gives them 2.5e7 each and the second the switch's other 5e7. The second ends at
// 0.27 + 1.5e6 / 5e7 = 0.30 s, the other two at 0.27 + 1e6 / 2.5e7 = 0.31 s: what SimGrid alone says.
TEST_CASE(
    "kernel flows: a pod's NIC left out while it has room, and put back when it fills, as SimGrid does") {
  const std::string actors = flows_to_two_pods(true, 1e6);
  CHECK(actors == "0.310000000 0.300000000 0.310000000");
  CHECK(flows_to_two_pods(false, 1e6) == actors + " | via gateway 2, regrouped 1, ungrouped 0");
}

// As above with a third flow of 5e5 B: it ends at 0.27 + 5e5 / 2.5e7 = 0.29 s, when A's NIC has room again
// for the first alone (1e6 - 0.02 x 2.5e7 = 5e5 B left), which goes back through the gateway. A's NIC still
// caps it at 5e7 B/s, the second gets the switch's other 5e7 with its 5e5 B left: both end at 0.30 s.
TEST_CASE("kernel flows: a pod's flows go back through the gateway when its NIC has room again") {
  const std::string actors = flows_to_two_pods(true, 5e5);
  CHECK(actors == "0.300000000 0.300000000 0.290000000");
  CHECK(flows_to_two_pods(false, 5e5) == actors + " | via gateway 2, regrouped 1, ungrouped 1");
}

// Water-filling against SimGrid where the flows' caps differ: a worker behind a 2e7 B/s NIC and another
// behind 1e8 B/s, both sending to one pod behind a 1e8 B/s NIC (the workers' NICs each carry one flow: they
// have room). 4e6 B from the slow worker at 0.25 s (its cap, 2e7 B/s: 0.2 s alone), 8e6 B from the fast one
// at 0.26 s: the pod's NIC is full; the slow flow keeps its 2e7 (under the even split of 5e7), the fast one
// gets the other 8e7. The slow flow has 3.8e6 B left and ends at 0.26 + 0.19 = 0.45 s; the fast one, at 8e7
// B/s, ends at 0.26 + 0.1 = 0.36 s. The same as SimGrid alone, and without it.
namespace {
std::string water_filling(bool actors) {
  return in_child([actors]() {
    std::unique_ptr<sg4::Engine> engine = simulator_engine();
    auto* zone = sg4::create_star_zone("site");
    const auto host = [&](const char* name, const char* nic_name, double nic_bytes_per_s) {
      sg4::Host* h = zone->create_host(name, 1e9)->seal();
      sg4::Link* nic = zone->create_link(nic_name, nic_bytes_per_s)->set_latency(0.0)->seal();
      zone->add_route(h->get_netpoint(), nullptr, nullptr, nullptr, {sg4::LinkInRoute(nic)}, true);
      return h;
    };
    sg4::Host* slow = host("slow", "nic_slow", 2e7);
    sg4::Host* fast = host("fast", "nic_fast", 1e8);
    sg4::Host* pod = host("pod", "nic_pod", 1e8);
    zone->seal();
    const std::vector<std::pair<sg4::Host*, double>> flows{{slow, 4e6}, {fast, 8e6}};
    std::vector<double> done_s(flows.size(), -1.0);
    std::unique_ptr<sonicsim::EventCalendar> calendar;
    std::unique_ptr<sonicsim::KernelFlows> kernel;
    if (actors) {
      for (std::size_t k = 0; k < flows.size(); ++k)
        sg4::Actor::create("sender", flows[k].first, [&, k]() {
          sg4::this_actor::sleep_until(0.25 + 0.01 * static_cast<double>(k));
          sg4::Comm::sendto(flows[k].first, pod, static_cast<std::uint64_t>(flows[k].second));
          done_s[k] = sg4::Engine::get_clock();
        });
      engine->run();
      return end_dates_text(done_s);
    }
    calendar = std::make_unique<sonicsim::EventCalendar>(sonicsim::EventCalendar::Driver::own_loop);
    kernel = std::make_unique<sonicsim::KernelFlows>(sonicsim::FlowSettings{});
    for (std::size_t k = 0; k < flows.size(); ++k)
      calendar->at(0.25 + 0.01 * static_cast<double>(k), [&, k]() {
        kernel->start(flows[k].first, pod, flows[k].second,
                      [&, k]() { done_s[k] = sonicsim::calendar::now_s(); });
      });
    calendar->run();
    const auto& c = kernel->counts();
    return end_dates_text(done_s) + (c.simgrid == 0 && c.handed == 0 && c.shared == 2 ? "" : " (not shared)");
  });
}
} // namespace

TEST_CASE("kernel flows: one full link shared by water-filling where caps differ, as SimGrid does") {
  const std::string actors = water_filling(true);
  CHECK(actors == "0.450000000 0.360000000");
  CHECK(water_filling(false) == actors);
}

// The pods above with one full link on. The second flow overfills the switch alone (each pod's NIC has room):
// the first and the second are shared there, 5e7 B/s each (A's NIC caps the first at that, the even split).
// The third overfills A's NIC and the switch: two full links, so the two shared flows go to SimGrid with
// what they have left, and SimGrid shares the three as before. The same ends as SimGrid alone.
TEST_CASE("kernel flows: a flow with two full links goes to SimGrid, with the flows shared on them") {
  const std::string actors = flows_to_two_pods(true, 1e6);
  const std::string kernel = flows_to_two_pods(false, 1e6, true);
  CHECK(kernel == actors + " | shared 2, unshared 2, handed 0");
}
