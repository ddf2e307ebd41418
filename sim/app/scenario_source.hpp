// Where a command's scenario comes from: an optional SCENARIO file (default: the embedded ProtoDUNE 2020
// large-batch scenario), --set overrides and --seed. Shared by run, sweep, analytic, bench.
#pragma once

#include "sim/scenario/input_error.hpp"
#include "sim/scenario/scenario.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

struct ScenarioSource {
  std::string path; // empty: the embedded default
  std::vector<std::string> set_overrides;
  std::optional<std::uint64_t> seed;

  void add_options(CLI::App& command);
  // Parses and checks the scenario; throws ScenarioError on bad input.
  Scenario load(const std::vector<std::string>& extra_overrides = {}) const;
};

// Checks a directory option (--out, --report, --work-dir) as typed: an empty path is refused at once, with
// one message shape for every command (whether the directory can be created and written is checked before any
// simulation, by ensure_writable_directory).
extern const CLI::Validator directory_path;

// Runs a command body, turning errors into a message on stderr and an exit code: bad input (a ScenarioError
// or an InputError) gives 2, anything else 1.
int report_error(const std::exception& error);

template <typename Arguments, typename Body> int guarded(const Arguments& arguments, Body body) {
  try {
    return body(arguments);
  } catch (const std::exception& error) {
    return report_error(error);
  }
}

} // namespace sonicsim
