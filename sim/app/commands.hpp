// The subcommands of the `sonicsim` executable. main.cpp only declares the CLI and calls these.
#pragma once

#include <CLI/CLI.hpp>

namespace sonicsim {

// Exit codes: 0 success, 1 a run failed, 2 bad input (scenario, option or output directory), 3 a complete
// answer that is "no": no configuration meets the plan's targets (plan.json says why and what limits it).
constexpr int exit_ok = 0;
constexpr int exit_run_failed = 1;
constexpr int exit_bad_input = 2;
constexpr int exit_no_configuration = 3;

// Each registers its subcommand on `app` and sets `result` to its exit code when it ran.
void register_run_command(CLI::App& app, int& result);
void register_bench_command(CLI::App& app, int& result);
void register_validate_command(CLI::App& app, int& result);
void register_analytic_command(CLI::App& app, int& result);
void register_sweep_command(CLI::App& app, int& result);
void register_plan_command(CLI::App& app, int& result);
void register_compare_command(CLI::App& app, int& result);
void register_replay_command(CLI::App& app, int& result);
void register_import_command(CLI::App& app, int& result);
// `import supersonic`, registered on the `import` command by register_import_command.
void register_import_supersonic(CLI::App& import_command, int& result);
// import model-analyzer and import triton-config (sim/app/import/import_model_files.cpp).
void register_import_model_files(CLI::App& import_command, int& result);
void register_calibrate_command(CLI::App& app, int& result);
void register_status_command(CLI::App& app, int& result);
void register_figures_command(CLI::App& app, int& result);
void register_report_command(CLI::App& app, int& result);
void register_array_task_command(CLI::App& app, int& result);

} // namespace sonicsim
