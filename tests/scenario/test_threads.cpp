// Multi-threaded jobs (CMSSW streams): each thread takes the job's next event; a job with T threads and its
// inference on its own CPU processes T / (time per event) events per second.
#include "simulate.hpp"

#include <doctest/doctest.h>

#include <string>

namespace {

std::string scenario(int threads) {
  // Event: 1 s of CPU (lognormal, sd 0.2 s) and a local inference of 0.5 s: 1.5 s on average, on the thread's
  // own core. 20 jobs, 120 events each, starts spread over 10 s so that completions do not come in bursts.
  return "name: threads\nseed: 11\nworkload:\n  jobs: 20\n  events_per_job: 120\n  warmup_events: 8\n"
         "  start_spread: \"10s\"\n  threads: " +
         std::to_string(threads) +
         "\n  pipeline:\n    - {name: reco, type: cpu, duration: {dist: lognormal, mean: \"1s\", sd: "
         "\"0.2s\"}}\n"
         "    - {name: local_ml, type: local_inference, inferences: 100, time_per_inference: \"5ms\"}\n";
}

} // namespace

TEST_CASE("threads: with inference on the job's CPU, events per second per job = threads / time per event") {
  for (const int threads : {1, 4}) {
    CAPTURE(threads);
    const auto summary = sonicsim::testing::simulate_text(scenario(threads), "threads.yaml");
    CHECK(summary.event.mean_s == doctest::Approx(1.5).epsilon(0.02));
    // Little's law for the job's threads, each always busy with an event. The window's count of completions
    // is exact up to one event per thread at each end of the window (2 x 4 x 20 of ~2,000 counted: 1 %
    // for 4 threads); 2 % allowed.
    CHECK(summary.events_per_s_per_job == doctest::Approx(threads / summary.event.mean_s).epsilon(0.02));
  }
}

TEST_CASE("threads: a thread's blocking call holds only that thread") {
  // One job, 2 threads, each event a 1 s remote call to a model that takes 1 s on the device, on a server
  // with two devices: the two threads' calls run side by side, so 2 events finish every ~1 s, not 1.
  // (Completions are counted in time bins of a tenth of the time-series interval, pro rata at the window's
  // ends: 1 s rows keep that below 1 % of this 18 s window.)
  const std::string yaml = R"(name: threads_remote
seed: 2
platform:
  wan: {rtt: "0.1ms"}
  server_groups: {two: {pods: 1, devices: {type: T4, count: 2}}}
models:
  m:
    input_bytes_per_inference: "4B"
    output_bytes_per_inference: "4B"
    throughput: {T4: {points: [[1, 1], [10, 1]]}}
    triton: {max_batch_size: 10}
workload:
  jobs: 1
  events_per_job: 40
  warmup_events: 4
  threads: 2
  pipeline:
    - {name: call, type: remote_inference, model: m, inferences: 1, max_batch: 1}
output: {timeseries_interval: "1s"}
)";
  const auto summary = sonicsim::testing::simulate_text(yaml, "threads_remote.yaml");
  CHECK(summary.event.mean_s == doctest::Approx(1.0).epsilon(0.01));
  CHECK(summary.events_per_s_per_job == doctest::Approx(2.0).epsilon(0.05));
}
