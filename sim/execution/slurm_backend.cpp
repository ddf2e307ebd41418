#include "sim/execution/slurm_backend.hpp"
#include "sim/metrics/json_fields.hpp"

#include "sim/engine/engine_arguments.hpp"
#include "sim/execution/process_arguments.hpp"
#include "sim/execution/shell_commands.hpp"
#include "sim/execution/slurm_commands.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/metrics/summary_json.hpp"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <set>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace sonicsim {
namespace {

// A job name from a label ("run: campaign windows" -> "sonicsim-run-campaign-windows"): #SBATCH lines end at
// a space.
std::string job_name(const std::string& label) {
  std::string name = "sonicsim-";
  for (const char c : label) {
    const bool plain = std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
    if (plain)
      name += c;
    else if (name.back() != '-')
      name += '-';
  }
  while (name.back() == '-')
    name.pop_back();
  return name;
}

const std::string damaged_remedy =
    "delete it and run the same command again (with --resume for a sweep): finished simulations are kept, "
    "and what the file held is recomputed";

} // namespace

SlurmBackend::SlurmBackend(const ExecutionOptions& options, const fs::path& work_dir, std::string label)
    : dir_(fs::absolute(work_dir) / "slurm"), options_(options), label_(std::move(label)) {}

// Made by what writes (scripts, records, results), not by the constructor: `sonicsim status` only reads.
void SlurmBackend::make_directories() const {
  fs::create_directories(dir_ / "results");
  fs::create_directories(dir_ / "logs");
}

SubmissionStatus SlurmBackend::status() const {
  SubmissionStatus out;
  // The simulations of every batch submitted (batch_*/tasks.json) and their results by fingerprint.
  std::set<std::string> wanted, done;
  if (fs::is_directory(dir_))
    for (const auto& entry : fs::directory_iterator(dir_)) {
      if (!entry.is_directory() || entry.path().filename().string().rfind("batch_", 0) != 0) continue;
      if (!fs::exists(entry.path() / "tasks.json")) continue;
      const auto fingerprints =
          read_state_file(entry.path() / "tasks.json", "Slurm batch file", damaged_remedy,
                          [](const nlohmann::ordered_json& file) {
                            std::vector<std::string> in_file;
                            for (const auto& task : file.at("tasks"))
                              in_file.push_back(task.at("fingerprint").get<std::string>());
                            return in_file;
                          });
      for (const auto& fingerprint : fingerprints) {
        wanted.insert(fingerprint);
        if (fs::exists(dir_ / "results" / (fingerprint + ".json"))) done.insert(fingerprint);
      }
    }
  out.simulations_submitted = wanted.size();
  out.simulations_with_result = done.size();
  const auto record = slurm::read_record(dir_.parent_path());
  if (!record) return out;
  out.recorded = true;
  out.shards = record->shards;
  out.shards_submitted = record->shards_submitted;
  for (auto [job, id] : {std::pair{&out.driver, record->driver_job}, std::pair{&out.array, record->array_job},
                         std::pair{&out.merge, record->merge_job}}) {
    job->id = id;
    job->state = slurm::job_state(id);
  }
  if (!record->array_job.empty())
    for (const auto& [index, state] : slurm::array_tasks(record->array_job))
      out.array_tasks[index] = state == "RUNNING"   ? TaskState::running
                               : state == "PENDING" ? TaskState::pending
                                                    : TaskState::other;
  return out;
}

std::optional<fs::path> SlurmBackend::prepare_array(const std::vector<SimulationRequest>& requests) {
  make_directories();
  nlohmann::ordered_json tasks = nlohmann::ordered_json::array();
  std::set<std::string> queued;
  for (const auto& request : requests) {
    if (request.here.output_dir || request.here.direct_baseline)
      throw std::logic_error("a simulation with files or a baseline of its own runs here, not on Slurm");
    const std::string fingerprint = scenario_fingerprint(request.scenario);
    if (fs::exists(dir_ / "results" / (fingerprint + ".json"))) continue;
    if (!queued.insert(fingerprint).second) continue; // the same simulation twice: once
    nlohmann::ordered_json task = request.recipe.to_json();
    task["fingerprint"] = fingerprint;
    tasks.push_back(std::move(task));
  }
  if (tasks.empty()) return std::nullopt;
  // The next free batch number: a command run again keeps the batches (and logs) of earlier runs.
  fs::path batch_dir;
  std::string name;
  for (int number = 1;; ++number) {
    char text[32];
    std::snprintf(text, sizeof text, "batch_%04d", number);
    name = text;
    batch_dir = dir_ / name;
    if (!fs::exists(batch_dir)) break;
  }
  fs::create_directories(batch_dir);
  const nlohmann::ordered_json file{{"results", (dir_ / "results").string()}, {"tasks", tasks}};
  write_file_atomically(batch_dir / "tasks.json", json_text(file, 1) + "\n");
  std::vector<std::string> command = own_command("array-task", EngineCommandLine::user_settings());
  command.push_back((batch_dir / "tasks.json").string());
  std::ostringstream script;
  script << slurm::script_header(job_name(label_), fs::current_path(), dir_ / "logs" / (name + "_%a.out"),
                                 options_.cluster)
         << "#SBATCH --array="
         << slurm::array_spec(static_cast<int>(tasks.size()), {}, options_.cluster.throttle)
         << "\n# One simulation per array task; a task run again finds its result and does nothing.\n"
         << "exec " << shell_command(command) << " \"${SLURM_ARRAY_TASK_ID}\"\n";
  slurm::write_script(batch_dir / "array.sh", script.str());
  if (!options_.quiet)
    std::fprintf(stderr, "%s: %zu simulation(s) to run on Slurm: %s\n", label_.c_str(), tasks.size(),
                 (batch_dir / "array.sh").c_str());
  return batch_dir / "array.sh";
}

