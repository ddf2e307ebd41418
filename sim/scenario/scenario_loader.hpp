// YAML scenario -> typed Scenario (scenario.hpp). Every problem is a ScenarioError naming the file, line,
// column, key path, the offending value and what is expected; the schema and defaults are documented in
// docs/scenario_reference.md.
#pragma once

#include <string>
#include <vector>

#include "sim/scenario/overrides.hpp" // validate_key_path, for checking --vary keys before a sweep
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/scenario_error.hpp"

namespace sonicsim {

// set_overrides are "key.path=value" strings (the --set arguments), applied in order on top of the file.
Scenario load_scenario_file(const std::string& path, const std::vector<std::string>& set_overrides = {});
Scenario load_scenario_text(const std::string& yaml_text, const std::string& source_name,
                            const std::vector<std::string>& set_overrides = {});
// The built-in scenario (configs/protodune_2020_large_batch.yaml, embedded in default_scenario.cpp).
Scenario load_default_scenario(const std::vector<std::string>& set_overrides = {});

// The scenario with some of its named variants (variants:) applied, in the order given (a later one wins
// where two set the same key), then set_overrides (so the command line wins). No variants: the scenario
// itself. An unknown variant name is a ScenarioError listing the known ones.
Scenario load_variant_text(const std::string& yaml_text, const std::string& source_name,
                           const std::vector<std::string>& variants,
                           const std::vector<std::string>& set_overrides = {});
Scenario load_variant_file(const std::string& path, const std::vector<std::string>& variants,
                           const std::vector<std::string>& set_overrides = {});
Scenario load_default_variant(const std::vector<std::string>& variants,
                              const std::vector<std::string>& set_overrides = {});

// The source name the embedded default reports in errors and in Scenario::source_file.
inline constexpr const char* embedded_default_source_name = "<embedded default>";

} // namespace sonicsim
