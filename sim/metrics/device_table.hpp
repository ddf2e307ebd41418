// What a GPU reports besides its utilisation, for the dashboards SONIC operators read (nv_gpu_power_limit,
// nv_gpu_memory_total_bytes): each type's board power limit and memory from its maker's datasheet. Pure code.
#pragma once

#include <optional>
#include <string>

namespace sonicsim {

struct DeviceSpec {
  double power_limit_w = 0.0;
  double memory_bytes = 0.0;
  const char* source = ""; // the datasheet the numbers come from
};

// The spec of a device type as scenarios name it (T4, A100, A10, L4, L40, V100, ...); none for a type the
// table does not hold (its power and memory series are then not written, and the run says so).
std::optional<DeviceSpec> device_spec(const std::string& type);

} // namespace sonicsim
