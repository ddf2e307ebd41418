// The simulations behind a plan, kept as evidence: each point (a layout, or devices per group, at a number of
// jobs) with its replications. Replication r of every point runs with the same seed (common random numbers,
// sim/random/replication_seed.hpp), so candidates differ by their layout, not by their luck, and relative
// targets pair each replication with the reference's replication of the same seed. Asked-for replications
// run in one parallel batch. A target on a direct-inference figure brings the baseline of each jobs count
// and seed into the batch (sim/metrics/direct_baseline.hpp). Pure code: the simulations come from the
// caller's function.
#pragma once

#include "sim/planning/plan_result.hpp"
#include "sim/scenario/scenario.hpp"

#include <functional>
#include <string>
#include <vector>

namespace sonicsim::planning {

// An outcome per scenario, in their order: the simulations the search asked for.
using SimulateBatch = std::function<std::vector<SimulationOutcome>(const std::vector<Scenario>&)>;

struct RunPoint {
  PodLayout layout;                         // single-group plans
  std::map<std::string, int> group_devices; // multi-model plans: devices per group (pods of the group's size)
  int jobs = 0;
  bool operator==(const RunPoint& o) const {
    return layout == o.layout && group_devices == o.group_devices && jobs == o.jobs;
  }
};

class PlanRuns {
public:
  PlanRuns(Scenario scenario, SimulateBatch simulate, std::vector<PlanTarget> targets, double indifference,
           std::map<std::string, std::vector<std::string>> modules_by_group, std::vector<std::string> modules,
           double inferences_per_event);

  // The scenario at a point, with seed `seed`.
  Scenario scenario_at(const RunPoint& point, std::uint64_t seed) const;

  // Sets the reference point (low load); its replications follow the candidates'.
  void set_reference(const RunPoint& point);
  // Runs what is missing for each point to have at least `replications` replications (and the reference as
  // many as the most of them, and at least reference_replications), in one batch; returns the points' runs,
  // judged.
  std::vector<PlanRun> ensure(const std::vector<std::pair<RunPoint, int>>& wanted,
                              int reference_replications = 0);
  const PlanRun& reference() const { return runs_.front(); }
  int replications_of(const RunPoint& point) const;
  // The run at a point, if it ran.
  const PlanRun* find(const RunPoint& point) const;
  // Every candidate in the order first asked for.
  std::vector<PlanRun> candidates() const;
  int batches() const { return batches_; }
  int simulations() const { return simulations_; }

private:
  void add(const RunPoint& point, RunRole role);
  // The figures of one replication, from the scenario it ran (layout, jobs, seed) and its outcome.
  ReplicationFigures figures_of(const Scenario& at, const SimulationOutcome& outcome) const;
  void judge(PlanRun& run) const;
  // A candidate's runs may stop once a headline figure is clearly on the failing side of a target
  // (output.stop_beyond): the bounds, relative targets at the reference's mean (none before it ran).
  std::map<std::string, FigureBounds> stop_bounds() const;
  // The direct-inference baselines the batch of (point, replication) jobs lacks, appended to `scenarios`;
  // returns (jobs, replication) of each appended one, in order.
  std::vector<std::pair<int, int>> add_baselines(const std::vector<std::pair<std::size_t, int>>& jobs,
                                                 std::vector<Scenario>& scenarios) const;

  Scenario scenario_;
  SimulateBatch simulate_;
  std::vector<PlanTarget> targets_;
  double indifference_ = 0.0;
  std::map<std::string, std::vector<std::string>> modules_by_group_;
  std::vector<std::string> modules_;
  double inferences_per_event_ = 0.0;
  // A target on a direct-inference figure: each replication is joined with the baseline of its jobs and seed
  // (the same jobs running every model on their CPUs), simulated once per (jobs, replication) since it does
  // not depend on the servers.
  bool needs_direct_ = false;
  std::map<std::pair<int, int>, RunSummary> baselines_;
  std::vector<RunPoint> points_; // points_[0]: the reference
  std::vector<PlanRun> runs_;
  int batches_ = 0;
  int simulations_ = 0;
};

// The interval of a figure over a run's replications.
ConfidenceInterval interval_of(const std::vector<ReplicationFigures>& replications, Figure figure);

} // namespace sonicsim::planning
