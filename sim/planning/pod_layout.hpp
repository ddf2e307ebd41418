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
  int gpus() const { return pods * gpus_per_pod; }
};

// The rule, in words, for the output.
std::string layout_rule(int max_gpus_per_pod, int min_pods);

// The layout of exactly `gpus` GPUs with the fewest pods, at least min_pods, each with the same number of
// GPUs (at most max_gpus_per_pod); none when no such layout exists (gpus < min_pods).
std::optional<PodLayout> layout_for_gpus(int gpus, int min_pods, int max_gpus_per_pod);

// Every layout of 1..max_gpus GPUs that uses the fewest pods possible (at least min_pods, at most
// max_gpus_per_pod GPUs each, equal pods), in increasing GPUs: with min_pods 1 and 8 per pod, 1..8 GPUs in
// one pod, then 10, 12, 14, 16 in two, 18, 21, 24 in three, ...
std::vector<PodLayout> candidate_layouts(int min_pods, int max_gpus_per_pod, int max_gpus);

// The one server group the planner sizes; InputError when the scenario has several (the planner sizes one
// group today).
const ServerGroup& planned_group(const Scenario& scenario);
// The scenario with this layout (the group's pods and devices per pod replaced).
Scenario with_layout(Scenario scenario, const PodLayout& layout);

} // namespace sonicsim::planning
