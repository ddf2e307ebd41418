// A command that decides what to simulate next from what it has seen (plan) runs each batch of simulations
// as a Slurm job array and waits for it: the deciding process stays where the user started it (a login node,
// or a Slurm job of its own), the simulations run on the cluster.
//
// Each simulation is sent as the command's scenario source (file, --variant, --set, --seed) plus the
// overrides that make the batch's scenario of it (workload.jobs and the size, device type and NIC of server
// groups: the fields a plan changes), its seed, and its fingerprint: the array task loads it the same way,
// checks that it is the very scenario the planner made (else it fails, naming the difference as a fingerprint
// mismatch), runs it, and writes DIR/slurm/results/<fingerprint>.json. A result already there is reused,
// so running the command again after an interruption submits only what is missing.
#pragma once

#include "sim/app/scenario_source.hpp"
#include "sim/app/slurm_jobs.hpp"
#include "sim/metrics/run_summary.hpp"
#include "sim/scenario/scenario.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

// The overrides that turn `base` into `changed`, for the fields a plan changes. Other differences are not
// expressed (the fingerprint check catches them where the scenario is rebuilt).
std::vector<std::string> plan_overrides(const Scenario& base, const Scenario& changed);

// One simulation as an array task rebuilds it: source, variant and overrides through the scenario loader,
// then the seed; the fingerprint is the resolved scenario's (scenario_fingerprint).
struct SlurmSimulation {
  std::string scenario_path; // absolute; empty: the embedded default
  std::string variant;
  std::vector<std::string> overrides;
  std::uint64_t seed = 0;
  std::string fingerprint;
};

// Runs simulations as job arrays and waits for them; DIR/slurm/ holds the batches, logs and results.
class SlurmSimulations {
public:
  SlurmSimulations(std::filesystem::path output_dir, SlurmOptions options, std::string label);
  // Runs what has no result yet as one job array, waits for it, and returns the outcomes in order.
  std::vector<SimulationOutcome> run(const std::vector<SlurmSimulation>& simulations);
  // Submits what has no result yet as one job array and `merge_command` as a job after it (afterany);
  // returns at once with the job ids (also in DIR/slurm/jobs.json). A dry run writes the scripts only.
  SlurmSubmission submit(const std::vector<SlurmSimulation>& simulations,
                         const std::vector<std::string>& merge_command);
  // The outcomes from the results there are; a simulation without one is not ok, and says so.
  std::vector<SimulationOutcome> collect(const std::vector<SlurmSimulation>& simulations) const;

private:
  // Writes DIR/slurm/batch_NNNN/tasks.json and array.sh for what has no result; none when all have one.
  std::optional<std::filesystem::path> prepare_array(const std::vector<SlurmSimulation>& simulations);

  std::filesystem::path dir_;
  SlurmOptions options_;
  std::string label_;
};

// A plan's batches: each scenario is the command's scenario source with plan_overrides and its seed.
class SlurmBatches {
public:
  SlurmBatches(std::filesystem::path output_dir, SlurmOptions options, ScenarioSource source,
               std::string variant, Scenario base, std::string label);
  std::vector<SimulationOutcome> operator()(const std::vector<Scenario>& batch);

private:
  SlurmSimulations simulations_;
  ScenarioSource source_;
  std::string variant_;
  Scenario base_;
};

// `sonicsim slurm-task TASKS INDEX` (what an array task runs): simulation INDEX (1-based) of the batch file.
void register_slurm_task_command(CLI::App& app, int& result);

} // namespace sonicsim
