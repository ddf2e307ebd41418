#include "minimal_scenario.hpp"
#include "sim/scenario/provenance.hpp"
#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace sonicsim;
using sonicsim::testing::minimal_scenario_yaml;

namespace {

const std::string with_provenance = minimal_scenario_yaml + R"(provenance:
  models.m.throughput.T4: {measured: "perf_client on one T4"}
  models.m.throughput.A100: {assumed: "the T4 curve x 2.4"}
  models.m.output_bytes_per_inference: {assumed: "4 FP32 scores"}
  workload.pipeline.EmTrkMichelId.inferences: {assumed: "100 patches"}
  platform.wan.rtt: {assumed: "same region"}
  workload.pipeline.reco.duration: {derived: "the event's time less the model's"}
)";

std::string error_of(const std::string& yaml) {
  try {
    load_scenario_text(yaml, "p.yaml");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("provenance: each entry is read with its kind and text, in the order written") {
  const Scenario s = load_scenario_text(with_provenance, "p.yaml");
  REQUIRE(s.provenance.size() == 6);
  CHECK(s.provenance[0].key == "models.m.throughput.T4");
  CHECK(s.provenance[0].kind == Provenance::Kind::measured);
  CHECK(s.provenance[5].kind == Provenance::Kind::derived);
  CHECK(s.provenance[1].origin == "p.yaml:15:3");
}

TEST_CASE("provenance: the assumptions in use follow the devices and the modules that send requests") {
  Scenario s = load_scenario_text(with_provenance, "p.yaml");
  // On T4 (the default device type): the A100's curve is not used.
  auto keys = [](const std::vector<Provenance>& list) {
    std::string out;
    for (const auto& p : list)
      out += p.key + ";";
    return out;
  };
  CHECK(keys(assumptions_in_use(s)) ==
        "models.m.output_bytes_per_inference;workload.pipeline.EmTrkMichelId.inferences;platform.wan.rtt;");
  // Moved to A100s (a variant, --set or a plan's --device-types): the assumed curve comes in.
  s.platform.server_groups.front().device_type = "A100";
  CHECK(keys(assumptions_in_use(s)).find("models.m.throughput.A100;") != std::string::npos);
  // Run directly on the job's CPU, the module sends no inferences: neither the model's nor the count's
  // assumptions apply.
  s.workload.pipeline[1].run_direct = true;
  CHECK(keys(assumptions_in_use(s)) == "platform.wan.rtt;");
}

TEST_CASE("provenance: bad entries name the file, line and key, and what is expected") {
  CHECK(
      error_of(minimal_scenario_yaml + "provenance:\n  platform.wan.rttt: {assumed: x}\n").find("p.yaml:") !=
      std::string::npos);
  const std::string two =
      error_of(minimal_scenario_yaml + "provenance:\n  platform.wan.rtt: {assumed: x, measured: y}\n");
  CHECK(two.find("exactly one of") != std::string::npos);
  const std::string none =
      error_of(minimal_scenario_yaml + "provenance:\n  platform.wan.rtt: {guessed: x}\n");
  CHECK(none.find("guessed") != std::string::npos);
}

TEST_CASE("a what-if variant's values are assumptions its answers rest on") {
  // fp16 doubles the measured-derived T4 curve: the doubled curve is an assumption of the what-if (the
  // variant's own words), and compression_2x's CPU cost per byte is too. Before, both added nothing to
  // "rests on", so a plan on fp16 read as resting on measurements only.
  const auto listed = [](const Scenario& scenario, const std::string& key) -> std::string {
    for (const auto& a : assumptions_in_use(scenario))
      if (a.key == key) return a.text;
    return "";
  };
  const Scenario fp16 = load_default_variant({"fp16"});
  const std::string doubled = listed(fp16, "models.emtrkmichelid.throughput.T4.points");
  CHECK(doubled.find("variant 'fp16': FP16 model: every throughput point doubled") == 0);
  // The derivation of the measured curve no longer describes the doubled one: it is gone from provenance.
  for (const auto& p : fp16.provenance)
    CHECK(p.key != "models.emtrkmichelid.throughput.T4");
  const Scenario compressed = load_default_variant({"compression_2x"});
  CHECK(listed(compressed, "workload.pipeline.EmTrkMichelId.compression_time_per_byte")
            .find("variant 'compression_2x'") == 0);
  // An assumption the scenario wrote for what a variant changes stays beside the variant's (a100's curve).
  const Scenario a100 = load_default_variant({"a100"});
  CHECK(listed(a100, "models.emtrkmichelid.throughput.A100").find("the T4 curve x 2.4") == 0);
  CHECK_FALSE(listed(a100, "models.emtrkmichelid.throughput.A100.points").empty());
  // Without a variant nothing is added.
  CHECK(listed(load_default_variant({}), "models.emtrkmichelid.throughput.T4.points").empty());
}

TEST_CASE("a seed is any 64-bit number: the seeds replications and plans print reproduce with --seed") {
  // replications.json and plan.json print derived seeds up to 2^64 - 1 (10451216379200822465 is the second
  // replication of seed 1); `run --seed` refused every one above 2^53.
  CHECK(load_default_variant({}, {"seed=10451216379200822465"}).seed == 10451216379200822465ULL);
  CHECK(load_default_variant({}, {"seed=18446744073709551615"}).seed == 18446744073709551615ULL);
  CHECK_THROWS_WITH_AS(load_default_variant({}, {"seed=18446744073709551616"}),
                       doctest::Contains("an integer from 0 to 18446744073709551615"), ScenarioError);
  CHECK(load_default_variant({}, {"seed=1e3"}).seed == 1000); // other spellings as before
}
