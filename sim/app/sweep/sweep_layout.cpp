#include "sim/app/sweep/sweep_layout.hpp"
#include "sim/metrics/json_fields.hpp"

#include "sim/execution/scenario_recipe.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/random/replication_seed.hpp"
#include "sim/scenario/overrides.hpp"
#include "sim/scenario/scenario_error.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace sonicsim {

// One simulation per (point, replication); replication r of every point uses replication_seed(seed, r), so
// the points of a replicated sweep share their random numbers replication by replication.
SweepLayout lay_out_sweep(const ScenarioSource& source, const std::vector<std::string>& vary,
                          const std::string& shard_text, int replications, const std::string& output_dir) {
  SweepLayout layout;
  for (const auto& axis : vary)
    layout.axes.push_back(parse_vary(axis));
  layout.shard = shard_text.empty() ? Shard{} : parse_shard(shard_text);
  layout.grid = build_grid(layout.axes);
  layout.replications = replications;
  const auto& axes = layout.axes;
  auto& units = layout.units;
  units.reserve(layout.grid.size() * static_cast<std::size_t>(replications));
  for (const auto& point : layout.grid) {
    const auto overrides = point_overrides(axes, point);
    Scenario scenario;
    try {
      scenario = source.load(overrides);
    } catch (const ScenarioError& error) {
      // Told at the --vary value that made the point, not as a --set.
      for (std::size_t a = 0; a < axes.size(); ++a)
        if (error.file == "--set " + overrides[a] ||
            std::string(error.what()).find(overrides[a]) != std::string::npos)
          rethrow_at_origin(error, overrides[a],
                            "--vary " + axes[a].key + " value '" + point.values[a] + "'");
      throw;
    }
    for (int r = 0; r < replications; ++r) {
      SweepUnit unit{point.index, r, scenario, {}};
      unit.scenario.seed = replication_seed(scenario.seed, r);
      unit.fingerprint = scenario_fingerprint(unit.scenario);
      units.push_back(std::move(unit));
    }
  }
  layout.output_dir = output_dir.empty() ? std::filesystem::path("out") / ("sweep_" + layout.first().name)
                                         : std::filesystem::path(output_dir);
  return layout;
}

int cluster_shards(const SweepLayout& layout, const ExecutionOptions& execution) {
  return execution.cluster.tasks > 0
             ? std::min<int>(execution.cluster.tasks, static_cast<int>(layout.grid.size()))
             : static_cast<int>(std::min<std::size_t>(layout.grid.size(), 1000));
}

void write_sweep_plan(const SweepLayout& layout, bool merge_only, const ExecutionOptions& execution) {
  const auto& units = layout.units;
  const auto& output_dir = layout.output_dir;
  const Shard& shard = layout.shard;
  const int plan_shards =
      execution.on_cluster() ? cluster_shards(layout, execution) : std::max(1, shard.count);
  {
    nlohmann::ordered_json plan{{"command", "sweep"},
                                {"points", layout.grid.size()},
                                {"replications", layout.replications},
                                {"shards", plan_shards},
                                {"simulations", nlohmann::ordered_json::array()}};
    for (const SweepUnit& unit : units)
      plan["simulations"].push_back({{"point", unit.index},
                                     {"replication", unit.replication},
                                     {"shard", 1 + unit.index % static_cast<std::size_t>(plan_shards)},
                                     {"fingerprint", unit.fingerprint}});
    // Written by the run that lays the sweep out (a Slurm submission, or a whole sweep here); the shards and
    // the merge of a submission keep it, so its shard numbers stay those of the array.
    if (execution.on_cluster() || (!merge_only && shard.count <= 1) ||
        !std::filesystem::exists(output_dir / "sweep_plan.json"))
      write_file_atomically(output_dir / "sweep_plan.json", json_text(plan, 1) + "\n");
  }
}

} // namespace sonicsim
