// `run --sensitivity`: what a run's answer rests on, ranked. Each value the scenario uses whose provenance
// gives a range (range: {low, high, why}) is set to each end in turn (--set KEY=LOW, KEY=HIGH, the same
// seed: common random numbers), the run made again, and the answer (the mean time per event, and the events/s
// per job beside it) compared at the two ends; largest swing first, each swing set against the run's own 95 %
// interval so a swing within the run's noise says so. Printed, and written to sensitivity.json (drawn as a
// tornado chart by the HTML report).
#pragma once

#include "sim/app/common/scenario_source.hpp"
#include "sim/execution/simulation_request.hpp"
#include "sim/metrics/run_summary.hpp"

#include <filesystem>

namespace sonicsim {

// The runs at each range's two ends (low, high per value, in the provenance's order), each loaded before
// anything is simulated. `scenario`: as loaded from `source`. Throws InputError naming the provenance entry
// whose end the scenario refuses, and when the scenario gives no range at all (there is nothing to rank).
struct SensitivityRuns {
  std::vector<Provenance> ranged;
  std::vector<SimulationRequest> ends;
};
SensitivityRuns sensitivity_runs(const ScenarioSource& source, const Scenario& scenario);

// Runs them, ranks the values by the swing of the time per event, writes sensitivity.json into output_dir and
// prints the table when `print`. `base`: the scenario's own run.
void run_sensitivity(const SensitivityRuns& runs, const Scenario& scenario, const RunSummary& base,
                     const std::filesystem::path& output_dir, int parallel, bool quiet, bool print);

} // namespace sonicsim
