#include "sim/planning/plan_runs.hpp"

#include "sim/metrics/direct_baseline.hpp"
#include "sim/random/replication_seed.hpp"
#include "sim/scenario/input_error.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace sonicsim::planning {

ConfidenceInterval interval_of(const std::vector<ReplicationFigures>& replications, Figure figure) {
  std::vector<double> values;
  for (const auto& r : replications)
    if (const auto value = r.value(figure)) values.push_back(*value);
  return aggregate(values);
}

PlanRuns::PlanRuns(Scenario scenario, SimulateBatch simulate, std::vector<PlanTarget> targets,
                   double indifference, std::map<std::string, std::vector<std::string>> modules_by_group,
                   std::vector<std::string> modules, double inferences_per_event)
    : scenario_(std::move(scenario)), simulate_(std::move(simulate)), targets_(std::move(targets)),
      indifference_(indifference), modules_by_group_(std::move(modules_by_group)),
      modules_(std::move(modules)), inferences_per_event_(inferences_per_event) {
  for (const auto& target : targets_)
    needs_direct_ = needs_direct_ || target.figure.figure == Figure::direct_events_per_s_per_job ||
                    target.figure.figure == Figure::direct_inference_gain;
  // Refused before any run: a target on a figure no run of this plan could measure.
  if (needs_direct_ && !direct_inference_baseline(scenario_))
    throw InputError(scenario_.source_file +
                     ": a target on a direct-inference figure needs every remote_inference module's direct "
                     "time (`direct:`), a served model and no campaign: the plan measures it by simulating "
                     "the same jobs with every model on their CPUs");
}

std::vector<std::pair<int, int>> PlanRuns::add_baselines(const std::vector<std::pair<std::size_t, int>>& jobs,
                                                         std::vector<Scenario>& scenarios) const {
  std::vector<std::pair<int, int>> added;
  if (!needs_direct_) return added;
  for (const auto& [k, r] : jobs) {
    const std::pair<int, int> key{points_[k].jobs, r};
    if (baselines_.count(key) || std::find(added.begin(), added.end(), key) != added.end()) continue;
    // Any layout gives the same baseline: the jobs call no server.
    scenarios.push_back(
        *direct_inference_baseline(scenario_at(points_[k], replication_seed(scenario_.seed, r))));
    added.push_back(key);
  }
  return added;
}

Scenario PlanRuns::scenario_at(const RunPoint& point, std::uint64_t seed) const {
  Scenario s = scenario_;
  if (point.group_devices.empty()) {
    s = with_layout(std::move(s), point.layout);
  } else {
    for (auto& group : s.platform.server_groups) {
      const auto it = point.group_devices.find(group.name);
      if (it == point.group_devices.end()) continue;
      // The group keeps its VM shape (at most its devices per pod); a count that its pod size does not divide
      // takes equal pods of fewer devices (layout_for_gpus).
      const auto layout = layout_for_gpus(it->second, 1, group.devices_per_pod);
      group.pods = layout->pods;
      group.devices_per_pod = layout->gpus_per_pod;
    }
  }
  s.workload.jobs = point.jobs;
  s.seed = seed;
  return s;
}

void PlanRuns::add(const RunPoint& point, RunRole role) {
  points_.push_back(point);
  PlanRun run;
  run.role = role;
  run.layout = point.layout;
  run.group_devices = point.group_devices;
  run.jobs = point.jobs;
  runs_.push_back(run);
}

void PlanRuns::set_reference(const RunPoint& point) {
  if (!points_.empty()) throw std::logic_error("PlanRuns: the reference is set once");
  add(point, RunRole::reference);
}

int PlanRuns::replications_of(const RunPoint& point) const {
  const auto* run = find(point);
  return run ? static_cast<int>(run->replications.size()) : 0;
}

const PlanRun* PlanRuns::find(const RunPoint& point) const {
  for (std::size_t k = 1; k < points_.size(); ++k)
    if (points_[k] == point) return &runs_[k];
  return nullptr;
}

std::vector<PlanRun> PlanRuns::candidates() const {
  return std::vector<PlanRun>(runs_.begin() + 1, runs_.end());
}

