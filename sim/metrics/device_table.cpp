#include "sim/metrics/device_table.hpp"

#include <map>

namespace sonicsim {

std::optional<DeviceSpec> device_spec(const std::string& type) {
  constexpr double gib = 1024.0 * 1024.0 * 1024.0;
  // Board power and memory of the PCIe cards cloud providers and SONIC deployments use (the 80 GB A100 is
  // the SXM4 module Anvil's values file names).
  static const std::map<std::string, DeviceSpec> table{
      {"T4", {70.0, 16.0 * gib, "NVIDIA T4 Tensor Core GPU datasheet: 70 W, 16 GB GDDR6"}},
      {"A100",
       {250.0, 40.0 * gib, "NVIDIA A100 Tensor Core GPU datasheet, A100 40GB PCIe: 250 W, 40 GB HBM2"}},
      {"A100-80GB", {400.0, 80.0 * gib, "NVIDIA A100 datasheet, A100 80GB SXM: 400 W, 80 GB HBM2e"}},
      {"A10", {150.0, 24.0 * gib, "NVIDIA A10 Tensor Core GPU datasheet: 150 W, 24 GB GDDR6"}},
      {"L4", {72.0, 24.0 * gib, "NVIDIA L4 Tensor Core GPU datasheet: 72 W, 24 GB GDDR6"}},
      {"L40", {300.0, 48.0 * gib, "NVIDIA L40 GPU datasheet: 300 W, 48 GB GDDR6"}},
      {"V100", {250.0, 16.0 * gib, "NVIDIA V100 Tensor Core GPU datasheet, V100 PCIe: 250 W, 16 GB HBM2"}},
      {"P100", {250.0, 16.0 * gib, "NVIDIA Tesla P100 PCIe datasheet: 250 W, 16 GB HBM2"}},
  };
  const auto it = table.find(type);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

} // namespace sonicsim
