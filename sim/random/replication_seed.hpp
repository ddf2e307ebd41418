// Seeds of independent replications of one scenario. Replication 0 is the scenario's own seed, so one
// replication is exactly the single run a user gets without --replications; replication r > 0 takes a seed
// mixed from (seed, r) by SplitMix64, so replications of neighbouring scenario seeds do not overlap (seed 1's
// replication 1 is not seed 2). The same (seed, r) gives the same seed in every command, which is what makes
// candidates of a plan, points of a sweep and variants of a comparison use common random numbers. Pure code.
#pragma once

#include <cstdint>

namespace sonicsim {

inline std::uint64_t replication_seed(std::uint64_t scenario_seed, int replication) {
  if (replication <= 0) return scenario_seed;
  // SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014) of the seed
  // offset by the replication times the golden-ratio increment.
  std::uint64_t z = scenario_seed + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(replication);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

} // namespace sonicsim
