// perf_analyzer's own setup as a scenario, to check an import against the figure it cannot explain away: each
// file's Inferences/Second at its concurrency. Concurrency c becomes c jobs that each keep one request of the
// file's batch size in flight (what `--async --concurrency-range c:c` does); the client's own time per
// request (Client Send + Client Recv) is the jobs' CPU step; Network+Server Send/Recv is the round trip; the
// server is one pod with one device of the imported type and the imported curve and host costs. Pure code.
#pragma once

#include "sim/measurements/perf_analyzer.hpp"
#include "sim/scenario/scenario.hpp"

#include <string>
#include <vector>

namespace sonicsim::calibration {

struct ReplaySettings {
  std::string device_type = "T4";
  int instances = 1;             // per device (Triton's instance_group count)
  bool dynamic_batching = false; // on: concurrent requests may merge (max_queue_delay 0)
  int max_batch_size = 0; // 0: the largest executed batch the import saw, at least the largest client batch
  int host_cores = 128;   // the measuring host (2 x AMD EPYC 7702 for the CMS files)
  double input_bytes_per_inference = 4.0;
  double output_bytes_per_inference = 4.0;
  int requests_per_job = 2000; // per replay; the first 10 % are warm-up
  std::uint64_t seed = 1;
};

// One replay per (file, row).
struct Replay {
  std::string file;
  int batch_size = 0;
  int concurrency = 0;
  double measured_inferences_per_s = 0.0;
  Scenario scenario;
};

std::vector<Replay> perf_analyzer_replays(const measurements::PerfAnalyzerImport& imported,
                                          const ReplaySettings& settings);

} // namespace sonicsim::calibration