ReplicationFigures PlanRuns::figures_of(const Scenario& at, const SimulationOutcome& outcome) const {
  ReplicationFigures f;
  f.seed = at.seed;
  f.wall_clock_s = outcome.wall_clock_s;
  const RunSummary& s = outcome.summary;
  const FigureContext context{modules_, &at, inferences_per_event_};
  for (const auto& spec : figure_table())
    if (const auto value = value_of(spec.figure, s, context)) f.values[spec.figure] = *value;
  for (const auto& [group, modules] : modules_by_group_)
    f.module_by_group[group] =
        value_of(Figure::module_mean_s, s, FigureContext{modules, &at, inferences_per_event_}).value_or(0.0);
  for (const auto& target : targets_)
    if (!target.figure.module.empty())
      if (const auto value =
              value_of(target.figure.figure, s, FigureContext{{target.figure.module}, &at, 0.0}))
        f.narrowed[target.figure.text()] = *value;
  f.bottleneck = s.bottleneck;
  f.events_failed = s.events_failed;
  if (s.precision.too_short()) f.too_short = s.precision.shortfall();
  f.stopped_beyond = s.precision.stopped_beyond;
  return f;
}

std::vector<PlanRun> PlanRuns::ensure(const std::vector<std::pair<RunPoint, int>>& wanted,
                                      int reference_replications) {
  if (points_.empty()) throw std::logic_error("PlanRuns: no reference");
  std::vector<std::size_t> indices;
  int most = reference_replications;
  for (const auto& [point, replications] : wanted) {
    std::size_t k = 1;
    while (k < points_.size() && !(points_[k] == point))
      ++k;
    if (k == points_.size()) add(point, RunRole::candidate);
    indices.push_back(k);
    most = std::max(most, replications);
  }
  // What to simulate: (run index, replication number).
  std::vector<std::pair<std::size_t, int>> jobs;
  for (int r = static_cast<int>(runs_[0].replications.size()); r < most; ++r)
    jobs.emplace_back(0, r);
  for (std::size_t w = 0; w < wanted.size(); ++w) {
    const std::size_t k = indices[w];
    int have = static_cast<int>(runs_[k].replications.size());
    for (const auto& [index, r] : jobs)
      if (index == k) have = std::max(have, r + 1);
    for (int r = have; r < wanted[w].second; ++r)
      jobs.emplace_back(k, r);
  }
  if (!jobs.empty()) {
    std::vector<Scenario> scenarios;
    const auto bounds = stop_bounds();
    for (const auto& [k, r] : jobs) {
      scenarios.push_back(scenario_at(points_[k], replication_seed(scenario_.seed, r)));
      if (k > 0) scenarios.back().output.stop_beyond = bounds;
    }
    const auto baselines = add_baselines(jobs, scenarios);
    const auto outcomes = simulate_(scenarios);
    ++batches_;
    simulations_ += static_cast<int>(scenarios.size());
    for (std::size_t b = 0; b < baselines.size(); ++b) {
      const auto& outcome = outcomes[jobs.size() + b];
      if (!outcome.ok) throw std::runtime_error("a direct-inference baseline failed: " + outcome.error);
      baselines_[baselines[b]] = outcome.summary;
    }
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      PlanRun& run = runs_[jobs[j].first];
      if (!outcomes[j].ok) {
        const std::string what = run.role == RunRole::reference ? "the reference run" : "a confirming run";
        throw std::runtime_error(what + " failed: " + outcomes[j].error);
      }
      SimulationOutcome outcome = outcomes[j];
      if (needs_direct_)
        compare_with_direct(outcome.summary, baselines_.at({points_[jobs[j].first].jobs, jobs[j].second}));
      run.replications.push_back(figures_of(scenarios[j], outcome));
      run.wall_clock_s += outcomes[j].wall_clock_s;
    }
  }
  std::vector<PlanRun> out;
  judge(runs_[0]);
  for (const std::size_t k : indices) {
    judge(runs_[k]);
    out.push_back(runs_[k]);
  }
  return out;
}

std::map<std::string, FigureBounds> PlanRuns::stop_bounds() const {
  std::map<std::string, FigureBounds> bounds;
  for (const auto& target : targets_) {
    const Figure figure = target.figure.figure;
    if (!target.figure.module.empty()) continue;
    // The rule's module figure is the served modules' time per event: the plan's module figure only when one
    // module is accelerated (and not a group's share of several).
    if (figure == Figure::module_mean_s && (modules_.size() != 1 || !modules_by_group_.empty())) continue;
    if (figure != Figure::module_mean_s && figure != Figure::event_mean_s && figure != Figure::events_per_s &&
        figure != Figure::gpu_utilisation)
      continue;
    double limit = target.limit;
    if (target.relative) {
      const auto reference = interval_of(runs_.front().replications, figure);
      if (reference.n == 0 || !(reference.mean > 0.0)) continue;
      limit *= reference.mean;
    }
    FigureBounds& b = bounds[spec_of(figure).name];
    if (target.at_most)
      b.above = b.above ? std::min(*b.above, limit) : limit;
    else
      b.below = b.below ? std::max(*b.below, limit) : limit;
  }
  return bounds;
}

