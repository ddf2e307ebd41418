#include "sim/scenario/default_scenario.hpp"

namespace sonicsim {

// Keep identical to configs/protodune_2020_large_batch.yaml: test_scenario_default.cpp loads both and
// compares every field.
const char* embedded_default_scenario_yaml() {
  return R"YAML(name: protodune_2020_large_batch
description: "ProtoDUNE-SP EmTrkMichelId as a service, 2020 scaling study with large batches (seed 004)"
seed: 1
platform:
  jobs_per_node: 1
  nic_mix:                      # list; fractions sum to 1
    - {bandwidth: "10Gbps", fraction: 0.64}
    - {bandwidth: "1Gbps", fraction: 0.36}
  cpu_mix:                      # list; fractions sum to 1
    - {name: "Intel Xeon E5-2650 v2", fraction: 1.0, speed: 1.0}
  site_switch: {bandwidth: "100Gbps", background: "0Gbps"}
  wan: {rtt: "12ms", bandwidth: "400Gbps"}
  server_pods: {count: 4, gpus_per_pod: 1, gpu_type: T4, nic_bandwidth: "16Gbps", load_balancer: random}
  network: {tcp_window: "3MB"}
models:
  emtrkmichelid:
    input_bytes_per_inference: "9216B"
    output_bytes_per_inference: "16B"
    throughput:
      T4:
        points: [[1, 600], [64, 9000], [235, 20000], [1693, 31000], [16384, 32000]]   # [batch, inferences/s]
        overhead: "0ms"
    triton:
      max_batch_size: 16384
      instances_per_gpu: 1
      dynamic_batching: {enabled: false, preferred_batch_sizes: [], max_queue_delay: "0us"}
      queue_policy: {max_queue_size: 0, timeout: "0s"}     # 0 = unlimited / none
workload:
  jobs: 100
  events_per_job: 6
  warmup_events: 1
  start_spread: "120s"
  client: {retries: 3, retry_backoff: "1s", mode: sync, max_in_flight: 1}   # mode: sync | async
  pipeline:
    - {name: non_ml, type: cpu, duration: "110s"}
    - name: EmTrkMichelId
      type: remote_inference
      model: emtrkmichelid
      preprocess: "7s"
      inferences: {dist: normal, mean: 55000, sd: 5500}
      groups: 32
      group_spread: 0.5
      max_batch: 16384
output:
  timeseries_interval: "60s"
)YAML";
}

} // namespace sonicsim
