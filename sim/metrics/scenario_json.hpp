// A scenario as resolved, as JSON: what summary.json records and what a scenario's fingerprint hashes.
#pragma once

#include "sim/scenario/scenario.hpp"

#include <nlohmann/json.hpp>

namespace sonicsim {

nlohmann::ordered_json scenario_to_json(const Scenario& scenario);

} // namespace sonicsim
