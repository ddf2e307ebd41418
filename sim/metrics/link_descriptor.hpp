// A link whose load is recorded, as the platform builder describes it: its name, capacity and what part of
// the path it is. The platform hands these back; the recorder tracks them by index (LinkId) and picks the
// links a figure needs by kind, never by name. Pure code.
#pragma once

#include "sim/scenario/server_layout.hpp"
#include <cstddef>

#include <optional>
#include <string>

namespace sonicsim {

enum class LinkKind {
  worker_nic,    // a worker node's NIC (thousands: utilisation over the run only, no time series)
  site_outbound, // the site switch towards the pods: what the 2022 operators watched
  site_inbound,  // the site switch back from the pods (replies only)
  wan_outbound,  // the wide-area path towards the pods
  wan_inbound,   // the wide-area path back (replies only)
  pod_nic_in,    // a server pod's NIC, requests in
  pod_nic_out,   // a server pod's NIC, replies out
};

// Index of a link in the platform's list (and the recorder's).
using LinkId = std::size_t;

struct LinkDescriptor {
  std::string name;
  double capacity_bps = 0.0;
  LinkKind kind = LinkKind::worker_nic;
  std::optional<int> server_group; // pod NICs: the index of the pod's group in platform.server_groups
};

// On the reply path, which nothing but replies use (pod NIC out, WAN and switch inbound).
inline bool carries_replies_only(LinkKind kind) {
  return kind == LinkKind::site_inbound || kind == LinkKind::wan_inbound || kind == LinkKind::pod_nic_out;
}

// The resource a link is part of: the site switch and the WAN both ways, a group's pod NICs, a worker's NIC.
inline ResourceKind resource_kind(LinkKind kind) {
  switch (kind) {
  case LinkKind::worker_nic:
    return ResourceKind::worker_nic;
  case LinkKind::site_outbound:
  case LinkKind::site_inbound:
    return ResourceKind::site_switch;
  case LinkKind::wan_outbound:
  case LinkKind::wan_inbound:
    return ResourceKind::wan;
  case LinkKind::pod_nic_in:
  case LinkKind::pod_nic_out:
    break;
  }
  return ResourceKind::pod_nics;
}

// Shared by many jobs: tracked over time (a worker NIC is not).
inline bool is_shared(LinkKind kind) {
  return kind != LinkKind::worker_nic;
}

} // namespace sonicsim
