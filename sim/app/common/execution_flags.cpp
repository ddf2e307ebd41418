#include "sim/app/common/execution_flags.hpp"

#include "sim/scenario/input_error.hpp"

#include <algorithm>
#include <string>
#include <thread>

namespace sonicsim {

int hardware_threads() {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

namespace {

// One batch system's flags, each mode's name from mode_flag (the names a merge or driver job appends when it
// runs the command again, so they cannot drift), their help true for the command's shape.
void add_cluster_flags(CLI::App& command, BatchSystem system, ClusterFlags& flags, ExecutionShape shape,
                       const std::string& simulations) {
  const std::string title = batch_system_title(system), name = batch_system_name(system);
  std::string help;
  switch (shape) {
  case ExecutionShape::simulations:
    help = "Run " + simulations + " on a " + title +
           " cluster: a job array (one task per simulation) and a merge job after it that "
           "writes the outputs; returns at once with the job ids (follow with `sonicsim status DIR`)";
    break;
  case ExecutionShape::shards:
    help = "Run on a " + title +
           " cluster: a job array (one task per shard, --resume in each) and a merge job "
           "after it that writes the outputs; returns at once with the job ids (follow with "
           "`sonicsim status DIR`)";
    break;
  case ExecutionShape::deciding:
    help = "Run on a " + title + " cluster: this command becomes a " + title +
           " job that submits each batch of "
           "simulations as a job array and waits for it; returns at once with its id (follow with "
           "`sonicsim status DIR`)";
    break;
  }
  const auto flag = [system](ClusterMode mode) { return mode_flag(system, mode); };
  command.add_flag(flag(ClusterMode::submit), flags.submit, help)->group(title);
  if (shape != ExecutionShape::shards)
    command
        .add_flag(flag(ClusterMode::wait), flags.wait,
                  shape == ExecutionShape::deciding
                      ? "With --" + name +
                            ": decide here, submitting each batch as a job array and waiting for it"
                      : "With --" + name +
                            ": wait here for the array, then write the outputs (default: return at "
                            "once; the merge job writes them)")
        ->group(title);
  if (shape != ExecutionShape::deciding)
    command
        .add_flag(flag(ClusterMode::dry_run), flags.dry_run,
                  "Write the " + title + " scripts into DIR/" + name +
                      "/ and print how to submit them; submit nothing")
        ->group(title);
  if (shape == ExecutionShape::simulations)
    command
        .add_flag(flag(ClusterMode::collect), flags.collect,
                  "Submit nothing: write the outputs from the " + title +
                      " results there are (what the merge job runs)")
        ->group("");
}

} // namespace

void add_execution_options(CLI::App& command, ExecutionFlags& flags, ExecutionShape shape,
                           const std::string& simulations) {
  command
      .add_option("-j,--parallel", flags.parallel,
                  "Simulations at once on this machine, each in its own process (default: " +
                      std::to_string(flags.parallel) + ")")
      ->check(CLI::Range(1, 1024));
  for (const BatchSystem system : cluster_systems)
    add_cluster_flags(command, system, flags.clusters[system], shape, simulations);
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

namespace {

// The mode one batch system's flags ask for, or the combination refused.
ExecutionOptions cluster_options(BatchSystem system, const ClusterFlags& given, ExecutionOptions options) {
  options.system = system;
  const auto flag = [system](ClusterMode mode) { return mode_flag(system, mode); };
  // What the merge job runs: this command again with the collect flag appended, which wins over the submit
  // (and wait) flag it was typed with.
  if (given.collect) {
    options.mode = ClusterMode::collect;
    return options;
  }
  if (given.dry_run && (given.submit || given.wait))
    throw InputError(flag(ClusterMode::dry_run) + " writes the scripts and submits nothing: not with " +
                     flag(ClusterMode::submit) + " or " + flag(ClusterMode::wait));
  if (given.wait && !given.submit)
    throw InputError(flag(ClusterMode::wait) + ": only with " + flag(ClusterMode::submit) +
                     " (it waits for the array " + flag(ClusterMode::submit) + " submits)");
  options.mode = given.dry_run ? ClusterMode::dry_run : given.wait ? ClusterMode::wait : ClusterMode::submit;
  return options;
}

} // namespace

std::string cluster_flag_list(bool flags) {
  std::string out;
  for (const BatchSystem system : cluster_systems)
    out += (out.empty() ? "" : ", ") +
           (flags ? mode_flag(system, ClusterMode::submit) + " or " + mode_flag(system, ClusterMode::dry_run)
                  : std::string(batch_system_title(system)));
  return out;
}

bool ExecutionFlags::any_cluster() const {
  for (const auto& [system, given] : clusters)
    if (given.submit || given.dry_run) return true;
  return false;
}

ExecutionOptions execution_options(const ExecutionFlags& flags, bool quiet) {
  ExecutionOptions options;
  options.parallel = flags.parallel;
  options.cluster = flags.cluster;
  options.quiet = quiet;
  const BatchSystem* chosen = nullptr;
  for (const auto& [system, given] : flags.clusters) {
    if (!given.any()) continue;
    if (chosen)
      throw InputError(std::string("--") + batch_system_name(*chosen) + " and --" +
                       batch_system_name(system) + ": one batch system at a time");
    chosen = &system;
  }
  if (chosen) return cluster_options(*chosen, flags.clusters.at(*chosen), options);
  const ClusterSettings& c = flags.cluster;
  if (!c.partition.empty() || !c.time.empty() || !c.account.empty() || c.throttle > 0 || c.tasks > 0)
    throw InputError("--partition, --time, --account, --throttle and --slurm-tasks set the " +
                     cluster_flag_list(false) + " jobs: only with " + cluster_flag_list(true));
  return options;
}

} // namespace sonicsim
