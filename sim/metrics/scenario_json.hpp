// A scenario as resolved, as JSON: what summary.json records and what a scenario's fingerprint hashes.
#pragma once

#include "sim/scenario/scenario.hpp"

#include <nlohmann/json.hpp>

#include <vector>

namespace sonicsim {

nlohmann::ordered_json scenario_to_json(const Scenario& scenario);

// Provenance entries as [{key, measured|derived|assumed: text}] (summary.json `assumptions`,
// plan.json, compare.json).
nlohmann::ordered_json provenance_to_json(const std::vector<Provenance>& entries);

} // namespace sonicsim
