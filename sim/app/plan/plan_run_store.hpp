// The simulations a plan has finished, kept in OUT/runs/<fingerprint>.json as each finishes, so that a plan
// stopped half-way (Ctrl-C, a lost session) and run again with --resume takes them instead of simulating
// them again. A kept run is the summary of the very scenario asked for (same fingerprint: same layout, jobs,
// seed and every other value), so the search decides as it would have.
#pragma once

#include "sim/execution/run_or_submit.hpp"

#include <filesystem>
#include <vector>

namespace sonicsim {

class PlanRunStore {
public:
  PlanRunStore(std::filesystem::path directory, bool resume)
      : directory_(std::move(directory)), resume_(resume) {}
  // The batch's outcomes: those kept (with --resume) read back, the others run by `context` and kept as each
  // finishes.
  std::vector<SimulationOutcome> run(const ExecutionContext& context,
                                     const std::vector<SimulationRequest>& requests);
  int taken() const { return taken_; } // simulations read back instead of run
  // Every simulation of the plan finished so far (read back or run and kept): the count its progress line
  // shows, and the one an interruption reports.
  int finished() const { return taken_ + kept_; }
  const std::filesystem::path& directory() const { return directory_; }

private:
  std::filesystem::path directory_;
  bool resume_ = false;
  int taken_ = 0;
  int kept_ = 0; // run here and kept
};

} // namespace sonicsim
