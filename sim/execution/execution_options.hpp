// Where and how a command's simulations run: here in child processes, or on a batch system, and what the
// command does there (wait for the results, submit and return, write the scripts only, or collect what has
// finished). The command line sets these through sim/app/execution_flags, which refuses bad combinations.
#pragma once

#include <string>

namespace sonicsim {

enum class BatchSystem {
  none,  // child processes on this machine (-j at once)
  slurm, // job arrays submitted with sbatch
};

enum class ClusterMode {
  wait,    // submit, wait here for the results, then write the outputs
  submit,  // submit the work and a job that writes the outputs after it; return at once
  dry_run, // write the scripts; submit nothing
  collect, // submit nothing; write the outputs from the results there are (what that job runs)
};

struct ClusterSettings {
  std::string partition; // empty: the cluster's default
  std::string time;      // limit per task, as the batch system takes it (e.g. 1:00:00); empty: its default
  std::string account;   // empty: none
  int throttle = 0;      // at most this many tasks at once; 0: no limit
  int tasks = 0;         // tasks (shards) of a sharded command; 0: one per simulation, at most 1,000
};

struct ExecutionOptions {
  BatchSystem system = BatchSystem::none;
  ClusterMode mode = ClusterMode::wait;
  int parallel = 1; // child processes at once, here
  ClusterSettings cluster;
  bool quiet = false; // no progress lines

  bool on_cluster() const { return system != BatchSystem::none; }
};

} // namespace sonicsim
