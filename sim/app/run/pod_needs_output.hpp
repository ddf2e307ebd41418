// `analytic` on a scenario with an autoscaler: the MVA's steady state for each pod count at the
// scenario's jobs, the count its threshold asks for, and how long the autoscaler takes to reach it.
#pragma once

#include "sim/analysis/pod_needs.hpp"

#include <nlohmann/json.hpp>

namespace sonicsim {

void print_pod_needs(const analysis::PodNeeds& needs);
nlohmann::ordered_json pod_needs_to_json(const analysis::PodNeeds& needs);

} // namespace sonicsim
