// Builds the SimGrid platform of a scenario: worker nodes with their NICs, the site's outbound switch, the
// WAN, and the server pods of every group with their NIC caps (their devices and host cores are timed by the
// inference servers, not SimGrid hosts). One star zone holds everything; a route is the source's "up" links
// followed by the destination's "down" links, so every job-to-pod flow crosses
//   worker NIC -> site switch (outbound) -> WAN -> pod NIC
// and shares each of those links with the other flows through SimGrid's max-min model.
#pragma once

#include "sim/metrics/link_descriptor.hpp"
#include "sim/scenario/scenario.hpp"

#include <simgrid/s4u.hpp>

#include <string>
#include <unordered_map>
#include <vector>

namespace sonicsim {

struct SitePlatform {
  std::vector<simgrid::s4u::Host*> worker_hosts; // one per worker node
  std::vector<int> worker_nic_class;             // index into platform.nic_mix, per worker node
  std::vector<simgrid::s4u::Host*> pod_hosts;    // one per server pod
  // The pods' side of the WAN without a pod's NIC: a host whose routes are a pod's less its NIC. A flow to or
  // from a pod whose NIC has room for every flow on it is carried to or from here in SimGrid, so that flows
  // to different pods can be one flow class (kernel_flows.hpp). Not a server: nothing runs on it.
  simgrid::s4u::Host* pods_gateway = nullptr;
  simgrid::s4u::Host* background_source = nullptr; // other users' hosts on the site
  simgrid::s4u::Host* on_off_source = nullptr;     // another user whose traffic comes in bursts
  // Each background source reaches the switch through its own link whose bandwidth is the source's rate, and
  // is served before the jobs' flows: it gets its rate, the jobs share what is left of the switch. The
  // sources change the bandwidth over time.
  simgrid::s4u::Link* background_limiter = nullptr;
  simgrid::s4u::Link* on_off_limiter = nullptr;
  simgrid::s4u::Host* background_sink = nullptr; // beyond the site switch
  // Every link whose load is recorded, and where each part of a path is in that list.
  std::vector<LinkDescriptor> links;
  std::vector<LinkId> worker_nic_link;
  LinkId switch_out_link = 0, switch_in_link = 0, wan_out_link = 0, wan_in_link = 0;
  std::vector<LinkId> pod_in_link, pod_out_link;

  // Worker nodes whose NIC was left out of the routes because it carries one flow at a time in each
  // direction, with the NIC's bandwidth (bytes/s): the flow's bound (kernel_flows.hpp, FlowSettings).
  // A map, not a list: every path made looks its two hosts up (a list made set-up quadratic in the nodes).
  std::unordered_map<const simgrid::s4u::Host*, double> single_flow_nic_bounds;
  // Which links were left out of SimGrid's routes because they can never be saturated, and why; empty: none.
  std::string links_left_out;

  int worker_count() const { return static_cast<int>(worker_hosts.size()); }
  // Links crossed by a request (worker node -> pod) and by its response (pod -> worker node).
  std::vector<LinkId> request_links(int worker, int pod) const;
  std::vector<LinkId> response_links(int worker, int pod) const;
};

SitePlatform build_site_platform(const Scenario& scenario);

// Each pod with the pods' gateway (FlowSettings::gateways).
std::vector<std::pair<const simgrid::s4u::Host*, simgrid::s4u::Host*>> pod_gateways(const SitePlatform& site);

} // namespace sonicsim
