#include "sim/platform/site_platform.hpp"

#include "sim/random/random_streams.hpp"

#include <utility>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace sg4 = simgrid::s4u;

namespace sonicsim {

std::vector<LinkId> SitePlatform::request_links(int worker, int pod) const {
  return {worker_nic_link[static_cast<std::size_t>(worker)], switch_out_link, wan_out_link,
          pod_in_link[static_cast<std::size_t>(pod)]};
}

std::vector<LinkId> SitePlatform::response_links(int worker, int pod) const {
  return {pod_out_link[static_cast<std::size_t>(pod)], wan_in_link, switch_in_link,
          worker_nic_link[static_cast<std::size_t>(worker)]};
}

namespace {
// SimGrid link bandwidths are in bytes per second; the scenario's are in bits per second.
double bytes_per_s(double bits_per_s) {
  return bits_per_s / 8.0;
}

LinkId describe(SitePlatform& site, std::string name, double capacity_bps, LinkKind kind,
                std::optional<int> server_group = std::nullopt) {
  site.links.push_back(LinkDescriptor{std::move(name), capacity_bps, kind, server_group});
  return site.links.size() - 1;
}
} // namespace

namespace {

using Direction = sg4::LinkInRoute::Direction;

// A host's routes to and from the star's centre.
void set_routes(sg4::NetZone* zone, sg4::Host* host, const std::vector<sg4::LinkInRoute>& up,
                const std::vector<sg4::LinkInRoute>& down) {
  zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr, up, false);
  zone->add_route(nullptr, host->get_netpoint(), nullptr, nullptr, down, false);
}

// The narrowest link that every flow to or from a worker node crosses besides its NIC (bits/s): the switch
// and the WAN always, and a pod's NIC when only one pod is reachable over the network.
double narrowest_common_link_bps(const Platform& platform) {
  double narrowest = std::min(platform.site_switch.bandwidth_bps, platform.wan.bandwidth_bps);
  int network_pods = 0;
  double pod_nic_bps = 0.0;
  for (const auto& group : platform.server_groups)
    if (!group.on_client_nodes) {
      network_pods += group.pods;
      if (group.pods > 0) pod_nic_bps = group.nic_bandwidth_bps;
    }
  if (network_pods == 1) narrowest = std::min(narrowest, pod_nic_bps);
  return narrowest;
}

// Worker NICs left out of SimGrid's routes, by reason: capped flows fit in them; every flow through them
// crosses a link no wider; one flow at a time each, bounded by the NIC.
struct NicsLeftOut {
  int capped = 0, implied = 0, single_flow = 0;
};

// What summary.json's network.links_left_out says of them.
void note_nics_left_out(SitePlatform& site, const NicsLeftOut& left_out, int nodes, double flows_per_node,
                        double cap_without_nic_bps, double common_link_bps) {
  if (left_out.capped > 0) {
    char note[256];
    std::snprintf(
        note, sizeof note,
        "%d of %d worker NICs left out of SimGrid's routes: at most %g flow(s) at once per node, each "
        "capped at %.3g Gb/s elsewhere, fit in the NIC",
        left_out.capped, nodes, flows_per_node, cap_without_nic_bps / 1e9);
    site.links_left_out = note;
  }
  if (left_out.implied > 0) {
    char note[256];
    std::snprintf(
        note, sizeof note,
        "%d of %d worker NICs left out of SimGrid's routes: every flow through them crosses a link no "
        "wider (%.3g Gb/s)",
        left_out.implied, nodes, common_link_bps / 1e9);
    site.links_left_out += (site.links_left_out.empty() ? "" : "; ") + std::string(note);
  }
  if (left_out.single_flow > 0) {
    char note[256];
    std::snprintf(note, sizeof note,
                  "%d of %d worker NICs narrower than a flow's cap left out of SimGrid's routes: one flow at "
                  "a time per node and direction, bounded by the NIC",
                  left_out.single_flow, nodes);
    site.links_left_out += (site.links_left_out.empty() ? "" : "; ") + std::string(note);
  }
}

// Worker nodes: jobs_per_node job slots share one NIC.
void add_worker_nodes(SitePlatform& site, sg4::NetZone* zone, const Scenario& scenario) {
  const auto& platform = scenario.platform;
  // A worker node's NIC can never be saturated when the flows that can cross it at once, each at most at its
  // cap without the NIC (the window / RTT, the switch, the WAN, the narrowest pod NIC), fit in its bandwidth:
  // it is then left out of the node's routes, so SimGrid's solver has one constraint less per flow. The cap
  // is unchanged (the NIC is not the narrowest link), and so is the recorded load (the recorder keeps the
  // NIC).
  const auto& workload = scenario.workload;
  const double flows_per_node =
      static_cast<double>(platform.jobs_per_node) * workload.threads *
      (workload.client.asynchronous ? std::max(1, workload.client.max_in_flight) : 1);
  double cap_without_nic_bps = std::min(platform.site_switch.bandwidth_bps, platform.wan.bandwidth_bps);
  if (platform.network.tcp_window_bytes > 0 && platform.wan.rtt_s > 0)
    cap_without_nic_bps =
        std::min(cap_without_nic_bps, 8.0 * platform.network.tcp_window_bytes / platform.wan.rtt_s);
  for (const auto& group : platform.server_groups)
    if (group.pods > 0 && !group.on_client_nodes)
      cap_without_nic_bps = std::min(cap_without_nic_bps, group.nic_bandwidth_bps);
  const bool prune_nics = platform.network.fast_path && platform.local_gpu_fraction < 1.0;
  // A NIC is also left out when every flow through it crosses one link no wider (in each direction): the
  // switch, the WAN, or the only pod reachable over the network. That link's constraint then implies the
  // NIC's: under max-min sharing the NIC's fair share (its capacity less its fixed flows' rates, over its
  // unfixed flows' weights) is never below the narrower link's, whose flows include all of the NIC's, so the
  // NIC is never the bottleneck and the rates are the same without it. What it saves: a job sending to one
  // saturated server from its own node made one flow class per node, and every flow's end re-solved all of
  // them (DeepMET on one T4 at 2,000 jobs spent 85 % of its time in SimGrid's solver).
  const double common_link_bps = narrowest_common_link_bps(platform);
  // A NIC that never carries more than one flow at a time in each direction is, under max-min sharing,
  // exactly a bound on that flow: it is left out too, and its bandwidth becomes the flow's bound. The bound
  // is set on the flow's SimGrid comm (kernel_flows.cpp), so this needs exact CM02 with flow classes.
  const bool prune_single_flow_nics = prune_nics && platform.network.flow_classes && flows_per_node <= 1.0;
  int nics_left_out = 0, implied_nics_left_out = 0, single_flow_nics_left_out = 0;

  const int jobs = scenario.workload.jobs;
  const int nodes = (jobs + platform.jobs_per_node - 1) / platform.jobs_per_node;
  std::vector<double> nic_fractions;
  for (const auto& nic : platform.nic_mix)
    nic_fractions.push_back(nic.fraction);
  site.worker_nic_class = stratified_assignment(nic_fractions, nodes, scenario.seed, stream_nic_mix);
  for (int node = 0; node < nodes; ++node) {
    const std::string name = "worker" + std::to_string(node);
    const double nic_bps =
        platform.nic_mix[static_cast<std::size_t>(site.worker_nic_class[node])].bandwidth_bps;
    auto* host = zone->create_host(name, 1e9);
    host->seal();
    // A NIC left out is not made in SimGrid at all: three links and their constraints per node, 1.3 of the
    // 8.6 kB a job held (bench, 100 to 1,000 jobs). The recorder keeps its load from the flows (describe).
    if (prune_nics && flows_per_node * cap_without_nic_bps <= nic_bps) {
      set_routes(zone, host, {}, {});
      ++nics_left_out;
    } else if (prune_nics && common_link_bps <= nic_bps) {
      set_routes(zone, host, {}, {});
      ++implied_nics_left_out;
    } else if (prune_single_flow_nics) {
      set_routes(zone, host, {}, {});
      site.single_flow_nic_bounds.emplace(host, bytes_per_s(nic_bps));
      ++single_flow_nics_left_out;
    } else {
      auto* nic = zone->create_split_duplex_link(name + "_nic", bytes_per_s(nic_bps));
      nic->set_latency(0.0)->seal();
      set_routes(zone, host, {{nic, Direction::UP}}, {{nic, Direction::DOWN}});
    }
    site.worker_hosts.push_back(host);
    site.worker_nic_link.push_back(describe(site, name + "_nic", nic_bps, LinkKind::worker_nic));
  }

  note_nics_left_out(site, NicsLeftOut{nics_left_out, implied_nics_left_out, single_flow_nics_left_out},
                     nodes, flows_per_node, cap_without_nic_bps, common_link_bps);
}

// The site switch and the WAN can never be full when every flow through them also crosses a pod's NIC and
// the network pods' NICs add up to no more than either (in each direction): nothing else sends through
// them (no background traffic, which the switch serves first). Under max-min sharing a link that cannot be
// full binds no flow, so the rates are the same without it; left out of SimGrid's routes, the pods' flows
// no longer share a constraint across pods, and each flow's end re-solves its own pod's flows alone (15
// A100 in 5 pods at 2,000 jobs: the solver had every flow of every pod in one system). The latency of the
// WAN stays on each route (on the pod's NIC, and on a link of the gateway's own), so CM02's window bound and
// weights are unchanged. `platform.network.fast_path: false` keeps them (as it keeps every link).
// The network pods' NICs added up (bits/s) when so, else none.
std::optional<double> pods_nic_bps_if_shared_links_never_full(const Platform& platform) {
  if (!platform.network.fast_path || platform.site_switch.background.peak_bps() > 0.0) return std::nullopt;
  double pods_bps = 0.0;
  for (const auto& group : platform.server_groups)
    if (!group.on_client_nodes) pods_bps += group.pods * group.nic_bandwidth_bps;
  const bool never_full =
      pods_bps <= platform.site_switch.bandwidth_bps && pods_bps <= platform.wan.bandwidth_bps;
  if (!never_full || pods_bps <= 0.0) return std::nullopt; // no pod behind them: nothing to part
  return pods_bps;
}

// Server pods, group by group (the numbering of ServerLayout): each behind its own NIC (cloud VMs cap
// bandwidth per VM).
void add_pods(SitePlatform& site, sg4::NetZone* zone, const Platform& platform, sg4::Link* site_switch,
              sg4::Link* wan) {
  const auto pods_bps = pods_nic_bps_if_shared_links_never_full(platform);
  const bool shared_left_out = pods_bps.has_value();
  const double wan_latency_s = platform.wan.rtt_s / 2.0;
  int pod = 0;
  for (std::size_t g = 0; g < platform.server_groups.size(); ++g) {
    const ServerGroup& group = platform.server_groups[g];
    for (int i = 0; i < group.pods; ++i, ++pod) {
      const std::string name = "pod" + std::to_string(pod);
      auto* host = zone->create_host(name, 1e9);
      host->seal();
      auto* nic = zone->create_split_duplex_link(name + "_nic", bytes_per_s(group.nic_bandwidth_bps));
      nic->set_latency(shared_left_out ? wan_latency_s : 0.0)->seal();
      if (shared_left_out)
        set_routes(zone, host, {{nic, Direction::UP}}, {{nic, Direction::DOWN}});
      else
        set_routes(zone, host, {{nic, Direction::UP}, {wan, Direction::DOWN}, {site_switch, Direction::DOWN}},
                   {{site_switch, Direction::UP}, {wan, Direction::UP}, {nic, Direction::DOWN}});
      site.pod_hosts.push_back(host);
      site.pod_in_link.push_back(describe(site, name + "_nic_in", group.nic_bandwidth_bps,
                                          LinkKind::pod_nic_in, static_cast<int>(g)));
      site.pod_out_link.push_back(describe(site, name + "_nic_out", group.nic_bandwidth_bps,
                                           LinkKind::pod_nic_out, static_cast<int>(g)));
    }
  }
  site.pods_gateway = zone->create_host("pods_gateway", 1e9);
  site.pods_gateway->seal();
  if (shared_left_out) {
    // The gateway's routes keep the WAN's latency on a link no flow can fill (the WAN's bandwidth).
    auto* latency =
        zone->create_split_duplex_link("pods_gateway_wan", bytes_per_s(platform.wan.bandwidth_bps));
    latency->set_latency(wan_latency_s)->seal();
    set_routes(zone, site.pods_gateway, {{latency, Direction::DOWN}}, {{latency, Direction::UP}});
    char note[320];
    std::snprintf(note, sizeof note,
                  "the site switch (%g Gb/s) and the WAN (%g Gb/s) left out of SimGrid's routes: every flow "
                  "through them crosses a pod's NIC, and the pods' NICs add up to %g Gb/s, so they are never "
                  "full (no background traffic)",
                  platform.site_switch.bandwidth_bps / 1e9, platform.wan.bandwidth_bps / 1e9,
                  *pods_bps / 1e9);
    site.links_left_out += (site.links_left_out.empty() ? "" : "; ") + std::string(note);
    return;
  }
  set_routes(zone, site.pods_gateway, {{wan, Direction::DOWN}, {site_switch, Direction::DOWN}},
             {{site_switch, Direction::UP}, {wan, Direction::UP}});
}

// Background traffic: other users' hosts on the site send to the outside world through the switch.
void add_background(SitePlatform& site, sg4::NetZone* zone, const Platform& platform,
                    sg4::Link* site_switch) {
  // Limiter bandwidths start at the rates' peak; the traffic sources set them as they go (never 0 in
  // SimGrid).
  const double peak_bytes_per_s = std::max(1.0, bytes_per_s(platform.site_switch.background.peak_bps()));
  // Background is served first: other users take their rate and the jobs share what is left of the switch,
  // as in the network-limit formula (switch - background) / traffic per job. CM02 weighs each flow by
  // 1 / (its route's latency), and a route with no latency gets weight 1, i.e. it would be treated as a 1 s
  // round trip and squeezed by the jobs' 6 ms flows. A 1 ns latency gives the background a weight 10^7 times
  // a job flow's. (TCP-gamma's window / (2 x latency) cap is then far above any background rate.)
  constexpr double background_latency_s = 1e-9;
  site.background_limiter =
      zone->create_link("background_limiter", peak_bytes_per_s)->set_latency(background_latency_s)->seal();
  site.on_off_limiter =
      zone->create_link("on_off_limiter", peak_bytes_per_s)->set_latency(background_latency_s)->seal();
  site.background_source = zone->create_host("other_site_users", 1e9);
  site.background_source->seal();
  set_routes(zone, site.background_source, {sg4::LinkInRoute(site.background_limiter)}, {});
  site.on_off_source = zone->create_host("bursty_site_user", 1e9);
  site.on_off_source->seal();
  set_routes(zone, site.on_off_source, {sg4::LinkInRoute(site.on_off_limiter)}, {});
  site.background_sink = zone->create_host("outside_world", 1e9);
  site.background_sink->seal();
  set_routes(zone, site.background_sink, {{site_switch, Direction::DOWN}}, {{site_switch, Direction::UP}});
}

} // namespace

