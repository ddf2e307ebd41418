#include "sim/execution/scenario_recipe.hpp"

#include "sim/metrics/summary_json.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <cstdio>

namespace sonicsim {

Scenario ScenarioRecipe::rebuild() const {
  Scenario scenario = scenario_path.empty() ? load_default_variant(variants, overrides)
                                            : load_variant_file(scenario_path, variants, overrides);
  scenario.seed = seed;
  return scenario;
}

nlohmann::ordered_json ScenarioRecipe::to_json() const {
  return {{"scenario", scenario_path}, {"variants", variants}, {"overrides", overrides}, {"seed", seed}};
}

ScenarioRecipe ScenarioRecipe::from_json(const nlohmann::ordered_json& json) {
  ScenarioRecipe recipe;
  recipe.scenario_path = json.at("scenario").get<std::string>();
  recipe.variants = json.at("variants").get<std::vector<std::string>>();
  recipe.overrides = json.at("overrides").get<std::vector<std::string>>();
  recipe.seed = json.at("seed").get<std::uint64_t>();
  return recipe;
}

std::string scenario_fingerprint(const Scenario& scenario) {
  auto json = scenario_to_json(scenario);
  json.erase("source_file"); // a sweep merged from machines reads the same scenario from different paths
  const std::string text = json.dump();
  // FNV-1a, 64 bits: stable across platforms and standard libraries (std::hash is not).
  std::uint64_t hash = 14695981039346656037ull;
  for (const unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(hash));
  return buffer;
}

} // namespace sonicsim
