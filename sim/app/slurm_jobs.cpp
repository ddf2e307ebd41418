#include "sim/app/slurm_jobs.hpp"

#include "sim/app/state_file.hpp"

#include "sim/app/sweep_point_files.hpp"
#include "sim/scenario/input_error.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace sonicsim {

void add_slurm_options(CLI::App& command, SlurmOptions& options, bool shards) {
  command.add_flag("--slurm", options.submit,
                   "Run on a Slurm cluster: submit a job array (one task per shard, --resume in each) and a "
                   "merge job that depends on it; prints the job ids (see `sonicsim status DIR`)");
  command.add_flag("--slurm-dry-run", options.dry_run,
                   "Write the Slurm scripts into DIR/slurm/ without submitting them");
  command.add_option("--partition", options.partition, "Slurm partition for every job (sbatch --partition)");
  command.add_option("--time", options.time, "Time limit per array task, as sbatch takes it (e.g. 2:00:00)");
  command.add_option("--account", options.account, "Slurm account to charge (sbatch --account)");
  command.add_option("--throttle", options.throttle, "At most N array tasks running at once (--array=...%N)")
      ->check(CLI::Range(1, 100000));
  command.add_flag(
      "--slurm-wait", options.wait,
      "With --slurm: wait here for the array, then write the outputs (default: return at once; a "
      "merge job writes them)");
  command
      .add_flag(
          "--slurm-collect", options.collect,
          "Submit nothing: write the outputs from the Slurm results there are (what the merge job runs)")
      ->group("");
  if (!shards) return;
  command
      .add_option("--slurm-tasks", options.tasks,
                  "Array tasks (shards of the work; default one per simulation, at most 1,000)")
      ->check(CLI::Range(1, 100000));
}

std::string shell_quote(const std::string& text) {
  if (!text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                              "_-+=./:,@%") == std::string::npos)
    return text;
  std::string quoted = "'";
  for (const char c : text)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string own_executable() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error)
    throw std::runtime_error("cannot find the sonicsim executable (/proc/self/exe): " + error.message());
  return self.string();
}

namespace {

std::string join_command(const std::vector<std::string>& words) {
  std::string line;
  for (const auto& word : words)
    line += (line.empty() ? "" : " ") + shell_quote(word);
  return line;
}

} // namespace

std::pair<int, std::string> run_shell(const std::string& line) {
  FILE* pipe = ::popen((line + " 2>&1").c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run: " + line);
  std::string output;
  std::array<char, 4096> buffer{};
  while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe))
    output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, output};
}

namespace {

std::string trim(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\r'))
    text.pop_back();
  return text;
}

// "1-8" or "2,5,7" (the shards to run), with the throttle.
std::string array_spec(const SlurmWork& work, int throttle) {
  std::string spec;
  if (work.shards_to_run.empty()) {
    spec = "1-" + std::to_string(work.shards);
  } else {
    for (const int shard : work.shards_to_run)
      spec += (spec.empty() ? "" : ",") + std::to_string(shard);
  }
  if (throttle > 0) spec += "%" + std::to_string(throttle);
  return spec;
}

} // namespace

std::string slurm_script_header(const std::string& job_name, const fs::path& working_dir,
                                const fs::path& log_path, const SlurmOptions& options) {
  std::ostringstream out;
  out << "#!/bin/bash\n"
      << "#SBATCH --job-name=" << job_name << "\n"
      << "#SBATCH --chdir=" << working_dir.string() << "\n"
      << "#SBATCH --output=" << log_path.string() << "\n"
      << "#SBATCH --ntasks=1\n"
      << "#SBATCH --cpus-per-task=1\n";
  if (!options.partition.empty()) out << "#SBATCH --partition=" << options.partition << "\n";
  if (!options.account.empty()) out << "#SBATCH --account=" << options.account << "\n";
  if (!options.time.empty()) out << "#SBATCH --time=" << options.time << "\n";
  return out.str();
}

namespace {
std::string header(const std::string& job_name, const SlurmWork& work, const SlurmOptions& options,
                   const std::string& log_name) {
  return slurm_script_header(job_name, work.working_dir, work.output_dir / "slurm" / "logs" / log_name,
                             options);
}

void write_script(const fs::path& path, const std::string& text) {
  write_file_atomically(path, text);
  ::chmod(path.c_str(), 0755);
}

} // namespace

