// The planner's search (planner.hpp), shared by the files that hold it: the common steps in planner.cpp, and
// one file per mode (planner_fewest.cpp, planner_most_jobs.cpp, planner_per_group.cpp). Internal to
// sim/planning.
#pragma once

#include "sim/planning/planner.hpp"

#include "sim/analysis/analytic_curve.hpp"
#include "sim/metrics/number_text.hpp"
#include "sim/planning/confident_search.hpp"
#include "sim/scenario/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>

namespace sonicsim::planning {

// A run's decision by the confidence intervals alone: a decision taken by the mean inside the indifference
// zone counts as undecided here. The range an answer is reported with comes from these.
Decision strict_decision(const PlanRun& run);

// The precision rule of the plan's simulations: the settings' own, or plan_precision_factor x the scenario's.
inline double plan_run_precision(const PlannerSettings& settings, double scenario_precision) {
  if (settings.run_precision) return *settings.run_precision;
  return std::min(0.5, plan_precision_factor * scenario_precision);
}

// The first number of replications, and the next when a candidate is undecided.
inline int next_replications(int have, int first, int most) {
  return have == 0 ? first : std::min(most, have + first);
}

// One (device type, pod NIC) searched: its option, its runs and what the answer needs for the report.
struct OptionSearch {
  PlanOption option;
  std::optional<PlanRuns> runs;
  std::optional<PlanRun> answer_run, first_failing;
  bool impossible = false;
  bool budget_exhausted = false;
  int job_step = 1;
  int ceiling_jobs = 0; // most jobs: the largest count the search could try
};

class Planner::Search {
public:
  Search(PlannerSettings settings, Scenario scenario, SimulateBatch simulate)
      : settings_(std::move(settings)), scenario_(std::move(scenario)), simulate_(std::move(simulate)) {
    if (settings_.targets.empty()) settings_.targets.push_back(relative_module_target(0.10));
    if (settings_.max_replications < settings_.replications)
      settings_.max_replications = settings_.replications;
    const auto parameters = analysis::derive_parameters(scenario_);
    modules_ = parameters.accelerated_modules;
    inferences_per_event_ = parameters.inferences;
    plan_.scenario = scenario_.name;
    plan_.variant = settings_.variant;
    plan_.seed = scenario_.seed;
    plan_.targets = settings_.targets;
    plan_.max_gpus_per_pod = settings_.max_gpus_per_pod;
    plan_.replications = settings_.replications;
    plan_.max_replications = settings_.max_replications;
    plan_.indifference = settings_.indifference;
    plan_.scenario_precision = scenario_.output.precision_relative;
    scenario_.output.precision_relative = plan_run_precision(settings_, scenario_.output.precision_relative);
    plan_.run_precision = scenario_.output.precision_relative;
    for (const auto& target : settings_.targets)
      if (target.relative) bracket_tolerance_ = target.limit - 1.0;
  }

  Plan fewest_gpus(int jobs) {
    plan_.mode = Plan::Mode::fewest_gpus;
    plan_.requested = jobs;
    plan_.jobs = jobs;
    return search_options(
        [&](const std::string& type, double nic) { return search_fewest(type, nic, jobs); });
  }

  Plan most_jobs(int gpus) {
    plan_.mode = Plan::Mode::most_jobs;
    plan_.requested = gpus;
    return search_options(
        [&](const std::string& type, double nic) { return search_most_jobs(type, nic, gpus); });
  }