SitePlatform build_site_platform(const Scenario& scenario) {
  const auto& platform = scenario.platform;
  SitePlatform site;
  auto* zone = sg4::create_star_zone("site_and_cloud");

  // Shared links. Split-duplex: UP is outbound from the site (towards the pods), DOWN is inbound.
  auto* site_switch =
      zone->create_split_duplex_link("site_switch", bytes_per_s(platform.site_switch.bandwidth_bps));
  site_switch->set_latency(0.0)->seal();
  auto* wan = zone->create_split_duplex_link("wan", bytes_per_s(platform.wan.bandwidth_bps));
  wan->set_latency(platform.wan.rtt_s / 2.0)->seal(); // one way: a request and its response add up to one RTT
  site.switch_out_link =
      describe(site, "site_switch_out", platform.site_switch.bandwidth_bps, LinkKind::site_outbound);
  site.switch_in_link =
      describe(site, "site_switch_in", platform.site_switch.bandwidth_bps, LinkKind::site_inbound);
  site.wan_out_link = describe(site, "wan_out", platform.wan.bandwidth_bps, LinkKind::wan_outbound);
  site.wan_in_link = describe(site, "wan_in", platform.wan.bandwidth_bps, LinkKind::wan_inbound);

  add_worker_nodes(site, zone, scenario);
  add_pods(site, zone, platform, site_switch, wan);
  add_background(site, zone, platform, site_switch);
  zone->seal();
  return site;
}

std::vector<std::pair<const simgrid::s4u::Host*, simgrid::s4u::Host*>>
pod_gateways(const SitePlatform& site) {
  std::vector<std::pair<const simgrid::s4u::Host*, simgrid::s4u::Host*>> out;
  for (const auto* pod : site.pod_hosts)
    out.emplace_back(pod, site.pods_gateway);
  return out;
}

} // namespace sonicsim