SlurmSubmission submit_to_slurm(const SlurmWork& work, const SlurmOptions& options) {
  const fs::path slurm_dir = work.output_dir / "slurm";
  fs::create_directories(slurm_dir / "logs");
  SlurmSubmission submission;
  submission.array_script = slurm_dir / "array.sh";
  submission.merge_script = slurm_dir / "merge.sh";

  std::ostringstream array;
  array << header(work.name, work, options, "task_%A_%a.out");
  array << "#SBATCH --array=" << array_spec(work, options.throttle) << "\n";
  array << "# Array index i runs shard i of " << work.shards
        << " (the array's indices are the shard indices). --resume keeps what this\n"
        << "# shard finished before, so a task that is run again only runs what is missing.\n"
        << "exec " << join_command(work.task_command) << " --shard \"${SLURM_ARRAY_TASK_ID}/" << work.shards
        << "\" --resume -j 1\n";
  write_script(submission.array_script, array.str());

  std::ostringstream merge;
  merge << header(work.name + "-merge", work, options, "merge_%j.out");
  merge
      << "# Runs nothing: writes the outputs from the finished results and names what is missing (exit 1).\n"
      << "exec " << join_command(work.merge_command) << "\n";
  write_script(submission.merge_script, merge.str());

  if (options.dry_run && !options.submit) return submission;

  submission.array_job = sbatch(submission.array_script);
  try {
    submission.merge_job = sbatch(submission.merge_script, "--dependency=afterany:" + submission.array_job);
  } catch (const std::exception& error) {
    throw std::runtime_error(std::string(error.what()) + "; the array job " + submission.array_job +
                             " was submitted");
  }

  std::vector<int> submitted = work.shards_to_run;
  if (submitted.empty())
    for (int shard = 1; shard <= work.shards; ++shard)
      submitted.push_back(shard);
  const nlohmann::ordered_json record{{"array_job", submission.array_job},
                                      {"merge_job", submission.merge_job},
                                      {"shards", work.shards},
                                      {"shards_submitted", submitted},
                                      {"array_script", submission.array_script.string()},
                                      {"merge_script", submission.merge_script.string()}};
  write_file_atomically(slurm_dir / "jobs.json", record.dump(2) + "\n");
  return submission;
}

void print_dry_run(const SlurmSubmission& submission) {
  std::printf("dry run: nothing submitted. To submit:\n");
  if (submission.array_script.empty()) {
    std::printf("  sbatch %s   (every simulation has its result: the merge alone)\n",
                shell_quote(submission.merge_script.string()).c_str());
    return;
  }
  std::printf("  jobid=$(sbatch --parsable %s)\n  sbatch --dependency=afterany:$jobid %s\n",
              shell_quote(submission.array_script.string()).c_str(),
              shell_quote(submission.merge_script.string()).c_str());
}

std::string sbatch(const fs::path& script, const std::string& extra_options) {
  const auto [status, output] =
      run_shell("sbatch --parsable " + extra_options + " " + shell_quote(script.string()));
  if (status == 127)
    throw std::runtime_error("--slurm: sbatch not found: run on a machine of the cluster with Slurm's client "
                             "tools (Debian: slurm-client), or write the scripts with --slurm-dry-run; " +
                             script.string() + " is written");
  if (status != 0) throw std::runtime_error("sbatch refused " + script.string() + ": " + trim(output));
  // --parsable prints "jobid" or "jobid;cluster".
  return trim(output.substr(0, output.find(';')));
}

void wait_for_slurm_job(const std::string& job) {
  double pause_s = 0.2;
  for (;;) {
    const auto [status, output] = run_shell("squeue -h -j " + shell_quote(job) + " -o %i");
    // An empty answer, or "Invalid job id" for a job already purged: it has ended. Any other error (the
    // controller busy or restarting) is waited out.
    if (status == 0 && trim(output).empty()) return;
    if (status != 0 && output.find("Invalid job id") != std::string::npos) return;
    ::usleep(static_cast<useconds_t>(pause_s * 1e6));
    pause_s = std::min(5.0, pause_s * 1.5);
  }
}

std::map<int, std::string> slurm_array_tasks(const std::string& array_job) {
  std::map<int, std::string> tasks;
  // -r: one line per array task, "<job>_<index> <STATE>"; a pending range is "<job>_[2-5%2]".
  const auto [status, output] = run_shell("squeue -h -r -j " + shell_quote(array_job) + " -o '%i %T'");
  if (status != 0) return tasks;
  std::istringstream lines(output);
  for (std::string id, state; lines >> id >> state;) {
    const auto underscore = id.find('_');
    if (underscore == std::string::npos) continue;
    std::string index = id.substr(underscore + 1);
    // Pending tasks not yet split off are a list of ranges: "[2-5,7%2]".
    if (!index.empty() && index.front() == '[') index = index.substr(1, index.find_first_of("%]") - 1);
    std::istringstream parts(index);
    for (std::string part; std::getline(parts, part, ',');) {
      int first = 0, last = 0;
      const int fields = std::sscanf(part.c_str(), "%d-%d", &first, &last);
      if (fields < 1) continue;
      if (fields == 1) last = first;
      for (int task = first; task <= last; ++task)
        tasks[task] = state;
    }
  }
  return tasks;
}

std::optional<std::string> slurm_job_state(const std::string& job) {
  if (job.empty()) return std::nullopt;
  const auto [status, output] = run_shell("squeue -h -j " + shell_quote(job) + " -o '%T'");
  const std::string state = trim(output);
  if (status != 0 || state.empty()) return std::nullopt;
  return state.substr(0, state.find('\n'));
}

std::optional<SlurmRecord> read_slurm_record(const fs::path& output_dir) {
  const fs::path path = output_dir / "slurm" / "jobs.json";
  if (!fs::exists(path)) return std::nullopt;
  return read_state_file(path, "Slurm job record",
                         "delete it and resubmit with the same sweep command and --slurm --resume (finished "
                         "points are kept)",
                         [](const nlohmann::ordered_json& json) {
                           SlurmRecord record;
                           record.array_job = json.at("array_job").get<std::string>();
                           record.merge_job = json.at("merge_job").get<std::string>();
                           record.shards = json.at("shards").get<int>();
                           record.shards_submitted = json.at("shards_submitted").get<std::vector<int>>();
                           return record;
                         });
}

} // namespace sonicsim
