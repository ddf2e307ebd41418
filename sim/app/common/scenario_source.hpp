// Where a command's scenario comes from: an optional SCENARIO file (default: the embedded ProtoDUNE 2020
// large-batch scenario), --variant (repeatable, applied in order), --set overrides and --seed. The same
// options, with the same meaning, on every command that takes a scenario.
#pragma once

#include "sim/execution/interruption.hpp"
#include "sim/execution/scenario_recipe.hpp"
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
  std::vector<std::string> variants;
  std::vector<std::string> set_overrides;
  std::optional<std::uint64_t> seed;

  void add_options(CLI::App& command);
  // Parses and checks the scenario; throws ScenarioError on bad input. extra_overrides come after --set.
  Scenario load(const std::vector<std::string>& extra_overrides = {}) const;
  // The same with these variants instead of --variant's.
  Scenario load_variants(const std::vector<std::string>& variants,
                         const std::vector<std::string>& extra_overrides = {}) const;
  // How a process elsewhere rebuilds `scenario`, made by load_variants(variants, extra_overrides) and then
  // given its seed.
  ScenarioRecipe recipe_with_variants(const Scenario& scenario, const std::vector<std::string>& variants,
                                      const std::vector<std::string>& extra_overrides = {}) const;
  ScenarioRecipe recipe(const Scenario& scenario,
                        const std::vector<std::string>& extra_overrides = {}) const {
    return recipe_with_variants(scenario, variants, extra_overrides);
  }
};

// --seed: a whole number from 0 to 2^64 - 1 (a negative one would otherwise wrap).
void add_seed_option(CLI::App& command, std::optional<std::uint64_t>& seed);

// Checks a directory option (--out, --report, --work-dir) as typed: an empty path is refused at once, with
// one message shape for every command (whether the directory can be created and written is checked before any
// simulation, by ensure_writable_directory).
extern const CLI::Validator directory_path;

// A model, device or server group name that goes into the YAML an import prints (as a key and in a comment):
// a plain name keeps that YAML valid, whatever the shell passed (a newline would start a line of its own).
extern const CLI::Validator plain_name;

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

// A command that runs its simulations in several batches of child processes holds one InterruptionGuard for
// its whole length: a Ctrl-C between two batches stops it too. Each batch's own guard would leave that moment
// to the disposition the process inherited, and a script's background job inherits SIGINT ignored: a plan
// once ran to its end and exited 0 after Ctrl-C. The body checks (throw_if_interrupted) before it writes.
template <typename Arguments, typename Body> int guarded_batches(const Arguments& arguments, Body body) {
  const InterruptionGuard guard;
  return guarded(arguments, body);
}

} // namespace sonicsim
