// A sweep laid out before anything runs: its axes, grid and one simulation per point and replication, with
// every value the user wrote checked; and DIR/sweep_plan.json, which lists them for `sonicsim status`.
#pragma once

#include "sim/app/common/scenario_source.hpp"
#include "sim/execution/execution_options.hpp"
#include "sim/sweep/sweep_grid.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace sonicsim {

struct SweepUnit {
  std::size_t index = 0; // the point
  int replication = 0;
  Scenario scenario;
  std::string fingerprint;
};

struct SweepLayout {
  std::vector<VaryAxis> axes;
  Shard shard;
  std::vector<SweepPoint> grid;
  int replications = 1;
  std::vector<SweepUnit> units; // point by point, replication by replication
  std::filesystem::path output_dir;
  const SweepUnit& unit_of(std::size_t index, int r) const {
    return units[index * static_cast<std::size_t>(replications) + static_cast<std::size_t>(r)];
  }
  const Scenario& first() const { return units.front().scenario; }
};

// One simulation per (point, replication); replication r of every point uses replication_seed(seed, r), so
// the points of a replicated sweep share their random numbers replication by replication. A bad --vary value
// is told at that --vary. output_dir empty: out/sweep_<scenario name>.
SweepLayout lay_out_sweep(const ScenarioSource& source, const std::vector<std::string>& vary,
                          const std::string& shard_text, int replications, const std::string& output_dir);

// The shards of a sweep on a cluster: as many as asked (--slurm-tasks), at most one per point and 1,000.
int cluster_shards(const SweepLayout& layout, const ExecutionOptions& execution);

// Writes DIR/sweep_plan.json, unless a shard or a merge finds the one its submission wrote.
void write_sweep_plan(const SweepLayout& layout, bool merge_only, const ExecutionOptions& execution);

} // namespace sonicsim
