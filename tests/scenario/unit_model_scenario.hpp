// The operations tests' scenario (test_operations.cpp, test_operations_envoy.cpp): one model whose batch of
// one inference takes exactly 1 s on a T4 (throughput 1/s at batch 1), one request per event, no network time
// to speak of (RTT 0, 1-byte requests: transfers of nanoseconds), so that every time is a sum of whole
// seconds and configured delays, and the check every such run must pass.
#pragma once

#include "sim/metrics/run_summary.hpp"

#include <doctest/doctest.h>

#include <string>

namespace sonicsim::testing {

inline const char* const unit_model = R"(
models:
  unit:
    input_bytes_per_inference: "1B"
    output_bytes_per_inference: "1B"
    throughput:
      T4: {points: [[1, 1], [2, 2]]}
      CPU: {points: [[1, 0.25], [2, 0.5]]}
    triton: {max_batch_size: 1}
    deploy: {groups: [gpu]}
)";

// One server group `gpu` of one T4, the unit model's.
inline const char* const one_t4 = R"(  server_groups:
    gpu: {devices: {type: T4, count: 1}}
)";

// `platform` holds the server groups (the model is deployed on `gpu`); `workload` the workload's keys.
inline std::string scenario(const std::string& platform, const std::string& workload) {
  return "seed: 1\nplatform:\n  wan: {rtt: \"0s\"}\n  network: {tcp_window: \"0B\"}\n" + platform +
         unit_model + "workload:\n" + workload +
         "  pipeline:\n    - {name: infer, type: remote_inference, model: unit, inferences: 1, max_batch: "
         "1}\n"
         "output: {precision: off, timeseries_interval: \"1s\"}\n";
}

// Every event started ended as one outcome, or was still going when the run stopped.
inline void check_outcomes_add_up(const sonicsim::RunSummary& summary) {
  REQUIRE(summary.operations.has_value());
  const auto& e = summary.operations->events;
  CHECK(e.started == e.ended() + e.in_progress_at_end);
}

} // namespace sonicsim::testing
