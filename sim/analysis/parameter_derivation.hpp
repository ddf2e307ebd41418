// The steps of derive_parameters (scenario_parameters.hpp), shared by the files that hold them: what the
// derivation builds up, and the steps in the order they run. Internal to sim/analysis.
#pragma once

#include "sim/analysis/scenario_parameters.hpp"
#include "sim/scenario/server_layout.hpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace sonicsim::analysis::derivation {

inline std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

inline std::string gbps_text(double bps) {
  return format("%g Gb/s", bps / 1e9);
}

// What derive_parameters builds up step by step: the result, and the per-group demands its stations need.
struct Derivation {
  explicit Derivation(const Scenario& s)
      : scenario(s), layout(make_server_layout(s)), serving(s.platform.server_groups.size(), false),
        device_demand(s.platform.server_groups.size()), host_demand(s.platform.server_groups.size()),
        gpu_instances(s.platform.server_groups.size()), device_batches(s.platform.server_groups.size()),
        device_requests(s.platform.server_groups.size()), group_bytes(s.platform.server_groups.size(), 0.0) {}

  void note(std::string symbol, double value, std::string unit, std::string derivation) {
    out.quantities.push_back(
        DerivedQuantity{std::move(symbol), value, std::move(unit), std::move(derivation)});
  }

  const Scenario& scenario;
  ScenarioParameters out;
  ServerLayout layout;
  std::vector<bool> serving; // per group: it serves some model
  // Per group: each model's device and host demand per event, its GPU-kind instances per pod, and the bytes
  // sent to the group's pods per event.
  std::vector<std::vector<std::pair<std::string, double>>> device_demand, host_demand;
  std::vector<std::vector<int>> gpu_instances;
  // Per group: each model's device batches per event (merged batches when the MVA assumes merging), for the
  // model-switch time of shared devices.
  std::vector<std::vector<double>> device_batches;
  // The same as each request runs alone (low load, no merging): the switches the SONIC model lacks.
  std::vector<std::vector<double>> device_requests;
  std::vector<double> group_bytes;
  double rtt_s = 0.0, switch_left_bps = 0.0;
  double seconds_per_bit = 0.0; // expected time per bit over the NIC mix (time, not rate, is what averages)
  // A shared client node (client_node_sharing.hpp): the mean slowdown of a thread's non-inference CPU work
  // and of its inference on the CPU, set before the modules are derived (1: a node of its own), and the work
  // the modules add up at the thread's speed alone on a core, from which the slowdowns are found.
  double cpu_slowdown = 1.0, inference_slowdown = 1.0;
  double cpu_work_s = 0.0, inference_work_s = 0.0;
};

// derive_modules.cpp: the CPU mix, the servers' pods and the rate one connection gets; then each module.
void derive_connection(Derivation& d);
void derive_cpu_module(Derivation& d, const Module& module);
void derive_remote_module(Derivation& d, const Module& module, std::uint64_t module_index);

} // namespace sonicsim::analysis::derivation
