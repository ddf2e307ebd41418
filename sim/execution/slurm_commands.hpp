// Slurm's own tools, called from sonicsim: sbatch to submit, squeue to follow, and the scripts they take.
// The text each takes and gives is handled by pure functions (script_header, parse_squeue_tasks), unit-tested
// without a cluster.
#pragma once

#include "sim/execution/execution_options.hpp"
#include "sim/execution/shell_commands.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sonicsim::slurm {

// The #SBATCH lines every sonicsim job shares: name, working directory, log file, one task on one core,
// partition, account and (per task) time limit.
std::string script_header(const std::string& job_name, const std::filesystem::path& working_dir,
                          const std::filesystem::path& log_path, const ClusterSettings& settings);

// "1-8" or "2,5,7" (the indices to run), with "%N" when at most N may run at once.
std::string array_spec(int count, const std::vector<int>& subset, int throttle);

// Writes an executable script.
void write_script(const std::filesystem::path& path, const std::string& text);

// `squeue -h -r -o '%i %T'` output -> array index -> state. A pending range not yet split off is one line
// "<job>_[2-5,7%2] PENDING"; a line without an array index is skipped.
std::map<int, std::string> parse_squeue_tasks(const std::string& output);

// The array tasks Slurm still knows (pending or running), by index; and the state of a job. Empty when
// squeue does not know the job (ended and purged, or no cluster).
std::map<int, std::string> array_tasks(const std::string& array_job);
std::optional<std::string> job_state(const std::string& job);

// Submits `script` with sbatch --parsable (extra options before it); returns the job id or throws with
// sbatch's message.
std::string sbatch(const std::filesystem::path& script, const std::string& extra_options = "");

// Waits until squeue no longer lists the job (polling, from 0.2 s up to 5 s apart).
void wait_for_job(const std::string& job);

// The ids recorded by the last submission into `output_dir` (DIR/slurm/jobs.json), if any.
struct Record {
  std::string array_job, merge_job, driver_job;
  int shards = 0;
  std::vector<int> shards_submitted;
};
std::optional<Record> read_record(const std::filesystem::path& output_dir);

} // namespace sonicsim::slurm
