// Where and how a command's simulations run: here in child processes, or on a batch system, and what the
// command does there (wait for the results, submit and return, write the scripts only, or collect what has
// finished). The command line sets these through sim/app/common/execution_flags, which refuses bad
// combinations.
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

// What each batch system is called: `name` as its folder in a command's output directory (DIR/<name>/) and
// its flags (--<name>, --<name>-wait, ...) spell it, `title` as a sentence names it ("submitted to Slurm").
// A new system is one row here.
struct BatchSystemNames {
  BatchSystem system;
  const char* name;
  const char* title;
};
inline constexpr BatchSystemNames batch_system_names[] = {
    {BatchSystem::none, "here", "this machine"},
    {BatchSystem::slurm, "slurm", "Slurm"},
};

inline const BatchSystemNames& names_of(BatchSystem system) {
  for (const auto& row : batch_system_names)
    if (row.system == system) return row;
  return batch_system_names[0];
}
inline const char* batch_system_name(BatchSystem system) {
  return names_of(system).name;
}
inline const char* batch_system_title(BatchSystem system) {
  return names_of(system).title;
}

// The batch systems a command's output directory may hold a submission of (`sonicsim status` looks for each).
inline constexpr BatchSystem cluster_systems[] = {BatchSystem::slurm};

// The flag that makes a command `mode` on `system` (--slurm-wait, --slurm-collect, --slurm-dry-run; the
// plain --slurm submits): the words a merge job or a driver job appends to the command it runs again, and the
// names the command line registers.
inline std::string mode_flag(BatchSystem system, ClusterMode mode) {
  const std::string flag = std::string("--") + batch_system_name(system);
  switch (mode) {
  case ClusterMode::wait:
    return flag + "-wait";
  case ClusterMode::collect:
    return flag + "-collect";
  case ClusterMode::dry_run:
    return flag + "-dry-run";
  case ClusterMode::submit:
    break;
  }
  return flag;
}

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