  Plan per_group(int jobs);
  // The plan with the runs behind it (the reference, the candidates, the batches and simulations).
  Plan with_evidence(const PlanRuns& runs) {
    plan_.references.push_back(runs.reference());
    plan_.runs = runs.candidates();
    plan_.batches = runs.batches();
    plan_.simulations = runs.simulations();
    return plan_;
  }
  // Returns at_answer, for the caller's next use of it.
  const Scenario& price_answer(const Scenario& at_answer);

private:
  // One search per (device type, pod NIC), then the best of them. The options keep the order they were
  // given in (a tie goes to the one listed first); they are searched in option_order's.
  template <typename SearchOne> Plan search_options(SearchOne search_one) {
    describe_space();
    std::vector<std::pair<std::string, double>> options;
    for (const auto& type : device_types())
      for (const double nic : nics())
        options.emplace_back(type, nic);
    options_total_ = static_cast<int>(options.size());
    std::vector<OptionSearch> searches(options.size());
    for (const std::size_t k : option_order(options)) {
      searches[k] = search_one(options[k].first, options[k].second);
      ++options_done_;
      if (searches[k].runs) finished_options_simulations_ += searches[k].runs->simulations();
      if (searches[k].option.found && (!best_found_ || better(searches[k], *best_found_)))
        best_found_ = &searches[k];
    }
    best_found_ = nullptr;
    return conclude(searches);
  }

  // The order options are searched in: with --jobs and several options, the cheapest by the MVA's layout
  // first (its devices' bill per hour, or its device count without prices), so that an option which cannot
  // beat the best found is seen to be so early (cannot_beat); otherwise as given.
  std::vector<std::size_t> option_order(const std::vector<std::pair<std::string, double>>& options) const;
  // An option's grid for --jobs: the one-GPU analysis, the pods its NICs need, the layouts searched and the
  // MVA's start among them. `refused`: the network refuses the jobs before any simulation; no layouts: none
  // within --max-gpus has the pods.
  struct OptionGrid {
    LayoutAnalysis one_gpu;
    std::string refused;
    int min_pods = 0;
    std::vector<PodLayout> layouts;
    std::size_t start = 0;
  };
  OptionGrid option_grid(const std::string& type, double nic, int jobs) const;
  // Why no layout of this option from `fewest` up can be chosen over `best` (planner_fewest.cpp), filling
  // the option's left_unsized fields; empty when one may.
  std::string cannot_beat(PlanOption& option, const PlanRun& reference, const PodLayout& fewest, int jobs,
                          const OptionSearch& best) const;

  const ServerGroup& group() const { return planned_group(scenario_); }
  std::string variants_with_curve(const std::string& model, const std::string& type) const;

  std::vector<std::string> device_types() const {
    return settings_.device_types.empty() ? std::vector<std::string>{group().device_type}
                                          : settings_.device_types;
  }
  std::vector<double> nics() const {
    return settings_.nics_bps.empty() ? std::vector<double>{group().nic_bandwidth_bps} : settings_.nics_bps;
  }

  void describe_space();

  static std::string curve_names(const Model& model);

  static int reference_job_count(int jobs, double knee_jobs) {
    const int tenth = static_cast<int>(std::lround(reference_load_fraction * knee_jobs));
    return std::max(1, std::min(jobs, std::max(min_reference_jobs, tenth)));
  }

  // A link the pods cannot relieve (site switch, WAN) full before the jobs fit: no number of GPUs helps.
  std::string fixed_network_reason(const LayoutAnalysis& analysis, int jobs) const;

  PlanRuns make_runs() const {
    return PlanRuns(scenario_, simulate_, settings_.targets, settings_.indifference, {}, modules_,
                    inferences_per_event_);
  }

  // Tells the command where the option's search stands (`open`: the range in words) and about how many
  // simulations follow the next batch: this option's likely later batches, then the options not yet
  // searched, each as many as the searched ones took (or as this one looks like taking).
  void tell_outlook(const SearchOutlook& outlook, const std::string& open, int simulations_so_far) const;
  void tell_group_outlook(const SearchOutlook& outlook, const std::string& group, int pass) const;

  // Judges candidate points: the first time with `replications`, then with more while undecided.
  std::vector<Judgement> judge_points(PlanRuns& runs, const std::vector<RunPoint>& points,
                                      bool true_when_failing);

  // A target no layout can meet, seen on the low-load reference: the reason, or empty.
  std::string impossible_reason(const PlanRun& reference, int jobs) const;