namespace {

// How many replications carry a note (too short, stopped beyond a bound), and the last such note.
std::pair<int, std::string> noted(const std::vector<ReplicationFigures>& replications,
                                  std::string ReplicationFigures::*note) {
  std::pair<int, std::string> out{0, ""};
  for (const auto& r : replications)
    if (!(r.*note).empty()) {
      ++out.first;
      out.second = r.*note;
    }
  return out;
}

// A run's figures over its replications, the bottleneck they vote for, and the events that failed in them
// (returned; said in `error`).
std::uint64_t summarise_replications(PlanRun& run) {
  run.module_mean_s = interval_of(run.replications, Figure::module_mean_s);
  run.event_mean_s = interval_of(run.replications, Figure::event_mean_s);
  run.events_per_s = interval_of(run.replications, Figure::events_per_s);
  run.gpu_utilisation = interval_of(run.replications, Figure::gpu_utilisation);
  std::vector<Bottleneck> bottlenecks;
  for (const auto& r : run.replications)
    bottlenecks.push_back(r.bottleneck);
  run.bottleneck = vote_bottleneck(bottlenecks).bottleneck;
  std::uint64_t failed = 0;
  for (const auto& r : run.replications)
    failed += r.events_failed;
  run.error = failed > 0 ? std::to_string(failed) + " events failed over the replications" : "";
  return failed;
}

} // namespace

void PlanRuns::judge(PlanRun& run) const {
  const std::uint64_t failed = summarise_replications(run);
  run.checks.clear();
  const PlanRun& reference = runs_.front();
  std::vector<std::string> scopes{""};
  if (!modules_by_group_.empty()) {
    scopes.clear();
    for (const auto& entry : modules_by_group_)
      scopes.push_back(entry.first);
  }
  bool any_no = failed > 0, all_yes = true;
  for (const auto& target : targets_) {
    const Figure figure = target.figure.figure;
    const bool per_group =
        figure == Figure::module_mean_s && target.figure.module.empty() && !modules_by_group_.empty();
    for (const auto& scope : per_group ? scopes : std::vector<std::string>{""}) {
      TargetCheck check;
      check.target = target;
      check.scope = scope;
      // The figure in one replication: a group's modules, or the figure as the table defines it.
      auto value_in = [&](const ReplicationFigures& f) -> std::optional<double> {
        if (!scope.empty()) return f.module_by_group.at(scope);
        if (!target.figure.module.empty()) {
          const auto it = f.narrowed.find(target.figure.text());
          return it == f.narrowed.end() ? std::nullopt : std::optional<double>(it->second);
        }
        return f.value(figure);
      };
      std::vector<double> values;
      const std::size_t n = target.relative ? std::min(run.replications.size(), reference.replications.size())
                                            : run.replications.size();
      for (std::size_t r = 0; r < n; ++r) {
        const auto value = value_in(run.replications[r]);
        if (!value) continue;
        if (!target.relative) {
          values.push_back(*value);
          continue;
        }
        // Paired with the reference's replication of the same seed (n keeps r within it).
        const auto ref = value_in(reference.replications[r]);
        values.push_back(ref && *ref > 0.0 ? *value / *ref : 0.0);
      }
      check.value = aggregate(values);
      check.decision =
          values.empty() ? Decision::undecided : decide(target, check.value, indifference_, &check.by_mean);
      if (monotone_in_devices(target)) {
        any_no = any_no || check.decision == Decision::no;
        all_yes = all_yes && check.decision == Decision::yes;
      }
      run.checks.push_back(check);
    }
  }
  run.decision = any_no ? Decision::no : (all_yes ? Decision::yes : Decision::undecided);
  // Replications that stopped short of the rule with their figure clearly failing: evidence, said so.
  const auto [stopped, beyond] = noted(run.replications, &ReplicationFigures::stopped_beyond);
  run.stopped_beyond.clear();
  if (stopped > 0)
    run.stopped_beyond =
        std::to_string(stopped) + " of " + std::to_string(run.replications.size()) +
        " replications stopped at the precision rule's first check, clearly failing: " + beyond;
  // A replication too short for its figures is not evidence either way (failed events still are).
  const auto [too_short, why] = noted(run.replications, &ReplicationFigures::too_short);
  run.too_short.clear();
  if (too_short > 0) {
    run.too_short = std::to_string(too_short) + " of " + std::to_string(run.replications.size()) +
                    " replications too short for output.precision even extended (" + why +
                    "): raise workload.events_per_job or output.max_extension";
    if (failed == 0) run.decision = Decision::undecided;
  }
}

} // namespace sonicsim::planning
