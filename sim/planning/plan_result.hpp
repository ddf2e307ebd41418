// What `sonicsim plan` found and how: the targets, the search space and what was held fixed, every
// confirming simulation with its replications, the answer (or the range the budget left) with its intervals,
// the runner-up device types and NICs, and the figures around the answer. Filled by the planner
// (sim/planning/planner.hpp), printed and written as JSON by plan_report.
#pragma once

#include "sim/metrics/confidence_interval.hpp"
#include "sim/metrics/figure_table.hpp"
#include "sim/metrics/run_figures.hpp"
#include "sim/planning/capacity_analysis.hpp"
#include "sim/planning/confident_search.hpp"
#include "sim/planning/plan_target.hpp"
#include "sim/planning/pod_layout.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim::planning {

// One replication's figures, read from its summary through the figure table (module figures: the
// accelerated modules).
struct ReplicationFigures {
  std::uint64_t seed = 0;
  std::map<Figure, double> values; // every figure of the table the run defines
  std::map<std::string, double>
      module_by_group;                    // multi-model plans: module_mean_s of the modules each group serves
  std::map<std::string, double> narrowed; // targets on one module ("module_p95_s:X"), by that name
  Bottleneck bottleneck;
  std::uint64_t events_failed = 0;
  std::string too_short; // the run missed the precision rule even extended: why (RunPrecision::shortfall)
  // The run stopped short of the rule, its figure clearly on a target's failing side (output.stop_beyond).
  std::string stopped_beyond;
  double wall_clock_s = 0.0;
  std::optional<double> value(Figure figure) const {
    const auto it = values.find(figure);
    return it == values.end() ? std::nullopt : std::optional<double>(it->second);
  }
};

// A target checked on a run: its replicated value (relative targets: each replication over the reference's
// replication with the same seed) and the decision.
struct TargetCheck {
  PlanTarget target;
  std::string scope; // "" or the group whose modules it is checked on (multi-model plans)
  ConfidenceInterval value;
  Decision decision = Decision::undecided;
  bool by_mean = false; // decided by the mean inside the indifference zone (plan_target.hpp)
};

// One simulated point of the search (a layout at a number of jobs) over its replications.
// What a run is for: the low-load reference the relative targets divide by, or a candidate of the search.
enum class RunRole { reference, candidate };
inline const char* run_role_name(RunRole role) {
  return role == RunRole::reference ? "reference" : "candidate";
}

struct PlanRun {
  RunRole role = RunRole::candidate;
  PodLayout layout;
  std::map<std::string, int> group_devices; // multi-model plans: devices of every group
  int jobs = 0;
  std::vector<ReplicationFigures> replications;
  std::vector<TargetCheck> checks;
  Decision decision = Decision::undecided; // all targets (that the search uses) met, one failed, or neither
  std::string error;                       // a failed run, or failed events
  // Replications too short for the precision rule: the run is undecided, however its intervals fall.
  std::string too_short;
  // Replications that stopped short of the rule, clearly failing a target (output.stop_beyond): how many,
  // why.
  std::string stopped_beyond;
  ConfidenceInterval module_mean_s, event_mean_s, events_per_s, gpu_utilisation;
  Bottleneck bottleneck;     // vote_bottleneck over the replications
  double wall_clock_s = 0.0; // all replications
};

// One (device type, pod NIC) combination searched, and its answer.
struct PlanOption {
  std::string device_type;
  double nic_bps = 0.0;
  bool found = false;
  std::string reason; // why not found, or why it lost to the chosen option
  PodLayout layout;   // the answer (fewest GPUs): the smallest layout that meets the targets
  // The range the confidence intervals alone cannot narrow (candidates left undecided when the replications
  // ran out, or decided by their mean inside the indifference zone); empty when it is the answer alone.
  std::optional<PodLayout> low, high;
  int jobs = 0;     // most jobs: the answer
  int jobs_low = 0; // most jobs: the range (== jobs when decided by the intervals)
  int jobs_high = 0;
  // most jobs, not found: every count simulated up to this one met the targets and none above was tried
  // (the search's ceiling), so the answer is "at least" this many; 0 otherwise.
  int at_least_jobs = 0;
  // fewest GPUs, not found: the grid's first layout meets, and so does one GPU fewer outside the grid, so
  // the answer is "at most" this many; 0 otherwise.
  int at_most_gpus = 0;
  // fewest GPUs, not found: left unsized because no layout from `at_least_gpus` up could beat the best
  // option found (the reason says by how much); `cost_at_least_usd_per_event` when both are priced.
  bool left_unsized = false;
  int at_least_gpus = 0;
  std::optional<double> cost_at_least_usd_per_event;
  // How the analytic estimate that started the search was made: the targets the MVA predicts, or the
  // module target when it predicts none of them.
  std::string estimate_basis;
  std::optional<ConfidenceInterval> cost_usd_per_event;
  PodLayout analytic_layout;
  int analytic_jobs = 0;
  // The layout the MVA chooses with this pod NIC ten times faster: when it has fewer GPUs, the NIC decided.
  std::optional<PodLayout> analytic_layout_fast_nic;
  // The assumed and calibrated values this option rests on (its device type's curve among them): an option
  // compared with another is only as good as what each assumes.
  std::vector<Provenance> assumptions;
};

