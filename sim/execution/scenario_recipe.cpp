#include "sim/execution/scenario_recipe.hpp"
#include "sim/metrics/json_fields.hpp"

#include "sim/metrics/summary_json.hpp"
#include "sim/scenario/input_error.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <cstdio>
#include <map>
#include <utility>

namespace sonicsim {

namespace {

std::map<std::string, ScenarioGenerator>& generators() {
  static std::map<std::string, ScenarioGenerator> known;
  return known;
}

} // namespace

void register_scenario_generator(const std::string& name, ScenarioGenerator generator) {
  generators()[name] = std::move(generator);
}

Scenario ScenarioRecipe::rebuild() const {
  Scenario scenario;
  if (generated) {
    const auto it = generators().find(generated->generator);
    if (it == generators().end())
      throw InputError("a scenario recipe names the generator '" + generated->generator +
                       "', which this sonicsim does not have");
    scenario = it->second(generated->arguments);
  } else {
    scenario = scenario_path.empty() ? load_default_variant(variants, overrides)
                                     : load_variant_file(scenario_path, variants, overrides);
  }
  scenario.seed = seed;
  return scenario;
}

nlohmann::ordered_json ScenarioRecipe::to_json() const {
  nlohmann::ordered_json json{
      {"scenario", scenario_path}, {"variants", variants}, {"overrides", overrides}, {"seed", seed}};
  if (generated)
    json["generated"] = {{"generator", generated->generator}, {"arguments", generated->arguments}};
  return json;
}

ScenarioRecipe ScenarioRecipe::from_json(const nlohmann::ordered_json& json) {
  ScenarioRecipe recipe;
  recipe.scenario_path = json.at("scenario").get<std::string>();
  recipe.variants = json.at("variants").get<std::vector<std::string>>();
  recipe.overrides = json.at("overrides").get<std::vector<std::string>>();
  recipe.seed = json.at("seed").get<std::uint64_t>();
  if (json.contains("generated"))
    recipe.generated = GeneratedScenario{json.at("generated").at("generator").get<std::string>(),
                                         json.at("generated").at("arguments")};
  return recipe;
}

std::string scenario_fingerprint(const Scenario& scenario) {
  auto json = scenario_to_json(scenario);
  json.erase("source_file"); // a sweep merged from machines reads the same scenario from different paths
  const std::string text = json_text(json);
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
