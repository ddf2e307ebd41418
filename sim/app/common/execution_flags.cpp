#include "sim/app/common/execution_flags.hpp"

#include "sim/scenario/input_error.hpp"

#include <algorithm>
#include <string>
#include <thread>

namespace sonicsim {

int hardware_threads() {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

void add_execution_options(CLI::App& command, ExecutionFlags& flags, ExecutionShape shape,
                           const std::string& simulations) {
  command
      .add_option("-j,--parallel", flags.parallel,
                  "Simulations at once on this machine, each in its own process (default: " +
                      std::to_string(flags.parallel) + ")")
      ->check(CLI::Range(1, 1024));
  std::string slurm_help;
  switch (shape) {
  case ExecutionShape::simulations:
    slurm_help = "Run " + simulations +
                 " on a Slurm cluster: a job array (one task per simulation) and a merge job after it that "
                 "writes the outputs; returns at once with the job ids (follow with `sonicsim status DIR`)";
    break;
  case ExecutionShape::shards:
    slurm_help = "Run on a Slurm cluster: a job array (one task per shard, --resume in each) and a merge job "
                 "after it that writes the outputs; returns at once with the job ids (follow with "
                 "`sonicsim status DIR`)";
    break;
  case ExecutionShape::deciding:
    slurm_help = "Run on a Slurm cluster: this command becomes a Slurm job that submits each batch of "
                 "simulations as a job array and waits for it; returns at once with its id (follow with "
                 "`sonicsim status DIR`)";
    break;
  }
  // The names a merge or driver job appends when it runs the command again (mode_flag), so they cannot drift.
  const auto flag = [](ClusterMode mode) { return mode_flag(BatchSystem::slurm, mode); };
  command.add_flag(flag(ClusterMode::submit), flags.slurm, slurm_help)->group("Slurm");
  if (shape != ExecutionShape::shards)
    command
        .add_flag(flag(ClusterMode::wait), flags.slurm_wait,
                  shape == ExecutionShape::deciding
                      ? "With --slurm: decide here, submitting each batch as a job array and waiting for it"
                      : "With --slurm: wait here for the array, then write the outputs (default: return at "
                        "once; the merge job writes them)")
        ->group("Slurm");
  if (shape != ExecutionShape::deciding)
    command
        .add_flag(flag(ClusterMode::dry_run), flags.slurm_dry_run,
                  "Write the Slurm scripts into DIR/slurm/ and print how to submit them; submit nothing")
        ->group("Slurm");
  if (shape == ExecutionShape::simulations)
    command
        .add_flag(
            flag(ClusterMode::collect), flags.slurm_collect,
            "Submit nothing: write the outputs from the Slurm results there are (what the merge job runs)")
        ->group("");
  command
      .add_option("--partition", flags.cluster.partition,
                  "Slurm partition for every job (sbatch --partition)")
      ->group("Slurm");
  command
      .add_option("--time", flags.cluster.time,
                  "Time limit per Slurm task, as sbatch takes it (e.g. 2:00:00)")
      ->group("Slurm");
  command.add_option("--account", flags.cluster.account, "Slurm account to charge (sbatch --account)")
      ->group("Slurm");
  command
      .add_option("--throttle", flags.cluster.throttle,
                  "At most N array tasks running at once (--array=...%N)")
      ->check(CLI::Range(1, 100000))
      ->group("Slurm");
  if (shape == ExecutionShape::shards)
    command
        .add_option("--slurm-tasks", flags.cluster.tasks,
                    "Array tasks (shards of the work; default one per point, at most 1,000)")
        ->check(CLI::Range(1, 100000))
        ->group("Slurm");
}

ExecutionOptions execution_options(const ExecutionFlags& flags, bool quiet) {
  ExecutionOptions options;
  options.parallel = flags.parallel;
  options.cluster = flags.cluster;
  options.quiet = quiet;
  // What the merge job runs: this command again with --slurm-collect appended, which wins over the --slurm
  // (and --slurm-wait) it was typed with.
  if (flags.slurm_collect) {
    options.system = BatchSystem::slurm;
    options.mode = ClusterMode::collect;
    return options;
  }
  if (flags.slurm_dry_run && (flags.slurm || flags.slurm_wait))
    throw InputError(
        "--slurm-dry-run writes the scripts and submits nothing: not with --slurm or --slurm-wait");
  if (flags.slurm_wait && !flags.slurm)
    throw InputError("--slurm-wait: only with --slurm (it waits for the array --slurm submits)");
  if (flags.slurm || flags.slurm_dry_run) {
    options.system = BatchSystem::slurm;
    options.mode = flags.slurm_dry_run ? ClusterMode::dry_run
                   : flags.slurm_wait  ? ClusterMode::wait
                                       : ClusterMode::submit;
    return options;
  }
  const ClusterSettings& c = flags.cluster;
  if (!c.partition.empty() || !c.time.empty() || !c.account.empty() || c.throttle > 0 || c.tasks > 0)
    throw InputError("--partition, --time, --account, --throttle and --slurm-tasks set the Slurm jobs: only "
                     "with --slurm or --slurm-dry-run");
  return options;
}

} // namespace sonicsim
