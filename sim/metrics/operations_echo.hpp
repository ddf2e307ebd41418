// The operations keys of a scenario (sim/scenario/operations.hpp) as summary.json's resolved scenario echoes
// them, only where set: a scenario without them echoes as before they existed (same fingerprint).
#pragma once

#include "sim/scenario/scenario.hpp"

#include <nlohmann/json.hpp>

namespace sonicsim {

// Adds `autoscaler`, `failures` and `proxy` to a server group's echo, where the group has them.
void add_group_operations(nlohmann::ordered_json& group_echo, const ServerGroup& group);
// Adds `timeout_s`, `retry_on` and `fallback` to workload.client's echo, where set.
void add_client_operations(nlohmann::ordered_json& client_echo, const ClientSettings& client);

} // namespace sonicsim
