// The client's side of a SONIC call (models.NAME.client_call): serialising a request, the gRPC call and
// reading the reply take the job's thread for a time per request and per byte sent, perf_analyzer's Client
// Send + Client Recv. Checked on a case computed by hand and on the released CMS files.
#include "simulate.hpp"
#include "unit_model_scenario.hpp"

#include "sim/measurements/perf_analyzer.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

using sonicsim::testing::one_t4;
using sonicsim::testing::scenario;
using sonicsim::testing::simulate_text;

namespace {

// One job of 20 events, one thread, one request of one 1-byte inference per event: with the unit model an
// event is the server's 1 s and transfers of nanoseconds.
const char* const one_job = "  jobs: 1\n  events_per_job: 20\n  warmup_events: 0\n";

std::string with_client_call(const std::string& yaml, const std::string& cost) {
  const std::string at = "    deploy: {groups: [gpu]}\n";
  std::string out = yaml;
  out.insert(out.find(at) + at.size(), "    client_call: " + cost + "\n");
  return out;
}

} // namespace

TEST_CASE("client call: 0.25 s per request on the job's thread adds 0.25 s to each event of one request, and "
          "0.5 s to an event of two") {
  const std::string base = scenario(one_t4, one_job);
  const auto off = simulate_text(base, "client_call_off");
  const auto on = simulate_text(with_client_call(base, "{per_request: \"250ms\"}"), "client_call_on");
  REQUIRE(off.event.count == 20);
  REQUIRE(on.event.count == 20);
  CHECK(off.event.mean_s == doctest::Approx(1.0).epsilon(1e-6));
  CHECK(on.event.mean_s == doctest::Approx(1.25).epsilon(1e-6));
  // Two inferences per event sent one per request (max_batch 1): two calls, 2 x 1 s at the server plus 2 x
  // 0.25 s on the thread.
  std::string two = with_client_call(base, "{per_request: \"250ms\"}");
  const std::string one_inference = "inferences: 1, max_batch: 1";
  two.replace(two.find(one_inference), one_inference.size(), "inferences: 2, max_batch: 1");
  const auto twice = simulate_text(two, "client_call_two");
  CHECK(twice.event.mean_s == doctest::Approx(2.5).epsilon(1e-6));
}

TEST_CASE("client call: fitted to the ParticleNet AK4 (PyTorch) files' Client Send + Client Recv") {
  // The files' medians per client batch (us): 9 at batch 1, 15 at 4, 17 at 8, 29 at 16, 49 at 32, 107 at
  // 64, 256 at 128, 619 at 256. A free line over the request's bytes (9,760 B per jet) has a negative
  // intercept (-13 us), so the cost is per byte alone: sum(x y) / sum(x x) = 0.2349 ns per byte, 8.5 us for
  // the 3.61 jets of a Mini-AOD event's request.
  const std::string folder =
      std::string(SONICSIM_SOURCE_DIR) + "/validation/data/cms_miniaod_2024/perf_analyzer/particlenet_AK4_PT";
  const auto imported = sonicsim::measurements::import_perf_analyzer(
      sonicsim::testing::sorted_files(folder), std::nullopt, 9760, 40,
      sonicsim::measurements::DeviceTimeMapping::merged_async);
  CHECK(imported.client_call.per_request_s == 0.0);
  CHECK(imported.client_call.per_byte_s == doctest::Approx(0.23489e-9).epsilon(1e-4));
  // A scenario reading it from the model's own files gets the same cost.
  const auto cms = sonicsim::load_scenario_file(std::string(SONICSIM_SOURCE_DIR) +
                                                "/configs/cms_miniaod_2024_one_model_per_t4.yaml");
  const auto& ak4 = cms.models.at("particlenet_ak4");
  CHECK(ak4.client_call_perf_analyzer == "T4");
  CHECK(ak4.client_call.per_byte_s == doctest::Approx(imported.client_call.per_byte_s));
}
