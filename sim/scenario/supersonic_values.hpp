// A SuperSONIC Helm values file (fastmachinelearning/SuperSONIC, chart 0.3.1) read as the chart means it:
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

struct SupersonicValues {
  std::string file;
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

// Reads the file with chart 0.3.1's meaning; a ScenarioError names the file, line, column and key of a
// setting it cannot honour.
SupersonicValues read_supersonic_values(const std::string& path);

// The YAML of a server group's operations keys for these values (autoscaler or pods, proxy), with a
// comment per key naming the values key it comes from: what `import supersonic` prints.
std::string supersonic_group_yaml(const SupersonicValues& values);

} // namespace sonicsim
