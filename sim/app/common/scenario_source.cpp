#include "sim/app/common/scenario_source.hpp"

#include "sim/app/commands.hpp"
#include "sim/execution/interruption.hpp"
#include "sim/measurements/measurement_error.hpp"
#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "sim/scenario/units.hpp"

#include <algorithm>
#include <cctype>
#include <new>

namespace sonicsim {

void ScenarioSource::add_options(CLI::App& command) {
  command.add_option("scenario", path,
                     "Scenario YAML file (default: the embedded ProtoDUNE 2020 large-batch scenario)");
  command
      .add_option("--variant", variants,
                  "Apply a named variant of the scenario (variants:); repeatable, applied in order, "
                  "before --set")
      ->allow_extra_args(false);
  command.add_option("--set", set_overrides, "Override a scenario field: key.path=value (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  add_seed_option(command, seed);
}

void add_seed_option(CLI::App& command, std::optional<std::uint64_t>& seed) {
  // NonNegativeNumber: "-1" would otherwise wrap to 2^64 - 1 and be blamed on a --set the user never wrote.
  const CLI::Validator seed_digits(
      [](const std::string& text) {
        const bool digits =
            !text.empty() && text.size() <= 20 && text.find_first_not_of("0123456789") == std::string::npos;
        return digits ? std::string() : "expected an integer from 0 to 2^64 - 1, got " + text;
      },
      "SEED");
  command.add_option("--seed", seed, "Random seed (overrides the scenario's seed)")->check(seed_digits);
}

Scenario ScenarioSource::load(const std::vector<std::string>& extra_overrides) const {
  return load_variants(variants, extra_overrides);
}

Scenario ScenarioSource::load_variants(const std::vector<std::string>& chosen,
                                       const std::vector<std::string>& extra_overrides) const {
  std::vector<std::string> overrides = set_overrides;
  overrides.insert(overrides.end(), extra_overrides.begin(), extra_overrides.end());
  if (seed) overrides.push_back("seed=" + std::to_string(*seed));
  return path.empty() ? load_default_variant(chosen, overrides) : load_variant_file(path, chosen, overrides);
}

ScenarioRecipe ScenarioSource::recipe_with_variants(const Scenario& scenario,
                                                    const std::vector<std::string>& chosen,
                                                    const std::vector<std::string>& extra_overrides) const {
  ScenarioRecipe out;
  out.scenario_path = path.empty() ? std::string() : std::filesystem::absolute(path).string();
  out.variants = chosen;
  out.overrides = set_overrides;
  out.overrides.insert(out.overrides.end(), extra_overrides.begin(), extra_overrides.end());
  out.seed = scenario.seed;
  return out;
}

const CLI::Validator directory_path(
    [](const std::string& text) {
      return text.empty()
                 ? std::string("expected a directory, got an empty path (leave the option out for its "
                               "default)")
                 : std::string();
    },
    "DIR");

const CLI::Validator plain_name(
    [](const std::string& text) {
      const bool plain =
          !text.empty() && text.size() <= 100 && std::all_of(text.begin(), text.end(), [](char ch) {
            return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.' ||
                   ch == '+';
          });
      return plain ? std::string()
                   : "expected a plain name (letters, digits, '_', '-', '.', '+'; at most 100 characters), "
                     "got '" +
                         text + "'";
    },
    "NAME");

int report_error(const std::exception& error) {
  if (dynamic_cast<const Interrupted*>(&error)) {
    std::cerr << "sonicsim: interrupted: " << error.what() << "\n";
    return exit_interrupted;
  }
  // Past the memory estimate (a huge input being read, what the estimate does not count): said in words, with
  // what to change, never the library's "std::bad_alloc".
  if (dynamic_cast<const std::bad_alloc*>(&error)) {
    std::cerr
        << "sonicsim: error: out of memory: the command needed more than this process may hold (its "
           "address-space limit, ulimit -v, or the machine's memory); nothing was written but *.partial "
           "files; expected a smaller input or run, or more memory\n";
    return exit_run_failed;
  }
  const bool bad_input =
      dynamic_cast<const ScenarioError*>(&error) || dynamic_cast<const InputError*>(&error) ||
      dynamic_cast<const measurements::MeasurementError*>(&error) || dynamic_cast<const UnitError*>(&error) ||
      dynamic_cast<const std::filesystem::filesystem_error*>(&error);
  std::cerr << "sonicsim: error: " << error.what() << "\n";
  return bad_input ? exit_bad_input : exit_run_failed;
}

} // namespace sonicsim
