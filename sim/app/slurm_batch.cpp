#include "sim/app/slurm_batch.hpp"
#include "sim/app/state_file.hpp"

#include "sim/app/commands.hpp"
#include "sim/app/sweep_point_files.hpp"
#include "sim/app/variant_source.hpp"
#include "sim/engine/engine_arguments.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/metrics/number_text.hpp"
#include "sim/metrics/summary_json.hpp"
#include "sim/scenario/input_error.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace sonicsim {

std::vector<std::string> plan_overrides(const Scenario& base, const Scenario& changed) {
  std::vector<std::string> overrides;
  if (changed.workload.jobs != base.workload.jobs)
    overrides.push_back("workload.jobs=" + std::to_string(changed.workload.jobs));
  for (std::size_t g = 0; g < changed.platform.server_groups.size() && g < base.platform.server_groups.size();
       ++g) {
    const ServerGroup& was = base.platform.server_groups[g];
    const ServerGroup& now = changed.platform.server_groups[g];
    const std::string key = "platform.server_groups." + now.name + ".";
    if (now.pods != was.pods) overrides.push_back(key + "pods=" + std::to_string(now.pods));
    if (now.devices_per_pod != was.devices_per_pod)
      overrides.push_back(key + "devices.count=" + std::to_string(now.devices_per_pod));
    if (now.device_type != was.device_type) overrides.push_back(key + "devices.type=" + now.device_type);
    if (now.nic_bandwidth_bps != was.nic_bandwidth_bps)
      overrides.push_back(key + "nic_bandwidth=" + exact_number_text(now.nic_bandwidth_bps) + "bps");
  }
  return overrides;
}

SlurmSimulations::SlurmSimulations(fs::path output_dir, SlurmOptions options, std::string label)
    : dir_(fs::absolute(output_dir) / "slurm"), options_(std::move(options)), label_(std::move(label)) {
  fs::create_directories(dir_ / "results");
  fs::create_directories(dir_ / "logs");
}

