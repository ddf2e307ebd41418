// The keys of each section of a SuperSONIC values file that sonicsim reads, per chart version: release
// 0.3.1's helm/supersonic/values.yaml, and the main branch's as its docs/configuration-guide.rst names them
// (`inferenceServer` with `type` and `nereid`; keda's metricType, activationThreshold, pollingInterval and
// cooldownPeriod; scaleFromZero). Checked before any value is read, so that every unknown key of the file
// is told in one error.
#include "sim/scenario/supersonic_values_reader.hpp"

#include <string>
#include <vector>

namespace sonicsim::detail {

void ValuesReader::check_section_keys() {
  std::vector<std::string> servers{"name",           "replicas",    "image",           "command",
                                   "args",           "resources",   "annotations",     "nodeSelector",
                                   "tolerations",    "affinity",    "modelRepository", "service",
                                   "readinessProbe", "startupProbe"};
  std::vector<std::string> keda{"enabled",          "minReplicaCount", "maxReplicaCount",
                                "zeroIdleReplicas", "scaleUp",         "scaleDown"};
  if (main()) {
    servers.insert(servers.end(), {"type", "nereid"});
    keda.insert(keda.end(), {"pollingInterval", "cooldownPeriod", "metricType", "activationThreshold"});
    check_keys(root_["scaleFromZero"], {"enabled", "readyTimeoutSeconds", "holdMinReplicasSeconds"});
  }
  check_keys(root_[server_section()], servers);
  check_keys(root_["keda"], keda);
  for (const char* direction : {"scaleUp", "scaleDown"})
    check_keys(root_["keda"][direction], {"stabilizationWindowSeconds", "periodSeconds", "stepsize"});
  const Cursor envoy = root_["envoy"];
  check_keys(envoy, {"enabled", "replicas", "image", "args", "external_config", "resources", "annotations",
                     "nodeSelector", "tolerations", "service", "ingress", "grpc_route_timeout",
                     "rate_limiter", "loadBalancerPolicy", "auth", "tracing_sampling_rate"});
  check_keys(envoy["rate_limiter"], {"listener_level", "prometheus_based"});
  check_keys(envoy["rate_limiter"]["prometheus_based"], {"enabled", "luaConfig"});
  check_keys(envoy["rate_limiter"]["listener_level"],
             {"enabled", "max_tokens", "tokens_per_fill", "fill_interval"});
}

} // namespace sonicsim::detail
