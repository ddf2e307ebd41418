// `analytic` on a scenario with an autoscaler: the MVA's steady state for each replica count at the
// scenario's jobs, the count its threshold asks for, and how long the autoscaler takes to reach it.
#pragma once

#include "sim/analysis/replica_needs.hpp"

#include <nlohmann/json.hpp>

namespace sonicsim {

void print_replica_needs(const analysis::ReplicaNeeds& needs);
nlohmann::ordered_json replica_needs_to_json(const analysis::ReplicaNeeds& needs);

} // namespace sonicsim