  // The first layout whose MVA module time at `jobs` is within the bracket tolerance.
  std::size_t analytic_start(const std::vector<PodLayout>& layouts, int jobs, double low_load_s) const;

  std::vector<PodLayout> layouts_for(const std::string& type, double nic, int min_pods) const;
  std::optional<PodLayout> analytic_layout_fast_nic(const std::string& type, double nic, int jobs) const;

  OptionSearch search_fewest(const std::string& type, double nic, int jobs);
  // Candidates judged at once by --jobs and --gpus: as many as the cores run with their first replications
  // (at least one). A per-group plan keeps one per core (planner_per_group.cpp).
  int candidates_per_batch() const {
    return std::max(1, settings_.parallel / std::max(1, settings_.replications));
  }
  // The first batch's neighbours of the analytic start on each side: 1 when the cores run the start and both
  // neighbours at once, else 0 (the start alone: it is usually the answer or next to it, and a neighbour not
  // needed is a candidate's replications for nothing).
  int first_radius() const { return settings_.parallel >= 3 * std::max(1, settings_.replications) ? 1 : 0; }
  SearchShape fewest_shape(OptionSearch& out, const PlanRuns& runs, const std::vector<PodLayout>& layouts,
                           int jobs) const;
  // plan --jobs: whether one GPU fewer than the grid's first layout fails (see planner_fewest.cpp).
  bool edge_neighbour_fails(OptionSearch& out, PlanRuns& runs, const PodLayout& first, int jobs);

  // The MVA's most jobs for the targets it predicts (--gpus), where the job search starts.
  struct JobEstimate {
    int jobs = 1;
    bool predicted = true; // every monotone target's figure is one the MVA predicts
    std::string basis;     // in words, for the plan's bracket line
  };
  JobEstimate analytic_most_jobs(const PodLayout& layout, const LayoutAnalysis& analysis) const;
  struct GpuLayout {
    PodLayout layout;
    LayoutAnalysis analysis;
    JobEstimate estimated;
  };
  GpuLayout layout_of_gpus(const std::string& type, double nic, int gpus) const;

  OptionSearch search_most_jobs(const std::string& type, double nic, int gpus);

  static std::optional<ConfidenceInterval> cost_interval(const PlanRun& run);

  static bool costs_differ(const OptionSearch& a, const OptionSearch& b) {
    const auto& x = a.option.cost_usd_per_event;
    const auto& y = b.option.cost_usd_per_event;
    return x && y && (x->high() < y->low() || y->high() < x->low());
  }

  // The better of two found options: cheaper per event when both have prices and their intervals do not
  // overlap, else fewer devices (fewest) or more jobs (most jobs); on a tie the one searched first (the
  // scenario's own device type and NIC come first in their lists when given).
  bool better(const OptionSearch& a, const OptionSearch& b) const {
    if (costs_differ(a, b)) return a.option.cost_usd_per_event->mean < b.option.cost_usd_per_event->mean;
    if (plan_.mode == Plan::Mode::most_jobs) return a.option.jobs > b.option.jobs;
    return a.option.layout.gpus() < b.option.layout.gpus();
  }

  Plan conclude(std::vector<OptionSearch>& searches);

  std::string why_lost(const OptionSearch& lost, const OptionSearch& chosen) const;

  void finish();

  PlannerSettings settings_;
  Scenario scenario_;
  SimulateBatch simulate_;
  std::vector<std::string> modules_;
  double inferences_per_event_ = 0.0;
  double bracket_tolerance_ = 0.10;
  Plan plan_;
  // For the outlook: the options (device type x pod NIC) to search, searched, and what those took.
  int options_total_ = 1, options_done_ = 0, finished_options_simulations_ = 0;
  // --jobs: the best option found so far while the options are searched.
  const OptionSearch* best_found_ = nullptr;
};

} // namespace sonicsim::planning