std::vector<SimulationOutcome> SlurmBackend::collect(const std::vector<SimulationRequest>& requests) const {
  std::vector<SimulationOutcome> outcomes(requests.size());
  for (std::size_t k = 0; k < requests.size(); ++k) {
    const fs::path result = dir_ / "results" / (scenario_fingerprint(requests[k].scenario) + ".json");
    SimulationOutcome& outcome = outcomes[k];
    if (!fs::exists(result)) {
      outcome.error = "no result yet: its Slurm array task has not run or ended without one (logs in " +
                      (dir_ / "logs").string() + ")";
      continue;
    }
    read_state_file(result, "Slurm simulation result",
                    "delete it and run the same command with --slurm again: it resubmits that simulation",
                    [&](const nlohmann::ordered_json& json) {
                      outcome.wall_clock_s = json.at("wall_clock_s").get<double>();
                      outcome.summary = run_summary_from_json(json.at("summary"));
                      outcome.ok = true;
                      return 0;
                    });
  }
  return outcomes;
}

std::vector<SimulationOutcome> SlurmBackend::run(const std::vector<SimulationRequest>& requests) {
  if (const auto script = prepare_array(requests)) {
    const auto started = std::chrono::steady_clock::now();
    const std::string job = slurm::sbatch(*script);
    if (!options_.quiet)
      std::fprintf(stderr, "%s: submitted to Slurm as array job %s; waiting\n", label_.c_str(), job.c_str());
    slurm::wait_for_job(job);
    if (!options_.quiet)
      std::fprintf(stderr, "%s: array job %s ended after %.1f s\n", label_.c_str(), job.c_str(),
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  }
  return collect(requests);
}

fs::path SlurmBackend::write_merge_script(const std::string& name, const std::vector<std::string>& command,
                                          const std::string& comment) {
  const fs::path path = dir_ / (name + ".sh");
  slurm::write_script(path, slurm::script_header(job_name(label_ + "-" + name), fs::current_path(),
                                                 dir_ / "logs" / (name + "_%j.out"), options_.cluster) +
                                "# " + comment + "\nexec " + shell_command(command) + "\n");
  return path;
}

void SlurmBackend::write_record(const nlohmann::ordered_json& record) {
  write_file_atomically(dir_ / "jobs.json", json_text(record, 2) + "\n");
}

Submission SlurmBackend::submit(const std::vector<SimulationRequest>& requests,
                                const std::vector<std::string>& merge_command) {
  Submission submission;
  if (const auto script = prepare_array(requests)) submission.array_script = *script;
  submission.merge_script = write_merge_script(
      "merge", merge_command,
      "Runs nothing: reads the results and writes the outputs, or names what is missing (exit 1).");
  if (options_.mode == ClusterMode::dry_run) return submission;
  submit_array_and_merge(submission, nlohmann::ordered_json::object());
  return submission;
}

void SlurmBackend::submit_array_and_merge(Submission& submission, nlohmann::ordered_json record) {
  if (!submission.array_script.empty()) submission.array_job = slurm::sbatch(submission.array_script);
  try {
    submission.merge_job = slurm::sbatch(
        submission.merge_script,
        submission.array_job.empty() ? std::string() : "--dependency=afterany:" + submission.array_job);
  } catch (const std::exception& error) {
    if (submission.array_job.empty()) throw;
    throw std::runtime_error(std::string(error.what()) + "; the array job " + submission.array_job +
                             " was submitted");
  }
  nlohmann::ordered_json jobs{{"array_job", submission.array_job}, {"merge_job", submission.merge_job}};
  jobs.update(record);
  jobs["array_script"] = submission.array_script.string();
  jobs["merge_script"] = submission.merge_script.string();
  write_record(jobs);
}

Submission SlurmBackend::submit_shards(const ShardWork& work) {
  make_directories();
  Submission submission;
  submission.array_script = dir_ / "array.sh";
  std::ostringstream array;
  array << slurm::script_header(job_name(label_), fs::current_path(), dir_ / "logs" / "task_%A_%a.out",
                                options_.cluster)
        << "#SBATCH --array=" << slurm::array_spec(work.shards, work.shards_to_run, options_.cluster.throttle)
        << "\n# Array index i runs shard i of " << work.shards
        << " (the array's indices are the shard indices). --resume keeps what this\n"
        << "# shard finished before, so a task that is run again only runs what is missing.\n"
        << "exec " << shell_command(work.task_command) << " --shard \"${SLURM_ARRAY_TASK_ID}/" << work.shards
        << "\" --resume -j 1\n";
  slurm::write_script(submission.array_script, array.str());
  submission.merge_script = write_merge_script(
      "merge", work.merge_command,
      "Runs nothing: writes the outputs from the finished results and names what is missing (exit 1).");
  if (options_.mode == ClusterMode::dry_run) return submission;
  std::vector<int> submitted = work.shards_to_run;
  if (submitted.empty())
    for (int shard = 1; shard <= work.shards; ++shard)
      submitted.push_back(shard);
  submit_array_and_merge(submission, {{"shards", work.shards}, {"shards_submitted", submitted}});
  return submission;
}

std::string SlurmBackend::submit_driver(const std::vector<std::string>& command) {
  make_directories();
  const fs::path script =
      write_merge_script("driver", command,
                         "The deciding process: each batch of simulations is a job array it submits and "
                         "waits for.");
  const std::string job = slurm::sbatch(script);
  write_record({{"driver_job", job}, {"driver_script", script.string()}});
  return job;
}

void SlurmBackend::print_dry_run(const Submission& submission) const {
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

} // namespace sonicsim
