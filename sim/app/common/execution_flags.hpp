// The command-line side of the execution floor (sim/execution): -j/--parallel, each batch system's flags
// (--slurm and its companions, named by the table in execution_options.hpp) and the cluster settings,
// with help texts that are true for the shape of the command they are on, turned into ExecutionOptions with
// every bad combination refused here, once, for every command.
#pragma once

#include "sim/execution/execution_options.hpp"

#include <CLI/CLI.hpp>

#include <map>
#include <string>

namespace sonicsim {

// How a command's simulations are laid out, which decides what its cluster options mean.
enum class ExecutionShape {
  simulations, // a set known ahead (validate, compare, run's windows): an array and a merge job
  shards,      // a sweep: each array task runs the command on its shard; a merge job writes the table
  deciding,    // each batch chosen from the last (plan, calibrate): the command itself runs as a driver job
};

// The machine's hardware threads (at least 1): the default -j of commands whose runs are short.
int hardware_threads();

// The flags of one batch system (--slurm, --slurm-wait, --slurm-dry-run, --slurm-collect for Slurm): which
// of its modes the command line asked for.
struct ClusterFlags {
  bool submit = false, wait = false, dry_run = false, collect = false;
  bool any() const { return submit || wait || dry_run || collect; }
};

struct ExecutionFlags {
  explicit ExecutionFlags(int default_parallel) : parallel(default_parallel) {}
  int parallel;
  std::map<BatchSystem, ClusterFlags> clusters; // one entry per batch system (cluster_systems), its flags
  ClusterSettings cluster;
  // Whether a batch system's submit or dry-run flag was given (the command's work would go there).
  bool any_cluster() const;
};

// Adds -j/--parallel (default `flags.parallel`) and the cluster options that `shape` supports; `simulations`
// names what --slurm runs there, in its help ("the campaign windows (--campaign-windows N)").
void add_execution_options(CLI::App& command, ExecutionFlags& flags, ExecutionShape shape,
                           const std::string& simulations = "the simulations");

// The batch systems' titles ("Slurm"), or with `flags` the flags that submit to them ("--slurm or
// --slurm-dry-run"), for messages that name every system there is.
std::string cluster_flag_list(bool flags);

// The options the flags say; throws InputError naming the options on a combination that means nothing.
ExecutionOptions execution_options(const ExecutionFlags& flags, bool quiet);

} // namespace sonicsim