std::optional<fs::path> SlurmSimulations::prepare_array(const std::vector<SlurmSimulation>& simulations) {
  nlohmann::ordered_json tasks = nlohmann::ordered_json::array();
  std::set<std::string> queued;
  for (const auto& simulation : simulations) {
    if (fs::exists(dir_ / "results" / (simulation.fingerprint + ".json"))) continue;
    if (!queued.insert(simulation.fingerprint).second) continue; // the same simulation twice: once
    // The seed goes apart from the overrides: replication seeds use all 64 bits, more than a scenario
    // file's seed may hold.
    tasks.push_back({{"scenario", simulation.scenario_path},
                     {"variant", simulation.variant},
                     {"overrides", simulation.overrides},
                     {"seed", simulation.seed},
                     {"fingerprint", simulation.fingerprint}});
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
  write_file_atomically(batch_dir / "tasks.json", file.dump(1) + "\n");
  std::string command = shell_quote(own_executable());
  for (const auto& setting : EngineCommandLine::user_settings())
    command += " --cfg " + shell_quote(setting);
  std::ostringstream script;
  script << slurm_script_header("sonicsim-" + label_, fs::current_path(), dir_ / "logs" / (name + "_%a.out"),
                                options_)
         << "#SBATCH --array=1-" << tasks.size();
  if (options_.throttle > 0) script << "%" << options_.throttle;
  script << "\n# One simulation per array task; a task run again finds its result and does nothing.\n"
         << "exec " << command << " slurm-task " << shell_quote((batch_dir / "tasks.json").string())
         << " \"${SLURM_ARRAY_TASK_ID}\"\n";
  write_file_atomically(batch_dir / "array.sh", script.str());
  std::fprintf(stderr, "%s: %zu simulation(s) to run on Slurm: %s\n", label_.c_str(), tasks.size(),
               (batch_dir / "array.sh").c_str());
  return batch_dir / "array.sh";
}

std::vector<SimulationOutcome>
SlurmSimulations::collect(const std::vector<SlurmSimulation>& simulations) const {
  std::vector<SimulationOutcome> outcomes(simulations.size());
  for (std::size_t k = 0; k < simulations.size(); ++k) {
    const fs::path result = dir_ / "results" / (simulations[k].fingerprint + ".json");
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

std::vector<SimulationOutcome> SlurmSimulations::run(const std::vector<SlurmSimulation>& simulations) {
  if (const auto script = prepare_array(simulations)) {
    const auto started = std::chrono::steady_clock::now();
    const std::string job = sbatch(*script);
    std::fprintf(stderr, "%s: submitted to Slurm as array job %s; waiting\n", label_.c_str(), job.c_str());
    wait_for_slurm_job(job);
    std::fprintf(stderr, "%s: array job %s ended after %.1f s\n", label_.c_str(), job.c_str(),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  }
  return collect(simulations);
}

SlurmSubmission SlurmSimulations::submit(const std::vector<SlurmSimulation>& simulations,
                                         const std::vector<std::string>& merge_command) {
  SlurmSubmission submission;
  const auto script = prepare_array(simulations);
  std::ostringstream merge;
  merge
      << slurm_script_header("sonicsim-" + label_ + "-merge", fs::current_path(),
                             dir_ / "logs" / "merge_%j.out", options_)
      << "# Runs nothing: reads the results and writes the outputs, or names what is missing (exit 1).\nexec";
  for (const auto& word : merge_command)
    merge << ' ' << shell_quote(word);
  merge << '\n';
  submission.merge_script = dir_ / "merge.sh";
  write_file_atomically(submission.merge_script, merge.str());
  if (script) submission.array_script = *script;
  if (options_.dry_run && !options_.submit) return submission; // the scripts only
  if (script) submission.array_job = sbatch(*script);
  submission.merge_job =
      sbatch(submission.merge_script,
             submission.array_job.empty() ? std::string() : "--dependency=afterany:" + submission.array_job);
  const nlohmann::ordered_json record{{"array_job", submission.array_job},
                                      {"merge_job", submission.merge_job},
                                      {"array_script", submission.array_script.string()},
                                      {"merge_script", submission.merge_script.string()}};
  write_file_atomically(dir_ / "jobs.json", record.dump(2) + "\n");
  return submission;
}

SlurmBatches::SlurmBatches(fs::path output_dir, SlurmOptions options, ScenarioSource source,
                           std::string variant, Scenario base, std::string label)
    : simulations_(std::move(output_dir), std::move(options), std::move(label)), source_(std::move(source)),
      variant_(std::move(variant)), base_(std::move(base)) {
  if (!source_.path.empty()) source_.path = fs::absolute(source_.path).string();
}

std::vector<SimulationOutcome> SlurmBatches::operator()(const std::vector<Scenario>& batch) {
  std::vector<SlurmSimulation> simulations;
  for (const Scenario& scenario : batch) {
    SlurmSimulation simulation{source_.path, variant_, source_.set_overrides, scenario.seed,
                               scenario_fingerprint(scenario)};
    for (auto& extra : plan_overrides(base_, scenario))
      simulation.overrides.push_back(std::move(extra));
    simulations.push_back(std::move(simulation));
  }
  return simulations_.run(simulations);
}

namespace {

struct SlurmTaskArguments {
  std::string tasks_file;
  int index = 0;
};

struct SlurmTask {
  ScenarioSource source;
  std::string variant;
  std::uint64_t seed = 0;
  std::string fingerprint;
  std::string results_dir;
};

SlurmTask read_slurm_task(const SlurmTaskArguments& arguments) {
  return read_state_file(
      arguments.tasks_file, "Slurm batch file",
      "delete the batch folder and run the command with --slurm again: it resubmits what has no result",
      [&](const nlohmann::ordered_json& file) {
        const auto& tasks = file.at("tasks");
        if (arguments.index < 1 || arguments.index > static_cast<int>(tasks.size()))
          throw InputError(arguments.tasks_file + ": no simulation " + std::to_string(arguments.index) +
                           " (it has " + std::to_string(tasks.size()) + ", numbered from 1)");
        const auto& task = tasks.at(static_cast<std::size_t>(arguments.index - 1));
        SlurmTask out;
        out.source.path = task.at("scenario").get<std::string>();
        out.source.set_overrides = task.at("overrides").get<std::vector<std::string>>();
        out.variant = task.at("variant").get<std::string>();
        out.seed = task.at("seed").get<std::uint64_t>();
        out.fingerprint = task.at("fingerprint").get<std::string>();
        out.results_dir = file.at("results").get<std::string>();
        return out;
      });
}

int slurm_task(const SlurmTaskArguments& arguments) {
  const SlurmTask task = read_slurm_task(arguments);
  Scenario scenario = load_variant(task.source, task.variant);
  scenario.seed = task.seed;
  const std::string& fingerprint = task.fingerprint;
  if (scenario_fingerprint(scenario) != fingerprint)
    throw std::runtime_error("simulation " + std::to_string(arguments.index) + " of " + arguments.tasks_file +
                             ": the scenario rebuilt from its overrides is not the one the command made "
                             "(fingerprint " +
                             scenario_fingerprint(scenario) + ", expected " + fingerprint + ")");
  const fs::path result = fs::path(task.results_dir) / (fingerprint + ".json");
  if (fs::exists(result)) return exit_ok; // a task run again keeps what it finished
  const auto started = std::chrono::steady_clock::now();
  const RunResult run = run_simulation(scenario, RunOptions{});
  const nlohmann::ordered_json out{
      {"fingerprint", fingerprint},
      {"wall_clock_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()},
      {"summary", run_summary_to_json(run.summary)}};
  write_file_atomically(result, out.dump() + "\n");
  return exit_ok;
}

} // namespace

void register_slurm_task_command(CLI::App& app, int& result) {
  auto arguments = std::make_shared<SlurmTaskArguments>();
  auto* command =
      app.add_subcommand("slurm-task", "One simulation of a batch submitted to Slurm (what the array "
                                       "tasks of plan --slurm run)");
  command->group(""); // not listed in --help: users never type it
  command->add_option("tasks", arguments->tasks_file, "The batch's tasks.json")->required();
  command->add_option("index", arguments->index, "The simulation, numbered from 1 ($SLURM_ARRAY_TASK_ID)")
      ->required();
  command->callback([arguments, &result]() { result = guarded(*arguments, slurm_task); });
}

} // namespace sonicsim
