// The command-line side of the execution floor (sim/execution): -j/--parallel, --slurm and its companions,
// with help texts that are true for the shape of the command they are on, turned into ExecutionOptions with
// every bad combination refused here, once, for every command.
#pragma once

#include "sim/execution/execution_options.hpp"

#include <CLI/CLI.hpp>

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

struct ExecutionFlags {
  explicit ExecutionFlags(int default_parallel) : parallel(default_parallel) {}
  int parallel;
  bool slurm = false, slurm_wait = false, slurm_dry_run = false, slurm_collect = false;
  ClusterSettings cluster;
};

// Adds -j/--parallel (default `flags.parallel`) and the cluster options that `shape` supports; `simulations`
// names what --slurm runs there, in its help ("the campaign windows (--campaign-windows N)").
void add_execution_options(CLI::App& command, ExecutionFlags& flags, ExecutionShape shape,
                           const std::string& simulations = "the simulations");

// The options the flags say; throws InputError naming the options on a combination that means nothing.
ExecutionOptions execution_options(const ExecutionFlags& flags, bool quiet);

} // namespace sonicsim
