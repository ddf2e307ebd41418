// The planning sections of a scenario: costs (USD per hour) and named variants, whose key paths are checked
// at load time and whose values are checked, and named, when the variant is loaded.
#include <doctest/doctest.h>

#include <string>

#include "minimal_scenario.hpp"
#include "sim/scenario/scenario_loader.hpp"

using namespace sonicsim;

namespace {

const std::string& base = testing::minimal_scenario_yaml;

std::string error_of(const std::string& text, const std::string& variant = "",
                     const std::vector<std::string>& sets = {}) {
  try {
    if (variant.empty())
      load_scenario_text(text, "s.yaml", sets);
    else
      load_variant_text(text, "s.yaml", {variant}, sets);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("costs: plain numbers in USD per hour, per device type, each optional, each > 0") {
  const Scenario s = load_scenario_text(
      base + "costs: {device_hour: {T4: 0.35, A100: 2.934}, cpu_hour: 0.0316}\n", "s.yaml");
  REQUIRE(s.costs);
  CHECK(s.costs->device_hour_usd.at("T4") == doctest::Approx(0.35));
  CHECK(s.costs->device_hour_usd.at("A100") == doctest::Approx(2.934));
  CHECK(*s.costs->cpu_hour_usd == doctest::Approx(0.0316));
  CHECK_FALSE(load_scenario_text(base, "s.yaml").costs);
  CHECK_FALSE(load_scenario_text(base + "costs: {device_hour: {T4: 1}}\n", "s.yaml").costs->cpu_hour_usd);
  CHECK(error_of(base + "costs: {device_hour: {T4: -1}}\n").find("key 'costs.device_hour.T4'") !=
        std::string::npos);
  CHECK(error_of(base + "costs: {cpu_hours: 1}\n").find("did you mean 'cpu_hour'") != std::string::npos);
  // One price for every GPU type is refused: a plan on an A100 would have kept the T4's price.
  CHECK(error_of(base + "costs: {gpu_hour: 0.35}\n").find("device_hour") != std::string::npos);
}

TEST_CASE("variants: overrides apply on top of the file, then --set wins") {
  const std::string text = base + R"(variants:
  far:
    description: farther
    overrides:
      platform.wan.rtt: "50ms"
      workload.pipeline.EmTrkMichelId.max_batch: 32
)";
  const Scenario s = load_scenario_text(text, "s.yaml");
  REQUIRE(s.variants.size() == 1);
  CHECK(s.variants[0].name == "far");
  CHECK(s.variants[0].origin == "s.yaml:14:3");
  CHECK(s.platform.wan.rtt_s == doctest::Approx(0.012)); // the base is unchanged
  const Scenario far = load_variant_text(text, "s.yaml", {"far"});
  CHECK(far.platform.wan.rtt_s == doctest::Approx(0.050));
  CHECK(far.workload.pipeline[1].max_batch == 32);
  const Scenario far_set = load_variant_text(text, "s.yaml", {"far"}, {"platform.wan.rtt=20ms"});
  CHECK(far_set.platform.wan.rtt_s == doctest::Approx(0.020));
  CHECK(error_of(text, "fra").find("no variant 'fra' (did you mean 'far'?)") != std::string::npos);
}

TEST_CASE("variants: an unknown key path is an error at its line, whatever the command") {
  const std::string text = base + R"(variants:
  fast:
    overrides:
      platform.wan.rt: "5ms"
)";
  const std::string error = error_of(text);
  CHECK(error.find("s.yaml:16:7: key 'variants.fast.overrides.platform.wan.rt'") == 0);
  CHECK(error.find("did you mean 'rtt'") != std::string::npos);
  CHECK(error_of(base + "variants: {x: {overrides: {variants.y.description: z}}}\n")
            .find("cannot change variants") != std::string::npos);
  CHECK(error_of(base + "variants: {x: {description: nothing}}\n").find("missing required key 'overrides'") !=
        std::string::npos);
}

TEST_CASE("variants: a bad value is reported at the variant that sets it") {
  const std::string text = base + R"(variants:
  zero:
    overrides:
      workload.jobs: 0
)";
  CHECK(error_of(text).empty()); // the base is fine
  const std::string error = error_of(text, "zero");
  CHECK(error.find("variant 'zero' (s.yaml:14:3): workload.jobs=0: key 'workload.jobs'") == 0);
}

TEST_CASE("the shipped 2020 scenarios define costs and their variants, and every variant loads") {
  for (const std::string config : {"protodune_2020_large_batch.yaml", "protodune_2020_small_batch.yaml"}) {
    const std::string path = std::string(SONICSIM_SOURCE_DIR) + "/configs/" + config;
    const Scenario s = load_scenario_file(path);
    REQUIRE(s.costs);
    std::vector<std::string> names;
    for (const auto& v : s.variants) {
      names.push_back(v.name);
      CHECK_NOTHROW(load_variant_file(path, {v.name}));
    }
    std::vector<std::string> expected{"fp16", "far_server", "compression_2x", "dynamic_batching"};
    // The large-batch file also has the A100 (an assumed curve, for device-type plans).
    if (config == "protodune_2020_large_batch.yaml") expected.push_back("a100");
    expected.push_back("async_clients");
    CHECK(names == expected);
  }
  CHECK(load_default_variant({"fp16"})
            .models.at("emtrkmichelid")
            .throughput_by_device.at("T4")
            .points()
            .back()
            .second == doctest::Approx(62500));
}
