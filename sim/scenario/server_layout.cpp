#include "sim/scenario/server_layout.hpp"

#include <algorithm>

namespace sonicsim {

std::optional<std::size_t> ServerLayout::model_index(const std::string& model) const {
  const auto it = std::find(served_models.begin(), served_models.end(), model);
  if (it == served_models.end()) return std::nullopt;
  return static_cast<std::size_t>(it - served_models.begin());
}

ServerLayout make_server_layout(const Scenario& scenario) {
  ServerLayout layout;
  const auto& groups = scenario.platform.server_groups;
  layout.single_group = groups.size() == 1;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    layout.first_pod.push_back(layout.pods());
    layout.pod_group.insert(layout.pod_group.end(), static_cast<std::size_t>(groups[g].pods),
                            static_cast<int>(g));
  }
  for (const auto& module : scenario.workload.pipeline) {
    if (!module.served() || layout.model_index(module.model) >= 0) continue;
    layout.served_models.push_back(module.model);
    std::vector<int> pods, group_indices;
    for (const auto& name : scenario.models.at(module.model).deploy.groups) {
      const auto g = static_cast<std::size_t>(
          std::find_if(groups.begin(), groups.end(), [&](const ServerGroup& x) { return x.name == name; }) -
          groups.begin());
      group_indices.push_back(static_cast<int>(g));
      for (int p = 0; p < groups[g].pods; ++p)
        pods.push_back(layout.first_pod[g] + p);
    }
    layout.model_pods.push_back(std::move(pods));
    layout.model_groups.push_back(std::move(group_indices));
  }
  return layout;
}

std::string device_pool_name(const ServerLayout& layout, const ServerGroup& group) {
  return layout.single_group ? "GPU pool" : "devices of " + group.name;
}

std::string host_cores_name(const ServerLayout& layout, const ServerGroup& group) {
  return layout.single_group ? "host cores" : "host cores of " + group.name;
}

std::string pod_nics_name(const ServerLayout& layout, const ServerGroup& group) {
  return layout.single_group ? "pod NICs" : "pod NICs of " + group.name;
}

namespace {
const std::pair<ResourceKind, const char*> resource_kind_names[] = {
    {ResourceKind::device_pool, "device_pool"}, {ResourceKind::host_cores, "host_cores"},
    {ResourceKind::instances, "instances"},     {ResourceKind::pod_nics, "pod_nics"},
    {ResourceKind::site_switch, "site_switch"}, {ResourceKind::wan, "wan"},
    {ResourceKind::worker_nic, "worker_nic"}};
} // namespace

const char* resource_kind_name(ResourceKind kind) {
  for (const auto& [k, name] : resource_kind_names)
    if (k == kind) return name;
  return "device_pool";
}

std::optional<ResourceKind> resource_kind_named(const std::string& name) {
  for (const auto& [kind, text] : resource_kind_names)
    if (name == text) return kind;
  return std::nullopt;
}

} // namespace sonicsim
