// sonicsim: discrete-event simulation of ML inference as a service (SONIC) for particle-physics computing.
// This file only declares the command line; each subcommand lives in sim/app/.
#include "sim/app/commands.hpp"

#include <CLI/CLI.hpp>

#include <string>

int main(int argc, char** argv) {
  CLI::App app{"sonicsim: simulate CPU grid jobs sending ML inference to remote GPU (Triton) servers"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", std::string("sonicsim ") + SONICSIM_VERSION +
                                        " (SimGrid 3.32, Triton v2.3 batching rule)");
  int result = sonicsim::exit_ok;
  sonicsim::register_run_command(app, result);
  sonicsim::register_bench_command(app, result);
  sonicsim::register_validate_command(app, result);
  sonicsim::register_analytic_command(app, result);
  sonicsim::register_sweep_command(app, result);
  sonicsim::register_plan_command(app, result);
  sonicsim::register_compare_command(app, result);
  // With no arguments at all, run the default scenario (`sonicsim run`).
  char run_word[] = "run";
  char* default_argv[] = {argv[0], run_word, nullptr};
  if (argc == 1) {
    argc = 2;
    argv = default_argv;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? 0 : sonicsim::exit_bad_input;
  }
  return result;
}
