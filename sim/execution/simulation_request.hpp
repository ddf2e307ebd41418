// One simulation a command asks for: the scenario to run here, how a process elsewhere rebuilds it, and
// (here only) where its files go.
#pragma once

#include "sim/engine/simulation.hpp"
#include "sim/execution/scenario_recipe.hpp"
#include "sim/metrics/run_summary.hpp"
#include "sim/scenario/scenario.hpp"

#include <cstddef>
#include <filesystem>
#include <functional>

namespace sonicsim {

struct SimulationRequest {
  Scenario scenario;
  ScenarioRecipe recipe;
  // Run here only: the run's files (summary.json, events.csv, ...) and a direct-inference baseline. A cluster
  // returns the summary alone, so a command that needs these runs here.
  RunOptions here;
};

// Called as each simulation finishes (in completion order) with its index among the requests.
using OnOutcome = std::function<void(std::size_t, const SimulationOutcome&)>;

} // namespace sonicsim
