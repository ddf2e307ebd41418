// How another process rebuilds a scenario this one made: the file (or the embedded default), the variants
// applied in order, the overrides, then the seed; or, for a scenario no file holds (perf_analyzer's setup
// built from its measurement files), a named generator and its arguments. A Slurm array task rebuilds its
// simulation from it, and the fingerprint of the resolved scenario proves it made the very scenario the
// command meant.
#pragma once

#include "sim/scenario/scenario.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

// A scenario built by code from inputs (files, settings): the generator's name and what it needs.
struct GeneratedScenario {
  std::string generator;
  nlohmann::ordered_json arguments;
};
// Builds a scenario from a generator's arguments; throws InputError when they do not make one.
using ScenarioGenerator = std::function<Scenario(const nlohmann::ordered_json& arguments)>;
// Makes the generator known to rebuild() in this process. The commands that make such scenarios register
// theirs when the command line is declared, so an array task (the same executable) knows them too.
void register_scenario_generator(const std::string& name, ScenarioGenerator generator);

struct ScenarioRecipe {
  std::string scenario_path; // absolute; empty: the embedded default
  std::vector<std::string> variants;
  std::vector<std::string> overrides; // key.path=value, applied after the variants
  // Apart from the overrides: replication seeds use all 64 bits, more than a scenario file's seed may hold.
  std::uint64_t seed = 0;
  std::optional<GeneratedScenario> generated; // set: built by a generator, not read from a file

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
