// `sonicsim status DIR`: how far a sweep in DIR has come (or the Slurm simulations of validate, plan or
// campaign windows), from its files and, when it was submitted to Slurm,
// from squeue: simulations done, running, pending, and failed (their array task ended without them). Exit 0
// when nothing has failed (done, or still queued or running), 1 when a shard ended with simulations missing
// (`sonicsim sweep ... --slurm --resume` resubmits just those shards), 2 when DIR holds no sweep.
#include "sim/app/commands.hpp"

#include "sim/app/output_options.hpp"
#include "sim/app/scenario_source.hpp"
#include "sim/app/sweep_point_files.hpp"
#include "sim/execution/slurm_commands.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/scenario/input_error.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>

namespace fs = std::filesystem;

namespace sonicsim {
namespace {

struct StatusArguments {
  std::string directory;
  bool quiet = false;
};

// "1-3, 7, 9-10"
std::string ranges(const std::set<int>& values) {
  std::string text;
  for (auto it = values.begin(); it != values.end();) {
    const int first = *it;
    int last = first;
    for (++it; it != values.end() && *it == last + 1; ++it)
      last = *it;
    text += (text.empty() ? "" : ", ") + std::to_string(first);
    if (last != first) text += "-" + std::to_string(last);
  }
  return text;
}

const std::string damaged_remedy =
    "delete it and run the same command again (with --resume for a sweep): finished simulations are kept, "
    "and what the file held is recomputed";

// A directory of simulations run on Slurm by validate, plan or campaign windows
// (DIR/slurm/batch_*/tasks.json, results by fingerprint): how many have their result, what the last array and
// its merge job are doing.
int batch_status(const fs::path& dir, const TextOutput& say) {
  std::set<std::string> wanted, done;
  for (const auto& entry : fs::directory_iterator(dir / "slurm")) {
    if (!entry.is_directory() || entry.path().filename().string().rfind("batch_", 0) != 0) continue;
    if (!fs::exists(entry.path() / "tasks.json")) continue;
    const auto fingerprints = read_state_file(entry.path() / "tasks.json", "Slurm batch file", damaged_remedy,
                                              [](const nlohmann::ordered_json& file) {
                                                std::vector<std::string> out;
                                                for (const auto& task : file.at("tasks"))
                                                  out.push_back(task.at("fingerprint").get<std::string>());
                                                return out;
                                              });
    for (const auto& fingerprint : fingerprints) {
      wanted.insert(fingerprint);
      if (fs::exists(dir / "slurm" / "results" / (fingerprint + ".json"))) done.insert(fingerprint);
    }
  }
  say("%s: %zu of %zu simulations submitted to Slurm have their result\n", dir.string().c_str(), done.size(),
      wanted.size());
  const slurm::Record record = slurm::read_record(dir).value_or(slurm::Record{});
  const std::string &array_job = record.array_job, &merge_job = record.merge_job,
                    &driver_job = record.driver_job;
  if (!driver_job.empty()) {
    const auto state = slurm::job_state(driver_job);
    say("slurm: driver job %s: %s\n", driver_job.c_str(),
        state ? state->c_str() : "ended (or no longer known to squeue)");
  }
  const auto tasks = array_job.empty() ? std::map<int, std::string>{} : slurm::array_tasks(array_job);
  if (!array_job.empty()) {
    std::map<std::string, int> states;
    for (const auto& [task, state] : tasks)
      ++states[state];
    say("slurm: array job %s:", array_job.c_str());
    if (states.empty()) say(" ended (or no longer known to squeue)");
    for (const auto& [state, count] : states)
      say(" %d %s", count, state.c_str());
    say("\n");
  }
  if (!merge_job.empty()) {
    const auto state = slurm::job_state(merge_job);
    say("slurm: merge job %s: %s\n", merge_job.c_str(),
        state ? state->c_str() : "ended (or no longer known to squeue)");
  }
  const bool active = !tasks.empty();
  if (done.size() < wanted.size() && !active) {
    say("%zu simulation(s) ended without a result: run the same command with --slurm again (it submits "
        "only those)\n",
        wanted.size() - done.size());
    return exit_run_failed;
  }
  return exit_ok;
}

struct SweepPlan {
  std::size_t points = 0;
  int replications = 0;
  struct Simulation {
    std::size_t point = 0;
    int replication = 0;
    int shard = 0;
    std::string fingerprint;
  };
  std::vector<Simulation> simulations;
};

SweepPlan read_sweep_plan(const nlohmann::ordered_json& json) {
  SweepPlan plan;
  plan.points = json.at("points").get<std::size_t>();
  plan.replications = json.at("replications").get<int>();
  for (const auto& simulation : json.at("simulations"))
    plan.simulations.push_back({simulation.at("point").get<std::size_t>(),
                                simulation.at("replication").get<int>(), simulation.at("shard").get<int>(),
                                simulation.at("fingerprint").get<std::string>()});
  return plan;
}

int status(const StatusArguments& arguments) {
  const TextOutput say{!arguments.quiet};
  const fs::path dir(arguments.directory);
  const fs::path plan_path = dir / "sweep_plan.json";
  if (!fs::exists(plan_path) && fs::is_directory(dir / "slurm")) return batch_status(dir, say);
  if (!fs::exists(plan_path))
    throw InputError(
        plan_path.string() + ": not found: " + dir.string() +
        " is neither a sweep's output directory (sonicsim sweep --out DIR) nor one with simulations "
        "run on Slurm (DIR/slurm/)");
  const SweepPlan plan = read_state_file(plan_path, "sweep plan", damaged_remedy, read_sweep_plan);
  const auto record = slurm::read_record(dir);
  if (record && record->shards < 1)
    throw StateFileError((dir / "slurm" / "jobs.json").string() +
                         ": damaged Slurm job record (it names no shards of this sweep); " + damaged_remedy);
  std::map<int, std::string> tasks; // array index -> squeue state, for the tasks Slurm still has
  std::optional<std::string> merge_state;
  if (record) {
    tasks = slurm::array_tasks(record->array_job);
    merge_state = slurm::job_state(record->merge_job);
  }
  const std::set<int> submitted =
      record ? std::set<int>(record->shards_submitted.begin(), record->shards_submitted.end())
             : std::set<int>{};

  std::size_t total = 0, done = 0;
  std::map<std::string, std::size_t> missing_by_state;
  std::map<std::string, std::set<int>> shards_by_state;
  for (const auto& simulation : plan.simulations) {
    ++total;
    if (read_point_file(dir, simulation.point, simulation.replication, simulation.fingerprint)) {
      ++done;
      continue;
    }
    const int shard = simulation.shard;
    std::string state;
    if (const auto task = tasks.find(shard); task != tasks.end())
      state = task->second == "RUNNING" ? "running" : task->second == "PENDING" ? "pending" : "other";
    else if (record && submitted.count(shard))
      state = "failed"; // its array task has ended, and its results are not all there
    else
      state = "not run";
    ++missing_by_state[state];
    shards_by_state[state].insert(shard);
  }

  say("%s: %zu of %zu simulations done (%zu points x %d replications)\n", dir.string().c_str(), done, total,
      plan.points, plan.replications);
  for (const char* state : {"running", "pending", "other", "failed", "not run"}) {
    const auto found = missing_by_state.find(state);
    if (found == missing_by_state.end()) continue;
    say("  %-8s %zu simulation(s), shard(s) %s\n", state, found->second,
        ranges(shards_by_state[state]).c_str());
  }
  if (record) {
    say("slurm: array job %s (%d shards), merge job %s: %s\n", record->array_job.c_str(), record->shards,
        record->merge_job.c_str(),
        merge_state ? merge_state->c_str() : "ended (or no longer known to squeue)");
  }
  const bool complete = fs::exists(dir / "sweep.csv") && done == total;
  if (done == total)
    say("complete%s\n", complete ? "" : ": run `sonicsim sweep ... --merge` to write sweep.csv");
  if (missing_by_state.count("failed")) {
    say("failed shards ended without their simulations: resubmit them with the same sweep command and "
        "--slurm --resume (finished points are kept)\n");
    return exit_run_failed;
  }
  return exit_ok;
}

} // namespace

void register_status_command(CLI::App& app, int& result) {
  auto arguments = std::make_shared<StatusArguments>();
  auto* command = app.add_subcommand(
      "status", "How far a sweep has come: simulations done, running, pending and failed, from its output "
                "directory and, for a Slurm submission, squeue");
  command->add_option("directory", arguments->directory, "The sweep's output directory (--out)")->required();
  add_output_options(*command, arguments->quiet, nullptr);
  command->callback([arguments, &result]() { result = guarded(*arguments, status); });
}

} // namespace sonicsim
