// A batch system that runs a command's simulations: the interface every cluster back-end implements (Slurm
// today). A back-end only writes scripts and calls the batch system's own tools; it never schedules.
//
// Two shapes of work:
// - simulations (plan, validate, compare, calibrate, campaign windows, ...): one array task per simulation,
//   rebuilt from its ScenarioRecipe and checked by fingerprint, its result in WORK/<system>/results/;
// - shards (sweep): every array task runs the command again on its shard (--shard i/n --resume), and the
//   command's own point files are the results.
// Adding a batch system: one file implementing Cluster, and one BatchSystem value (execution_options.hpp)
// with its switch in make_cluster and its flag in sim/app/execution_flags.cpp.
#pragma once

#include "sim/execution/execution_options.hpp"
#include "sim/execution/simulation_request.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace sonicsim {

// What a submission wrote and, unless it was a dry run, the job ids it got.
struct Submission {
  std::filesystem::path array_script, merge_script;
  std::string array_job, merge_job; // empty on a dry run; array_job empty when every result was there
};

// A sharded command's array: each task runs `task_command --shard i/shards --resume -j 1`.
struct ShardWork {
  std::vector<std::string> task_command;
  std::vector<std::string> merge_command;
  int shards = 1;
  std::vector<int> shards_to_run; // a subset when resubmitting; empty: all
};

class Cluster {
public:
  virtual ~Cluster() = default;
  // Runs what has no result yet as one array, waits for it, and returns the outcomes in order.
  virtual std::vector<SimulationOutcome> run(const std::vector<SimulationRequest>& requests) = 0;
  // Submits what has no result yet and `merge_command` as a job after it; returns at once. A dry run
  // (ClusterMode::dry_run) writes the scripts only.
  virtual Submission submit(const std::vector<SimulationRequest>& requests,
                            const std::vector<std::string>& merge_command) = 0;
  // The outcomes from the results there are; a simulation without one is not ok, and says so.
  virtual std::vector<SimulationOutcome> collect(const std::vector<SimulationRequest>& requests) const = 0;
  // Submits a sharded command's array and merge (or writes them, on a dry run).
  virtual Submission submit_shards(const ShardWork& work) = 0;
  // Submits `command` itself as one job (a command that decides each batch from the last runs there and
  // submits its batches from there); returns the job id.
  virtual std::string submit_driver(const std::vector<std::string>& command) = 0;
  // The lines that tell the user what a dry run wrote and how to submit it.
  virtual void print_dry_run(const Submission& submission) const = 0;
};

// The back-end of options.system (not BatchSystem::none), keeping its files in WORK_DIR/<system>/; `label`
// names its jobs ("sonicsim-<label>") and starts its messages.
std::unique_ptr<Cluster> make_cluster(const ExecutionOptions& options, const std::filesystem::path& work_dir,
                                      const std::string& label);

} // namespace sonicsim
