// A SuperSONIC Helm values file (fastmachinelearning/SuperSONIC) read as the chart means it, in either of its
// two schemas: release 0.3.1 (`triton`, the queue-time query) and the main branch since (`inferenceServer`,
// the occupancy metric "replicas needed", scaleFromZero), the version detected from the file's own keys:
// the settings that decide how a server group scales and balances, turned into sonicsim's operations keys
// (sim/scenario/operations.hpp). The chart's own defaults (helm/supersonic/values.yaml) fill what the file
// leaves out, and the templates' `default` (templates/keda/so.yaml), which Helm applies to a written 0 as
// to a missing key, is applied the same way. Every key read is listed with its line and meaning; every key
// the simulation does not use is named with the reason; a setting sonicsim cannot honour is an error naming
// the file, line and key.
#pragma once

#include "sim/scenario/operations.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

// The chart versions whose values sonicsim reads.
enum class SupersonicChart { release_0_3_1, main };
inline const char* supersonic_chart_name(SupersonicChart chart) {
  return chart == SupersonicChart::main ? "main" : "0.3.1";
}

struct SupersonicValues {
  std::string file;
  SupersonicChart chart = SupersonicChart::release_0_3_1;
  std::string chart_evidence;         // what in the file decided the version, e.g. "inferenceServer (line 3)"
  std::string server_type = "triton"; // inferenceServer.type (main): triton or nereid
  // What the chart deploys when KEDA is off: triton.replicas pods.
  int pods = 1;
  // triton.resources.limits."nvidia.com/gpu": the devices per pod, when the file requests them so.
  std::optional<int> devices_per_pod;
  // The GPU products the pods' node affinity allows (nvidia.com/gpu.product), for the user to pick curves.
  std::vector<std::string> gpu_products;
  std::optional<AutoscalerSettings> autoscaler; // keda.enabled
  ProxySettings proxy;                          // Envoy's policy and the Prometheus-based rate limiter
  struct Reading {
    std::string key; // the values file's key path, e.g. keda.scaleUp.periodSeconds
    int line = 0;    // 1-based; 0: not written, the chart's default
    std::string value;
    std::string meaning; // what it sets in sonicsim, or why it is read as it is
  };
  std::vector<Reading> read;
  // Keys the simulation does not use, and semantics a reader should know (fixed template values, Helm's
  // treatment of 0), one sentence each.
  std::vector<std::string> notes;
};

// Reads the file with the meaning of the chart version its keys show (`chart`, when given, instead: a file
// with keys of neither is read as release 0.3.1 otherwise); a ScenarioError names the file, line, column
// and key of a setting it cannot honour, a file that mixes the two schemas, or every unknown key at once.
SupersonicValues read_supersonic_values(const std::string& path,
                                        std::optional<SupersonicChart> chart = std::nullopt);

// The YAML of a server group's operations keys for these values (autoscaler or pods, proxy), with a
// comment per key naming the values key it comes from: what `import supersonic` prints.
std::string supersonic_group_yaml(const SupersonicValues& values);

} // namespace sonicsim
