// How another process rebuilds a scenario this one made: the file (or the embedded default), the variants
// applied in order, the overrides, then the seed. A Slurm array task rebuilds its simulation from it, and the
// fingerprint of the resolved scenario proves it made the very scenario the command meant.
#pragma once

#include "sim/scenario/scenario.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace sonicsim {

struct ScenarioRecipe {
  std::string scenario_path; // absolute; empty: the embedded default
  std::vector<std::string> variants;
  std::vector<std::string> overrides; // key.path=value, applied after the variants
  // Apart from the overrides: replication seeds use all 64 bits, more than a scenario file's seed may hold.
  std::uint64_t seed = 0;

  // Loads the scenario (a ScenarioError on bad input) and sets the seed.
  Scenario rebuild() const;
  nlohmann::ordered_json to_json() const;
  // Throws nlohmann::json::exception when a field is missing or of the wrong type (read_state_file tells it).
  static ScenarioRecipe from_json(const nlohmann::ordered_json& json);
};

// A hash of the resolved scenario (everything that decides the simulation, not the file it came from), so a
// stale result of another command in the same directory is never taken for this one.
std::string scenario_fingerprint(const Scenario& scenario);

} // namespace sonicsim
