// sonicsim: discrete-event simulation of ML inference as a service (SONIC) for particle-physics computing.
// This file only declares the command line; each subcommand lives in sim/app/.
#include "sim/app/commands.hpp"
#include "sim/engine/engine_arguments.hpp"
#include "sim/engine/simgrid_settings_check.hpp"
#include "sim/execution/process_arguments.hpp"
#include "sim/scenario/input_error.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

namespace {

// Edit distance between two words (insertions, deletions, substitutions, and a swap of neighbours).
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i)
    d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j)
    d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] =
          std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// For "The following argument was not expected: --jsn": the closest option or command the user may have
// meant, when one is close (a third of the word's letters at most); empty otherwise.
std::string suggestion(const CLI::App& command, const std::string& message) {
  const std::string marker = "was not expected: ";
  const auto at = message.find(marker);
  if (at == std::string::npos) return {};
  std::string typed = message.substr(at + marker.size());
  typed = typed.substr(0, typed.find_first_of(" \n"));
  typed = typed.substr(0, typed.find('='));
  std::vector<std::string> known;
  for (const auto* option : command.get_options())
    for (const auto& name : option->get_lnames())
      known.push_back("--" + name);
  for (const auto* sub : command.get_subcommands([](const CLI::App*) { return true; }))
    known.push_back(sub->get_name());
  std::string best;
  std::size_t best_distance = typed.size() / 3 + 1;
  for (const auto& name : known)
    if (const auto d = edit_distance(typed, name); d < best_distance) {
      best_distance = d;
      best = name;
    }
  return best.empty() ? std::string() : "; did you mean " + best + "?";
}

// NaN passes CLI11's Range and PositiveNumber (every comparison with NaN is false), and 1e999 reads as inf:
// every floating-point option of the command given must be finite, whatever its own check, before any command
// runs.
void refuse_non_finite_numbers(const CLI::App& command) {
  for (const auto* option : command.get_options()) {
    if (option->get_type_name().find("FLOAT") == std::string::npos) continue;
    for (const auto& result : option->results()) {
      std::size_t start = 0;
      for (;;) {
        const auto comma = result.find(',', start);
        const std::string piece = result.substr(start, comma - start);
        char* end = nullptr;
        const double value = std::strtod(piece.c_str(), &end);
        if (!piece.empty() && end == piece.c_str() + piece.size() && !std::isfinite(value))
          throw CLI::ValidationError(option->get_name() + " " + piece + ": expected a finite number");
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    }
  }
  for (const auto* sub : command.get_subcommands())
    refuse_non_finite_numbers(*sub);
}

// --help and --version print as CLI11 prints them; a bad option is an error in sonicsim's own shape.
int report_parse_error(CLI::App& app, const CLI::ParseError& error) {
  if (error.get_exit_code() == 0) return app.exit(error);
  // The command as typed, nested ones too ("import perf-analyzer"), so the hint names the right --help.
  std::string command;
  const CLI::App* innermost = &app;
  for (auto parsed = app.get_subcommands(); !parsed.empty(); parsed = parsed.front()->get_subcommands()) {
    command += (command.empty() ? "" : " ") + parsed.front()->get_name();
    innermost = parsed.front();
  }
  // Before any subcommand, the commands there are (a typo of one lands here).
  std::string commands;
  if (command.empty())
    for (const auto* sub : app.get_subcommands([](const CLI::App* a) { return !a->get_group().empty(); }))
      commands += (commands.empty() ? "; commands: " : ", ") + sub->get_name();
  std::cerr << "sonicsim: error: " << (command.empty() ? "" : command + ": ") << error.what()
            << suggestion(*innermost, error.what()) << commands << " (see sonicsim "
            << (command.empty() ? "" : command + " ") << "--help)\n";
  return sonicsim::exit_bad_input;
}

} // namespace

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
  app.parse_complete_callback([&app, &simgrid_settings]() {
    refuse_non_finite_numbers(app);
    // Checked here, once, before any command runs a simulation in this process or in its children.
    try {
      sonicsim::check_simgrid_settings(simgrid_settings);
    } catch (const sonicsim::InputError& error) {
      throw CLI::ValidationError(error.what());
    }
    sonicsim::EngineCommandLine::set_user_settings(simgrid_settings);
  });
  sonicsim::register_run_command(app, result);
  sonicsim::register_bench_command(app, result);
  sonicsim::register_validate_command(app, result);
  sonicsim::register_analytic_command(app, result);
  sonicsim::register_sweep_command(app, result);
  sonicsim::register_plan_command(app, result);
  sonicsim::register_compare_command(app, result);
  sonicsim::register_replay_command(app, result);
  sonicsim::register_import_command(app, result);
  sonicsim::register_calibrate_command(app, result);
  sonicsim::register_status_command(app, result);
  sonicsim::register_figures_command(app, result);
  sonicsim::register_report_command(app, result);
  sonicsim::register_array_task_command(app, result);
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
    return report_parse_error(app, error);
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
