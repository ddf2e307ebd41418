// How a number of GPUs is deployed for planning: equal pods of at most max_gpus_per_pod GPUs each. A pod is
// one VM with its own NIC (cloud VMs cap bandwidth per VM), so more pods also mean more server bandwidth; the
// site switch and the WAN stay shared. Pure code.
#pragma once

#include "sim/scenario/scenario.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sonicsim::planning {

struct PodLayout {
  int pods = 1;
  int gpus_per_pod = 1;
  std::string device_type; // empty: the group's own
  double nic_bps = 0.0;    // per pod; 0: the group's own
  int gpus() const { return pods * gpus_per_pod; }
  bool operator==(const PodLayout& o) const {
    return pods == o.pods && gpus_per_pod == o.gpus_per_pod && device_type == o.device_type &&
           nic_bps == o.nic_bps;
  }
};

// The rule, in words, for the output.
std::string layout_rule(int max_gpus_per_pod, int min_pods);

// The layout of exactly `gpus` GPUs with the fewest pods, at least min_pods, each with the same number of
// GPUs (at most max_gpus_per_pod); none when no such layout exists (gpus < min_pods).
std::optional<PodLayout> layout_for_gpus(int gpus, int min_pods, int max_gpus_per_pod);

// One layout for every GPU count from min_pods to max_gpus, each with the fewest equal pods that hold it (at
// least min_pods, at most max_gpus_per_pod GPUs each), in increasing GPUs: with min_pods 1 and 8 per pod,
// 1..8 GPUs in one pod, 9 as 3 x 3, 10 as 2 x 5, 11 as 11 x 1, ...; with 6 pods at least, 18 as 6 x 3.
std::vector<PodLayout> candidate_layouts(int min_pods, int max_gpus_per_pod, int max_gpus);

// The one server group the planner sizes; InputError when the scenario has several (the planner sizes one
// group today).
const ServerGroup& planned_group(const Scenario& scenario);
// Its index in platform.server_groups.
int planned_group_index(const Scenario& scenario);
// The scenario with this layout (the group's pods and devices per pod replaced, and its device type and pod
// NIC when the layout names them).
Scenario with_layout(Scenario scenario, const PodLayout& layout);

// The overrides (key.path=value) that turn `base` into `changed` for the fields a plan changes: the job count
// and each server group's pods, devices per pod, device type and pod NIC, and the precision rule of its runs
// (output.precision) with the bounds it may stop beyond (output.stop_beyond), and whether it is the
// direct-inference baseline. What a process elsewhere
// applies to rebuild a planned scenario; other differences are not expressed (the fingerprint check catches
// them).
std::vector<std::string> plan_overrides(const Scenario& base, const Scenario& changed);

} // namespace sonicsim::planning
