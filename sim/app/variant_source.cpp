#include "sim/app/variant_source.hpp"

#include "sim/scenario/scenario_loader.hpp"

namespace sonicsim {

Scenario load_variant(const ScenarioSource& source, const std::string& variant,
                      const std::vector<std::string>& extra_overrides) {
  if (variant.empty()) return source.load(extra_overrides);
  std::vector<std::string> overrides = source.set_overrides;
  overrides.insert(overrides.end(), extra_overrides.begin(), extra_overrides.end());
  if (source.seed) overrides.push_back("seed=" + std::to_string(*source.seed));
  return source.path.empty() ? load_default_variant(variant, overrides)
                             : load_variant_file(source.path, variant, overrides);
}

} // namespace sonicsim
