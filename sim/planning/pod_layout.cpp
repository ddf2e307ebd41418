#include "sim/planning/pod_layout.hpp"

#include "sim/metrics/number_text.hpp"
#include "sim/scenario/input_error.hpp"

#include <algorithm>

namespace sonicsim::planning {
namespace {

int ceil_div(int a, int b) {
  return (a + b - 1) / b;
}

} // namespace

std::string layout_rule(int max_gpus_per_pod, int min_pods) {
  std::string rule = "GPUs fill one pod up to " + std::to_string(max_gpus_per_pod) +
                     " per pod, then pods are added (each with its own NIC), all pods with equal GPUs";
  if (min_pods > 1)
    rule += "; at least " + std::to_string(min_pods) + " pods so that the pod NICs stay below 90 % busy";
  return rule;
}

std::optional<PodLayout> layout_for_gpus(int gpus, int min_pods, int max_gpus_per_pod) {
  if (gpus < 1 || max_gpus_per_pod < 1) return std::nullopt;
  for (int pods = std::max({1, min_pods, ceil_div(gpus, max_gpus_per_pod)}); pods <= gpus; ++pods)
    if (gpus % pods == 0) return PodLayout{pods, gpus / pods, "", 0.0};
  return std::nullopt;
}

std::vector<PodLayout> candidate_layouts(int min_pods, int max_gpus_per_pod, int max_gpus) {
  std::vector<PodLayout> layouts;
  for (int gpus = std::max(1, min_pods); gpus <= max_gpus; ++gpus) {
    // At most 1.5 x the fewest pods the count needs: 18 GPUs as 6 x 3 when 5 pods are needed, but not 23 as
    // 23 x 1, whose many small pods behind a random balancer serve worse than 22 in 2 and would make the
    // capacity non-monotone in the GPU count (the search assumes it is).
    const int fewest = std::max({1, min_pods, ceil_div(gpus, max_gpus_per_pod)});
    const auto layout = layout_for_gpus(gpus, min_pods, max_gpus_per_pod);
    if (layout && 2 * layout->pods <= 3 * fewest) layouts.push_back(*layout);
  }
  return layouts;
}

const ServerGroup& planned_group(const Scenario& scenario) {
  if (scenario.platform.server_groups.size() != 1)
    throw InputError(scenario.source_file +
                     ": key 'platform.server_groups': the planner sizes one server group; "
                     "this scenario has " +
                     std::to_string(scenario.platform.server_groups.size()) +
                     ". Plan each group on its own (a scenario with that group and its models), or use "
                     "`sonicsim sweep` over the groups' pods and devices.count");
  return scenario.platform.server_groups.front();
}

int planned_group_index(const Scenario& scenario) {
  const ServerGroup& group = planned_group(scenario);
  return static_cast<int>(&group - scenario.platform.server_groups.data());
}

Scenario with_layout(Scenario scenario, const PodLayout& layout) {
  planned_group(scenario);
  ServerGroup& group = scenario.platform.server_groups.front();
  group.pods = layout.pods;
  group.devices_per_pod = layout.gpus_per_pod;
  if (!layout.device_type.empty() && layout.device_type != group.device_type) {
    group.device_type = layout.device_type;
    // The search chose the type: whatever the scenario said of its type (a variant's what-if) no longer
    // describes this layout, and an answer on it must not list it.
    const std::string type_key = "platform.server_groups." + group.name + ".devices.type";
    auto& entries = scenario.provenance;
    entries.erase(std::remove_if(entries.begin(), entries.end(),
                                 [&](const Provenance& p) { return p.key == type_key; }),
                  entries.end());
  }
  if (layout.nic_bps > 0.0) group.nic_bandwidth_bps = layout.nic_bps;
  return scenario;
}

std::vector<std::string> plan_overrides(const Scenario& base, const Scenario& changed) {
  std::vector<std::string> overrides;
  if (changed.workload.jobs != base.workload.jobs)
    overrides.push_back("workload.jobs=" + std::to_string(changed.workload.jobs));
  for (std::size_t g = 0; g < changed.platform.server_groups.size() && g < base.platform.server_groups.size();
       ++g) {
    const ServerGroup& was = base.platform.server_groups[g];
    const ServerGroup& now = changed.platform.server_groups[g];
    const std::string key = "platform.server_groups." + now.name + ".";
    if (now.pods != was.pods) overrides.push_back(key + "pods=" + std::to_string(now.pods));
    if (now.devices_per_pod != was.devices_per_pod)
      overrides.push_back(key + "devices.count=" + std::to_string(now.devices_per_pod));
    if (now.device_type != was.device_type) overrides.push_back(key + "devices.type=" + now.device_type);
    if (now.nic_bandwidth_bps != was.nic_bandwidth_bps)
      overrides.push_back(key + "nic_bandwidth=" + exact_number_text(now.nic_bandwidth_bps) + "bps");
  }
  // A direct-inference baseline (sim/metrics/direct_baseline.hpp), as the loader makes one.
  if (changed.workload.direct_inference && !base.workload.direct_inference)
    overrides.push_back("workload.inference=direct");
  if (changed.output.precision_relative != base.output.precision_relative)
    overrides.push_back("output.precision=" + (changed.output.precision_relative > 0.0
                                                   ? exact_number_text(changed.output.precision_relative)
                                                   : std::string("off")));
  for (const auto& [figure, bounds] : changed.output.stop_beyond) {
    const std::string key = "output.stop_beyond." + figure + ".";
    if (bounds.above) overrides.push_back(key + "above=" + exact_number_text(*bounds.above));
    if (bounds.below) overrides.push_back(key + "below=" + exact_number_text(*bounds.below));
  }
  return overrides;
}

} // namespace sonicsim::planning
