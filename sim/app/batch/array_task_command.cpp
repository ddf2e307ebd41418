// `sonicsim array-task TASKS INDEX`: what an array task of a cluster batch runs (sim/execution/array_task).
// Hidden from --help: users never type it.
#include "sim/app/commands.hpp"
#include "sim/app/common/scenario_source.hpp"
#include "sim/execution/array_task.hpp"

#include <memory>

namespace sonicsim {
namespace {

struct ArrayTaskArguments {
  std::string tasks_file;
  int index = 0;
};

} // namespace

void register_array_task_command(CLI::App& app, int& result) {
  auto arguments = std::make_shared<ArrayTaskArguments>();
  auto* command = app.add_subcommand("array-task", "One simulation of a batch submitted to a cluster");
  command->group(""); // not listed in --help
  command->add_option("tasks", arguments->tasks_file, "The batch's tasks.json")->required();
  command
      ->add_option(
          "index", arguments->index,
          "The simulation, numbered from 1 (the batch system's array index, e.g. $SLURM_ARRAY_TASK_ID)")
      ->required();
  command->callback([arguments, &result]() {
    result = guarded(*arguments,
                     [](const ArrayTaskArguments& a) { return run_array_task(a.tasks_file, a.index); });
  });
}

} // namespace sonicsim
