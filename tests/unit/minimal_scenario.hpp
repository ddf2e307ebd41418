// The smallest valid scenario the loader tests start from: one model, one CPU module, one remote-inference
// module (named EmTrkMichelId, so that --set can address it by name).
#pragma once

#include <string>

namespace sonicsim::testing {

inline const std::string minimal_scenario_yaml = R"(name: t
models:
  m:
    input_bytes_per_inference: "9216B"
    output_bytes_per_inference: "16B"
    throughput: {T4: {points: [[1, 600], [64, 9000]]}}
    triton: {max_batch_size: 64}
workload:
  jobs: 10
  pipeline:
    - {name: reco, type: cpu, duration: "1s"}
    - {name: EmTrkMichelId, type: remote_inference, model: m, inferences: 100, max_batch: 64}
)";

} // namespace sonicsim::testing
