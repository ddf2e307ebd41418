// Running a command's simulations on a Slurm cluster with Slurm's own tools: sonicsim writes a job-array
// script (one array task per shard of the work, the array index being the shard index 1..n) and a merge
// script, submits the array with sbatch, then the merge as a job that depends on it (afterany), and records
// the job ids in DIR/slurm/jobs.json. Every array task runs the same sonicsim command on its shard with
// --resume, so a task that is run again keeps what it finished; the merge runs nothing and writes the outputs
// from the finished results. Slurm schedules; sonicsim only writes scripts and calls sbatch and squeue.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

struct SlurmOptions {
  bool submit = false;   // --slurm
  bool dry_run = false;  // --slurm-dry-run: write the scripts, submit nothing
  std::string partition; // --partition for every job; empty: the cluster's default
  std::string time;      // --time limit per array task, as sbatch takes it (e.g. 1:00:00); empty: default
  std::string account;   // --account; empty: none
  int throttle = 0;      // at most this many array tasks at once (--array ...%N); 0: no limit
  int tasks = 0;         // array tasks (shards); 0: one per simulation, at most 1,000
  bool wait = false;     // --slurm-wait: submit, wait here for the results and write the outputs
  bool collect = false;  // --slurm-collect: submit nothing; write the outputs from the results there are

  bool enabled() const { return submit || dry_run || collect; }
};

// Adds --slurm, --slurm-dry-run, --slurm-wait, --partition, --time, --account and --throttle to a command,
// and
// --slurm-tasks to one whose work is cut into shards (sweep).
void add_slurm_options(CLI::App& command, SlurmOptions& options, bool shards = false);

// What to submit: the command each array task runs (its shard appended as --shard $SLURM_ARRAY_TASK_ID/n) and
// the merge command, both as argument lists, run from `working_dir`.
struct SlurmWork {
  std::string name;                      // job name prefix, e.g. "sonicsim-sweep"
  std::filesystem::path output_dir;      // on a file system the cluster's nodes share
  std::filesystem::path working_dir;     // where relative paths in the commands resolve
  std::vector<std::string> task_command; // without --shard
  std::vector<std::string> merge_command;
  int shards = 1;                 // the array's indices are 1..shards
  std::vector<int> shards_to_run; // a subset when resubmitting; empty: all
};

struct SlurmSubmission {
  std::filesystem::path array_script, merge_script;
  std::string array_job, merge_job; // empty on a dry run
};

// Writes DIR/slurm/array.sh and merge.sh and, unless dry_run, submits them and records the ids in
// DIR/slurm/jobs.json. Throws std::runtime_error with sbatch's own message when it refuses a job.
SlurmSubmission submit_to_slurm(const SlurmWork& work, const SlurmOptions& options);

// The array tasks Slurm still knows (pending or running), by array index, from squeue; and the state of a
// job. Empty when squeue does not know the job (ended and purged, or no cluster).
std::map<int, std::string> slurm_array_tasks(const std::string& array_job);
std::optional<std::string> slurm_job_state(const std::string& job);

// The ids recorded by the last submission into `output_dir`, if any.
struct SlurmRecord {
  std::string array_job, merge_job;
  int shards = 0;
  std::vector<int> shards_submitted;
};
std::optional<SlurmRecord> read_slurm_record(const std::filesystem::path& output_dir);

// The #SBATCH lines every sonicsim job shares: name, working directory, log file, one task on one core,
// partition, account and (per task) time limit.
std::string slurm_script_header(const std::string& job_name, const std::filesystem::path& working_dir,
                                const std::filesystem::path& log_path, const SlurmOptions& options);

// Runs a shell command line; returns its exit status and what it printed (stdout and stderr together).
std::pair<int, std::string> run_shell(const std::string& line);

// Submits `script` with sbatch --parsable (extra options before it); returns the job id or throws with
// sbatch's message.
std::string sbatch(const std::filesystem::path& script, const std::string& extra_options = "");

// Waits until squeue no longer lists the job (polling, from 0.2 s up to 5 s apart).
void wait_for_slurm_job(const std::string& job);

// What a dry run wrote, and the two sbatch lines that would submit it.
void print_dry_run(const SlurmSubmission& submission);

// A shell word: the text single-quoted where it needs to be.
std::string shell_quote(const std::string& text);

// The absolute path of the running sonicsim executable.
std::string own_executable();

} // namespace sonicsim
