// `sonicsim status DIR`: how far a sweep in DIR has come (or the simulations validate, plan, compare or
// campaign windows submitted to a cluster), from its files and, when it was submitted, from the batch system
// (the back-end's Cluster::status; Slurm: squeue): simulations done, running, pending, and failed (their
// array task ended without them). Exit 0 when nothing has failed (done, or still queued or running), 1 when a
// shard ended with simulations missing (`sonicsim sweep ... --slurm --resume` resubmits just those shards),
// 2 when DIR holds no sweep. --json prints the same state as one document.
#include "sim/app/commands.hpp"
#include "sim/metrics/json_fields.hpp"

#include "sim/app/common/input_files.hpp"
#include "sim/app/common/output_options.hpp"
#include "sim/app/common/scenario_source.hpp"
#include "sim/app/sweep/sweep_point_files.hpp"
#include "sim/execution/cluster.hpp"
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
  bool quiet = false, json = false;
};

using Json = nlohmann::ordered_json;

Json job_json(const JobStatus& job) {
  return {{"id", job.id}, {"state", job.state ? Json(*job.state) : Json()}}; // null: ended or no longer known
}

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

// A job's state in words. A merge job is queued behind the array (a dependency), so the batch system says
// PENDING for it the whole time the array's tasks run: said as such, so that a merge "PENDING" is not read
// as nothing running.
std::string job_state_text(const JobStatus& job, const SubmissionStatus& status, bool behind_array) {
  if (!job.state) return "ended (or no longer known to the batch system)";
  std::size_t unfinished = 0;
  for (const auto& [task, state] : status.array_tasks)
    if (state == TaskState::running || state == TaskState::pending) ++unfinished;
  if (behind_array && *job.state == "PENDING" && unfinished > 0)
    return *job.state + ", waiting for the array (" + std::to_string(unfinished) +
           " task(s) still running or queued); it starts when they end";
  return *job.state;
}

const std::string damaged_remedy =
    "delete it and run the same command again (with --resume for a sweep): finished simulations are kept, "
    "and what the file held is recomputed";

