// A batch system that runs a command's simulations: the interface every cluster back-end implements (Slurm
// today). A back-end only writes scripts and calls the batch system's own tools; it never schedules.
//
// Two shapes of work:
// - simulations (plan, validate, compare, calibrate, campaign windows, ...): one array task per simulation,
//   rebuilt from its ScenarioRecipe and checked by fingerprint, its result in WORK/<system>/results/;
// - shards (sweep): every array task runs the command again on its shard (--shard i/n --resume), and the
//   command's own point files are the results.
// Adding a batch system: one file implementing Cluster, and one BatchSystem value (execution_options.hpp:
// the value, its names and its place in cluster_systems) with its case in make_cluster (cluster.cpp). Its
// command-line flags follow from the table (sim/app/common/execution_flags.cpp registers every system's by
// mode_flag).
#pragma once

#include "sim/execution/execution_options.hpp"
#include "sim/execution/simulation_request.hpp"

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
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

// Where an array task stands, in words every batch system maps its own to.
enum class TaskState { pending, running, other };
inline const char* task_state_text(TaskState state) {
  switch (state) {
  case TaskState::pending:
    return "pending";
  case TaskState::running:
    return "running";
  case TaskState::other:
    break;
  }
  return "other";
}

// A job the last submission recorded: its id (empty: none) and the batch system's word for its state (none:
// ended, or no longer known to the batch system).
struct JobStatus {
  std::string id;
  std::optional<std::string> state;
};

// What the last submission recorded in a command's output directory is doing, for `sonicsim status DIR`.
struct SubmissionStatus {
  bool recorded = false; // job ids of a submission are recorded
  JobStatus driver, array, merge;
  std::map<int, TaskState> array_tasks; // index -> state, for the tasks the batch system still has
  int shards = 0;                       // a sharded command's tasks (0: not sharded, or a damaged record)
  std::vector<int> shards_submitted;
  // The simulations of the batches submitted, and those with their result (a sharded command's results are
  // its own point files: none counted here).
  std::size_t simulations_submitted = 0, simulations_with_result = 0;
};

class Cluster {
public:
  virtual ~Cluster() = default;
  virtual BatchSystem system() const = 0;
  // The record of the last submission into this work directory, and what its jobs are doing now.
  virtual SubmissionStatus status() const = 0;
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

// The back-end of the batch system whose folder in `work_dir` (WORK_DIR/<system>/) holds submissions; none
// when no system's does.
std::unique_ptr<Cluster> cluster_in(const std::filesystem::path& work_dir);

} // namespace sonicsim
