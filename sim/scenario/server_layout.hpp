// Where the servers of a scenario are: pods numbered group by group (the platform builds them in this order),
// and for each model the pods that serve it. The engine, the recorder and the analytic side all number pods
// and name resources through this one layout. Pure code.
#pragma once

#include "sim/scenario/scenario.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

struct ServerLayout {
  std::vector<int> first_pod;                 // per server group: the global index of its first pod
  std::vector<int> pod_group;                 // per pod: its group's index in platform.server_groups
  std::vector<std::string> served_models;     // models a remote_inference module calls, in first-call order
  std::vector<std::vector<int>> model_pods;   // per served model: the pods serving it (its groups in order)
  std::vector<std::vector<int>> model_groups; // per served model: its groups' indices
  bool single_group = true;                   // one server group: resources keep their short names

  int pods() const { return static_cast<int>(pod_group.size()); }
  // Index of a model in served_models; none when no module calls it.
  std::optional<std::size_t> model_index(const std::string& model) const;
};

// Requires every served model to be deployed on known groups (the loader checks this).
ServerLayout make_server_layout(const Scenario& scenario);

// What a resource is, apart from how it is named: code compares kinds (and the group, where a resource is a
// group's), never display names, which gain the group's name as soon as a scenario has several groups.
enum class ResourceKind { device_pool, host_cores, instances, pod_nics, site_switch, wan, worker_nic };
// As files write it: "device_pool", "host_cores", "instances", "pod_nics", "site_switch", "wan",
// "worker_nic".
const char* resource_kind_name(ResourceKind kind);
// The kind of that name; none for another text.
std::optional<ResourceKind> resource_kind_named(const std::string& name);

// Names of a group's resources, as the summary, the analytic stations and the planner print them. With one
// group: "GPU pool", "host cores", "pod NICs"; with several, the group's name is added.
std::string device_pool_name(const ServerLayout& layout, const ServerGroup& group);
std::string host_cores_name(const ServerLayout& layout, const ServerGroup& group);
std::string pod_nics_name(const ServerLayout& layout, const ServerGroup& group);

} // namespace sonicsim
