// The one way a command runs its simulations, here or on a cluster, whatever the command: it builds its
// requests, calls run_or_submit, and writes its outputs when it gets outcomes back.
#pragma once

#include "sim/execution/execution_options.hpp"
#include "sim/execution/simulation_request.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

class Progress;

struct ExecutionContext {
  ExecutionOptions options;
  std::filesystem::path work_dir; // a cluster's scripts, logs and results: WORK_DIR/<system>/
  std::string label;              // starts progress lines and names jobs ("validate", "compare")
  std::string merged_outputs;     // what the merge job writes, for the submission message
  // A command that runs several batches here (run_batch): its one progress over all of them; none: a
  // progress per batch.
  Progress* progress = nullptr;
};

// Every outcome, in request order (run here, or on the cluster and waited for or collected); or none when
// the simulations were submitted (a merge job runs this command again with its system's collect flag,
// mode_flag: --slurm-collect, and writes the outputs) or only written (dry run): both printed, and the
// command returns success without outputs.
std::optional<std::vector<SimulationOutcome>> run_or_submit(const ExecutionContext& context,
                                                            const std::vector<SimulationRequest>& requests,
                                                            const OnOutcome& on_outcome = {});

// For a command that decides each batch from the last (plan, calibrate): with ClusterMode::submit, submits
// this command itself as a driver job that runs its batches on the cluster (--slurm-wait), prints its id and
// returns true; otherwise returns false and the command goes on.
bool submit_as_driver(const ExecutionContext& context, const std::string& outputs);

// The batch runner a deciding command hands its search: each call runs one batch (here, or as an array it
// waits for) and returns its outcomes.
// `on_outcome`: called as each simulation run here finishes (a cluster keeps its results by itself).
std::vector<SimulationOutcome> run_batch(const ExecutionContext& context,
                                         const std::vector<SimulationRequest>& requests,
                                         const OnOutcome& on_outcome = {});

} // namespace sonicsim
