#include "sim/execution/slurm_commands.hpp"

#include "sim/execution/shell_commands.hpp"
#include "sim/execution/state_file.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace sonicsim::slurm {
namespace {

std::string trim(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\r'))
    text.pop_back();
  return text;
}

} // namespace

std::string script_header(const std::string& job_name, const fs::path& working_dir, const fs::path& log_path,
                          const ClusterSettings& settings) {
  std::ostringstream out;
  out << "#!/bin/bash\n"
      << "#SBATCH --job-name=" << job_name << "\n"
      << "#SBATCH --chdir=" << working_dir.string() << "\n"
      << "#SBATCH --output=" << log_path.string() << "\n"
      << "#SBATCH --ntasks=1\n"
      << "#SBATCH --cpus-per-task=1\n";
  if (!settings.partition.empty()) out << "#SBATCH --partition=" << settings.partition << "\n";
  if (!settings.account.empty()) out << "#SBATCH --account=" << settings.account << "\n";
  if (!settings.time.empty()) out << "#SBATCH --time=" << settings.time << "\n";
  return out.str();
}

std::string array_spec(int count, const std::vector<int>& subset, int throttle) {
  std::string spec;
  if (subset.empty()) {
    spec = "1-" + std::to_string(count);
  } else {
    for (const int index : subset)
      spec += (spec.empty() ? "" : ",") + std::to_string(index);
  }
  if (throttle > 0) spec += "%" + std::to_string(throttle);
  return spec;
}

void write_script(const fs::path& path, const std::string& text) {
  write_file_atomically(path, text);
  ::chmod(path.c_str(), 0755);
}

std::map<int, std::string> parse_squeue_tasks(const std::string& output) {
  std::map<int, std::string> tasks;
  std::istringstream lines(output);
  for (std::string id, state; lines >> id >> state;) {
    const auto underscore = id.find('_');
    if (underscore == std::string::npos) continue;
    std::string index = id.substr(underscore + 1);
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

std::map<int, std::string> array_tasks(const std::string& array_job) {
  // -r: one line per array task, "<job>_<index> <STATE>".
  const auto [status, output] = run_shell("squeue -h -r -j " + shell_quote(array_job) + " -o '%i %T'");
  if (status != 0) return {};
  return parse_squeue_tasks(output);
}

std::optional<std::string> job_state(const std::string& job) {
  if (job.empty()) return std::nullopt;
  const auto [status, output] = run_shell("squeue -h -j " + shell_quote(job) + " -o '%T'");
  const std::string state = trim(output);
  if (status != 0 || state.empty()) return std::nullopt;
  return state.substr(0, state.find('\n'));
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

void wait_for_job(const std::string& job) {
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

std::optional<Record> read_record(const fs::path& output_dir) {
  const fs::path path = output_dir / "slurm" / "jobs.json";
  if (!fs::exists(path)) return std::nullopt;
  return read_state_file(path, "Slurm job record",
                         "delete it and run the same command with --slurm again (finished results are kept)",
                         [](const nlohmann::ordered_json& json) {
                           Record record;
                           record.array_job = json.value("array_job", "");
                           record.merge_job = json.value("merge_job", "");
                           record.driver_job = json.value("driver_job", "");
                           record.shards = json.value("shards", 0);
                           record.shards_submitted = json.value("shards_submitted", std::vector<int>{});
                           return record;
                         });
}

} // namespace sonicsim::slurm
