// Runs of one command kept by the recipe that made them (scenario file, variants, overrides, seed), so that a
// run asked for twice is simulated once: predictions on the same scenario share their runs, and a fit's
// points that a step of the parameters leaves as they were are not simulated again (calibrate).
#pragma once

#include "sim/execution/run_or_submit.hpp"
#include "sim/metrics/run_summary.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace sonicsim {

// Summaries already simulated in one command, by recipe (e.g. a large-scale run's events/s per job and its
// gain over direct inference; a held parameter's bound that equals its value; a parameter acting on other
// series, a start ending where another did).
struct RunCache {
  std::map<std::string, RunSummary> summaries;
  std::size_t reused = 0; // runs answered from here
};

// The outcomes of a batch in request order. With a cache, each recipe runs once: not at all when an earlier
// batch of this command ran it, once when it comes several times in this batch.
std::vector<SimulationOutcome> run_cached(const ExecutionContext& context,
                                          const std::vector<SimulationRequest>& requests, RunCache* cache);

} // namespace sonicsim
