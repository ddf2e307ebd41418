// Deterministic assignment of items (jobs, nodes) to classes with given fractions, and the random streams
// that derive from the scenario seed. Pure code.
#pragma once

#include "sim/random/random_engine.hpp"
#include <cstdint>
#include <random>
#include <vector>

namespace sonicsim {

// Independent random streams, all derived from the scenario seed.
enum RandomStream : std::uint64_t {
  stream_nic_mix = 1,
  stream_cpu_mix = 2,
  stream_load_balancer = 3,
  stream_job_start = 4,
  stream_job = 100, // + job index: each job has its own stream, so a job's draws do not depend on the others
  stream_background = 5,
  stream_local_gpu = 6,
  stream_campaign = 7, // the campaign scheduler: start delays, pods of campaign jobs
  stream_background_on_off = 8,
  stream_campaign_slots = 9, // campaign.slots_random
  stream_job_thread = 10, // + job x 256 + thread, for a job's threads after the first (which uses stream_job)
  stream_proxy = 11,      // + group index: a proxy's random choices
  stream_pod_failures = 12,   // + group index: a group's random pod failures
  stream_job_preemption = 13, // + job index: when the job is preempted
};

RandomEngine make_stream(std::uint64_t seed, std::uint64_t stream, std::uint64_t index = 0);

// Assigns `count` items to classes so that class c gets round(fraction_c * count) items (largest remainder),
// in an order shuffled by the seed (so that, e.g., NIC class is not correlated with job index).
std::vector<int> stratified_assignment(const std::vector<double>& fractions, int count, std::uint64_t seed,
                                       std::uint64_t stream);

} // namespace sonicsim
