#include "sim/app/simulation_batch.hpp"

#include "sim/app/process_pool.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/metrics/summary_json.hpp"

#include <cstdio>

namespace sonicsim {

std::vector<SimulationOutcome> simulate_batch(const std::vector<Scenario>& scenarios, int parallel,
                                              const std::string& label) {
  std::vector<SimulationOutcome> outcomes(scenarios.size());
  std::size_t done = 0;
  run_in_child_processes(
      scenarios.size(), parallel,
      [&](std::size_t k) {
        return run_summary_to_json(run_simulation(scenarios[k], RunOptions{}).summary).dump();
      },
      [&](std::size_t k, const ChildResult& child) {
        SimulationOutcome& outcome = outcomes[k];
        outcome.wall_clock_s = child.wall_clock_s;
        outcome.ok = child.ok;
        if (child.ok)
          outcome.summary = run_summary_from_json(nlohmann::ordered_json::parse(child.output));
        else
          outcome.error = child.output;
        std::fprintf(stderr, "%s: %zu/%zu runs of this batch done (%d jobs, %.1f s)\n", label.c_str(), ++done,
                     scenarios.size(), scenarios[k].workload.jobs, child.wall_clock_s);
      });
  return outcomes;
}

} // namespace sonicsim
