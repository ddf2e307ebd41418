#include "sim/execution/array_task.hpp"
#include "sim/metrics/json_fields.hpp"

#include "sim/engine/simulation.hpp"
#include "sim/execution/scenario_recipe.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/metrics/summary_json.hpp"

#include <chrono>
#include <stdexcept>

namespace fs = std::filesystem;

namespace sonicsim {
namespace {

struct ArrayTask {
  ScenarioRecipe recipe;
  std::string fingerprint;
  fs::path results_dir;
};

ArrayTask read_task(const fs::path& tasks_file, int index) {
  return read_state_file(
      tasks_file, "batch file",
      "delete the batch folder and run the command with --slurm again: it resubmits what has no result",
      [&](const nlohmann::ordered_json& file) {
        const auto& tasks = file.at("tasks");
        if (index < 1 || index > static_cast<int>(tasks.size()))
          throw InputError(tasks_file.string() + ": no simulation " + std::to_string(index) + " (it has " +
                           std::to_string(tasks.size()) + ", numbered from 1)");
        const auto& task = tasks.at(static_cast<std::size_t>(index - 1));
        return ArrayTask{ScenarioRecipe::from_json(task), task.at("fingerprint").get<std::string>(),
                         file.at("results").get<std::string>()};
      });
}

} // namespace

int run_array_task(const fs::path& tasks_file, int index) {
  const ArrayTask task = read_task(tasks_file, index);
  const Scenario scenario = task.recipe.rebuild();
  if (scenario_fingerprint(scenario) != task.fingerprint)
    throw std::runtime_error("simulation " + std::to_string(index) + " of " + tasks_file.string() +
                             ": the scenario rebuilt from its recipe is not the one the command made "
                             "(fingerprint " +
                             scenario_fingerprint(scenario) + ", expected " + task.fingerprint + ")");
  const fs::path result = task.results_dir / (task.fingerprint + ".json");
  if (fs::exists(result)) return 0; // a task run again keeps what it finished
  const auto started = std::chrono::steady_clock::now();
  const RunResult run = run_simulation(scenario, RunOptions{});
  const nlohmann::ordered_json out{
      {"fingerprint", task.fingerprint},
      {"wall_clock_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()},
      {"summary", run_summary_to_json(run.summary)}};
  write_file_atomically(result, json_text(out) + "\n");
  return 0;
}

} // namespace sonicsim
