// The simulations a validation runs: every distinct run of its cases once, each held to the precision the
// strictest case reading it needs, and the direct-inference baselines to join to them.
#pragma once

#include "sim/execution/simulation_request.hpp"
#include "sim/validation/validation_case.hpp"

#include <cstddef>
#include <map>
#include <vector>

namespace sonicsim {

// Every distinct run of the cases once, checked before any runs (bad scenarios or overrides fail here with
// exit code 2), each followed by its direct-inference baseline when the scenario has one.
struct ValidationBatch {
  std::vector<RunSpec> runs;
  std::vector<SimulationRequest> requests; // parallel to runs
  std::vector<std::vector<std::size_t>> runs_of_case;
  // Runs whose scenario has a direct-inference baseline: the request simulating it (joined after).
  std::map<std::size_t, std::size_t> baseline_of;
};

ValidationBatch plan_batch(const std::vector<ValidationCase>& cases);

} // namespace sonicsim
