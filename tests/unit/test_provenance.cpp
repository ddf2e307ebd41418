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
