// A command's scenario with one of its named variants applied (variants:), from the same SCENARIO, --set and
// --seed options as every other command (scenario_source.hpp). The variant's overrides come first, so the
// command line wins.
#pragma once

#include "sim/app/scenario_source.hpp"

#include <string>

namespace sonicsim {

// variant empty: the scenario itself (ScenarioSource::load).
Scenario load_variant(const ScenarioSource& source, const std::string& variant,
                      const std::vector<std::string>& extra_overrides = {});

} // namespace sonicsim
