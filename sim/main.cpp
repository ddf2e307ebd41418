// sonicsim: discrete-event simulation of ML inference as a service (SONIC) for particle-physics computing.
// This file only declares the command line; each subcommand lives in sim/app/.
#include "sim/app/commands.hpp"
#include "sim/engine/engine_arguments.hpp"
#include "sim/execution/process_arguments.hpp"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  CLI::App app{"sonicsim: simulate CPU grid jobs sending ML inference to remote GPU (Triton) servers"};
  app.require_subcommand(0, 1);
  app.fallthrough(); // --cfg may also follow the subcommand: sonicsim run --cfg KEY:VALUE
  app.set_version_flag("--version", std::string("sonicsim ") + SONICSIM_VERSION +
                                        " (SimGrid 3.32, Triton v2.3 batching rule)");
  int result = sonicsim::exit_ok;
  std::vector<std::string> simgrid_settings;
  app.add_option("--cfg", simgrid_settings,
                 "A SimGrid setting KEY:VALUE for every simulation (repeatable), e.g. --cfg "
                 "contexts/factory:thread")
      ->check(CLI::Validator(
          [](const std::string& text) {
            const auto colon = text.find(':');
            return colon != std::string::npos && colon > 0 && colon + 1 < text.size()
                       ? std::string()
                       : "expected KEY:VALUE (a SimGrid setting), got " + text;
          },
          "KEY:VALUE"));
  app.parse_complete_callback(
      [&simgrid_settings]() { sonicsim::EngineCommandLine::set_user_settings(simgrid_settings); });
  sonicsim::register_run_command(app, result);
  sonicsim::register_bench_command(app, result);
  sonicsim::register_validate_command(app, result);
  sonicsim::register_analytic_command(app, result);
  sonicsim::register_sweep_command(app, result);
  sonicsim::register_plan_command(app, result);
  sonicsim::register_compare_command(app, result);
  sonicsim::register_import_command(app, result);
  sonicsim::register_calibrate_command(app, result);
  sonicsim::register_status_command(app, result);
  sonicsim::register_figures_command(app, result);
  sonicsim::register_report_command(app, result);
  sonicsim::register_slurm_task_command(app, result);
  // With no arguments at all, run the default scenario (`sonicsim run`).
  char run_word[] = "run";
  char* default_argv[] = {argv[0], run_word, nullptr};
  if (argc == 1) {
    argc = 2;
    argv = default_argv;
  }
  sonicsim::record_process_arguments(argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --version print as CLI11 prints them; a bad option is an error in sonicsim's own shape.
    if (error.get_exit_code() == 0) return app.exit(error);
    // The command as typed, nested ones too ("import perf-analyzer"), so the hint names the right --help.
    std::string command;
    for (auto parsed = app.get_subcommands(); !parsed.empty(); parsed = parsed.front()->get_subcommands())
      command += (command.empty() ? "" : " ") + parsed.front()->get_name();
    // Before any subcommand, the commands there are (a typo of one lands here).
    std::string commands;
    if (command.empty())
      for (const auto* sub : app.get_subcommands([](const CLI::App* a) { return !a->get_group().empty(); }))
        commands += (commands.empty() ? "; commands: " : ", ") + sub->get_name();
    std::cerr << "sonicsim: error: " << (command.empty() ? "" : command + ": ") << error.what() << commands
              << " (see sonicsim " << (command.empty() ? "" : command + " ") << "--help)\n";
    return sonicsim::exit_bad_input;
  }
  // What went to standard output is a result too (an imported curve redirected into a file): a failed write
  // there, e.g. a full disk, fails the command like a failed write to a file.
  std::cout.flush();
  if (std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) {
    const int error = errno;
    std::cerr << "sonicsim: error: cannot write to standard output: "
              << (error ? std::strerror(error) : "the write failed") << "\n";
    return result == sonicsim::exit_ok ? sonicsim::exit_run_failed : result;
  }
  return result;
}