// A multi-model plan: the devices of one group (one model, or the models it serves).
struct GroupPlan {
  std::string group;
  std::string device_type;
  std::vector<std::string> modules; // the modules whose time the targets check
  int start_devices = 0;            // the scenario's count, where the search starts
  int devices = 0;                  // the smallest count confirmed
  int devices_low = 0;              // the bottom of the range (== devices when decided)
  int devices_per_pod = 1;
  bool found = false;
  std::string reason;
};

// A module that several groups serve together (its model deployed over all their pods). A per-group plan
// sizes one group at a time with the others held, so the groups' split of such a module is where that search
// stopped: one of the splits that meet the targets, not the only one, nor always the fewest devices in all.
struct SharedModule {
  std::string module;
  std::vector<std::string> groups;
};
std::vector<SharedModule> shared_modules(const std::vector<GroupPlan>& groups);
// How the terminal and the report say it.
std::string shared_module_text(const SharedModule& shared);

struct Plan {
  enum class Mode { fewest_gpus, most_jobs, per_group };
  Mode mode = Mode::fewest_gpus;
  std::string scenario;
  std::string variant; // empty: the scenario itself
  std::uint64_t seed = 1;
  std::vector<PlanTarget> targets;
  int max_gpus_per_pod = 8;
  std::string layout_rule;
  int requested = 0; // jobs (fewest_gpus, per_group) or GPUs (most_jobs)
  int replications = 3;
  int max_replications = 10;
  double indifference = 0.01;
  // The precision rule the plan's simulations were held to, and the scenario's own (output.precision).
  double run_precision = 0.0;
  double scenario_precision = 0.0;
  std::vector<std::string> searched;   // the axes searched, in words
  std::vector<std::string> held_fixed; // resources not searched, with their values

  double analytic_module_low_load_s = 0.0;
  PodLayout analytic_layout;
  int analytic_jobs = 0;
  int job_step = 1;    // most_jobs: the resolution of the job search
  int job_ceiling = 0; // most_jobs: the largest count the search could try (--max-jobs or from the estimate)
  std::string estimate_basis; // most_jobs: what the analytic estimate was made for (PlanOption)
  int at_least_jobs = 0;      // most_jobs, not found: the bound the ceiling left (PlanOption)
  int at_most_gpus = 0;       // fewest_gpus, not found: the bound the grid's edge left (PlanOption)

  std::vector<PlanRun> references; // one per option searched (the first is the chosen option's)
  std::vector<PlanRun> runs;       // every confirming run, in the order they ran
  int batches = 0;
  int simulations = 0;

  std::vector<PlanOption> options; // every (device type, NIC) searched; `chosen` indexes it
  std::size_t chosen = 0;
  std::vector<GroupPlan> groups; // per_group mode

  bool found = false;
  bool impossible = false;       // no layout can meet the targets (the resource is in not_found_reason)
  bool budget_exhausted = false; // the answer is a range
  std::string not_found_reason;
  PodLayout layout; // the answer (fewest_gpus: the top of the range) or the given GPUs
  std::optional<PodLayout> layout_low, layout_high; // the range the intervals cannot narrow (see PlanOption)
  int jobs = 0;                                     // the given jobs (fewest_gpus) or the answer (most_jobs)
  int jobs_low = 0, jobs_high = 0;                  // most_jobs: the range the intervals cannot narrow
  LayoutAnalysis analysis;                          // of the answer's layout (one planned group)
  // per_group: every station of the answer's deployment (each group's devices and hosts, the links) with the
  // jobs at which it is full, first to saturate first (station_limits).
  std::vector<ResourceLimit> station_saturation;
  std::optional<PlanRun> answer_run;
  std::optional<PlanRun> first_failing; // the neighbour that failed: what saturated
  PlanRun reference;                    // the chosen option's
  ConfidenceInterval ratio_simulated;
  // Sizing at the knee instead of within the targets: jobs / ratio GPUs (fewest_gpus) or ratio x GPUs jobs
  // (most_jobs), from the simulated ratio of each replication.
  ConfidenceInterval knee_sizing;
  std::optional<ConfidenceInterval> cost_usd_per_event;
  std::optional<CostBill> bill; // at the answer's mean events/s, from the scenario's prices
  // The assumed values the answer rests on (the scenario's provenance:, on the answer's device types).
  std::vector<Provenance> assumptions;
  bool default_target = false; // no --target given: module_mean_s within --tolerance
};

} // namespace sonicsim::planning