// The simulations a non-sharded command (validate, plan, compare, campaign windows) submitted to a batch
// system: how many have their result, what the last array and its merge (or driver) job are doing.
int batch_status(const fs::path& dir, const Cluster& cluster, const TextOutput& say, Json& out) {
  const SubmissionStatus status = cluster.status();
  const char* system = batch_system_name(cluster.system());
  out = {{"directory", dir.string()},
         {"kind", "submission"},
         {"batch_system", system},
         {"simulations_submitted", status.simulations_submitted},
         {"simulations_with_result", status.simulations_with_result}};
  if (!status.driver.id.empty()) out["driver_job"] = job_json(status.driver);
  if (!status.array.id.empty()) {
    Json tasks = Json::object();
    for (const auto& [task, state] : status.array_tasks)
      tasks[std::to_string(task)] = task_state_text(state);
    out["array_job"] = job_json(status.array);
    out["array_tasks"] = tasks;
  }
  if (!status.merge.id.empty()) out["merge_job"] = job_json(status.merge);
  say("%s: %zu of %zu simulations submitted to %s have their result\n", dir.string().c_str(),
      status.simulations_with_result, status.simulations_submitted, batch_system_title(cluster.system()));
  const auto say_job = [&](const char* what, const JobStatus& job) {
    if (job.id.empty()) return;
    say("%s: %s job %s: %s\n", system, what, job.id.c_str(),
        job_state_text(job, status, &job == &status.merge).c_str());
  };
  say_job("driver", status.driver);
  if (!status.array.id.empty()) {
    std::map<std::string, int> states;
    for (const auto& [task, state] : status.array_tasks)
      ++states[task_state_text(state)];
    say("%s: array job %s:", system, status.array.id.c_str());
    if (states.empty()) say(" ended (or no longer known to the batch system)");
    for (const auto& [state, count] : states)
      say(" %d %s", count, state.c_str());
    say("\n");
  }
  say_job("merge", status.merge);
  if (status.simulations_with_result < status.simulations_submitted && status.array_tasks.empty()) {
    say("%zu simulation(s) ended without a result: run the same command with %s again (it submits only "
        "those)\n",
        status.simulations_submitted - status.simulations_with_result,
        mode_flag(cluster.system(), ClusterMode::submit).c_str());
    out["failed"] = true;
    return exit_run_failed;
  }
  out["failed"] = false;
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

// A sweep's simulations (its sweep_plan.json), or what a non-sharded command submitted.
int sweep_status(const StatusArguments& arguments, const TextOutput& say, Json& out) {
  require_input_directory(arguments.directory, "a sweep's output directory or one with simulations run on a "
                                               "cluster");
  const fs::path dir(arguments.directory);
  const fs::path plan_path = dir / "sweep_plan.json";
  const auto cluster = cluster_in(dir);
  if (!fs::exists(plan_path) && cluster) return batch_status(dir, *cluster, say, out);
  if (!fs::exists(plan_path))
    throw InputError(plan_path.string() + ": not found: " + dir.string() +
                     " is neither a sweep's output directory (sonicsim sweep --out DIR) nor one with "
                     "simulations run on a cluster (DIR/slurm/)");
  const SweepPlan plan = read_state_file(plan_path, "sweep plan", damaged_remedy, read_sweep_plan);
  const SubmissionStatus submission = cluster ? cluster->status() : SubmissionStatus{};
  const bool record = submission.recorded;
  if (record && submission.shards < 1)
    throw StateFileError((dir / batch_system_name(cluster->system()) / "jobs.json").string() +
                         ": damaged job record (it names no shards of this sweep); " + damaged_remedy);
  const std::set<int> submitted(submission.shards_submitted.begin(), submission.shards_submitted.end());

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
    if (const auto task = submission.array_tasks.find(shard); task != submission.array_tasks.end())
      state = task_state_text(task->second);
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
    say("%s: array job %s (%d shards), merge job %s: %s\n", batch_system_name(cluster->system()),
        submission.array.id.c_str(), submission.shards, submission.merge.id.c_str(),
        job_state_text(submission.merge, submission, true).c_str());
  }
  const bool complete = fs::exists(dir / "sweep.csv") && done == total;
  if (done == total)
    say("complete%s\n", complete ? "" : ": run `sonicsim sweep ... --merge` to write sweep.csv");
  out = {{"directory", dir.string()},         {"kind", "sweep"},      {"points", plan.points},
         {"replications", plan.replications}, {"simulations", total}, {"simulations_done", done}};
  Json missing = Json::object();
  for (const auto& [state, count] : missing_by_state)
    missing[state] = {{"simulations", count}, {"shards", shards_by_state[state]}};
  out["missing"] = missing;
  if (record) {
    out["batch_system"] = batch_system_name(cluster->system());
    out["array_job"] = job_json(submission.array);
    out["shards"] = submission.shards;
    out["merge_job"] = job_json(submission.merge);
  }
  out["complete"] = complete; // every simulation done and sweep.csv written
  out["failed"] = missing_by_state.count("failed") > 0;
  if (missing_by_state.count("failed")) {
    say("failed shards ended without their simulations: resubmit them with the same sweep command and "
        "--slurm --resume (finished points are kept)\n");
    return exit_run_failed;
  }
  return exit_ok;
}

int status(const StatusArguments& arguments) {
  const TextOutput say{!arguments.quiet && !arguments.json};
  Json out;
  const int code = sweep_status(arguments, say, out);
  if (arguments.json) std::printf("%s\n", json_text(out, 1).c_str());
  return code;
}

} // namespace

void register_status_command(CLI::App& app, int& result) {
  auto arguments = std::make_shared<StatusArguments>();
  auto* command = app.add_subcommand(
      "status", "How far a sweep has come: simulations done, running, pending and failed, from its output "
                "directory and, for a Slurm submission, squeue");
  command->add_option("directory", arguments->directory, "The sweep's output directory (--out)")->required();
  add_output_options(*command, arguments->quiet, &arguments->json);
  command->callback([arguments, &result]() { result = guarded(*arguments, status); });
}

} // namespace sonicsim
