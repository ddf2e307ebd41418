#include "sim/planning/planner.hpp"

#include "sim/analysis/analytic_curve.hpp"
#include "sim/planning/boundary_search.hpp"
#include "sim/scenario/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <utility>

namespace sonicsim::planning {

class Planner::Search {
public:
  Search(PlannerSettings settings, Scenario scenario, SimulateBatch simulate)
      : settings_(std::move(settings)), scenario_(std::move(scenario)), simulate_(std::move(simulate)) {
    const auto parameters = analysis::derive_parameters(scenario_);
    modules_ = parameters.accelerated_modules;
    inferences_per_event_ = parameters.inferences;
    plan_.scenario = scenario_.name;
    plan_.variant = settings_.variant;
    plan_.tolerance = settings_.tolerance;
    plan_.max_gpus_per_pod = settings_.max_gpus_per_pod;
  }

  Plan fewest_gpus(int jobs) {
    plan_.mode = Plan::Mode::fewest_gpus;
    plan_.requested = jobs;
    plan_.jobs = jobs;
    const auto one_gpu = analyse_layout(scenario_, PodLayout{1, 1});
    check_fixed_network(one_gpu, jobs);
    const int min_pods = pods_for_network(one_gpu, jobs, saturation_threshold);
    plan_.layout_rule = layout_rule(settings_.max_gpus_per_pod, min_pods);
    const auto layouts = candidate_layouts(min_pods, settings_.max_gpus_per_pod, settings_.max_gpus);
    if (layouts.empty())
      throw InputError("no layout of at most " + std::to_string(settings_.max_gpus) + " GPUs has the " +
                       std::to_string(min_pods) + " pods the pod NICs need for " + std::to_string(jobs) +
                       " jobs; raise --max-gpus");
    // Analytic bracket: the first layout whose MVA module time at `jobs` is within tolerance.
    plan_.analytic_module_low_load_s = one_gpu.module_low_load_s;
    std::size_t start = layouts.size() - 1;
    for (std::size_t i = 0; i < layouts.size(); ++i) {
      if (analyse_layout(scenario_, layouts[i]).first().jobs_at_saturation <
          jobs * bracket_min_capacity_fraction)
        continue;
      if (mva_module_s(scenario_, layouts[i], jobs) <=
          (1.0 + settings_.tolerance) * plan_.analytic_module_low_load_s) {
        start = i;
        break;
      }
    }
    plan_.analytic_layout = layouts[start];
    const PodLayout roomy = layouts[std::min(start + 1, layouts.size() - 1)];
    const int reference_jobs =
        reference_job_count(jobs, analyse_layout(scenario_, roomy).first().jobs_at_saturation);

    auto evaluate = [&](const std::vector<int>& indices) {
      std::vector<std::pair<PodLayout, int>> points;
      for (const int i : indices)
        points.emplace_back(layouts[static_cast<std::size_t>(i)], jobs);
      const auto runs = run_points(points, roomy, reference_jobs);
      std::vector<bool> within;
      for (const auto& run : runs)
        within.push_back(run.within_tolerance);
      return within;
    };
    const auto search = find_first_true(0, static_cast<int>(layouts.size()) - 1, static_cast<int>(start),
                                        settings_.parallel, evaluate);
    plan_.batches = search.batches;
    if (!search.first_true) {
      plan_.not_found_reason = "no layout of up to " + std::to_string(layouts.back().gpus()) +
                               " GPUs keeps the module within tolerance at " + std::to_string(jobs) +
                               " jobs (the last run's bottleneck: " + plan_.runs.back().bottleneck +
                               "); raise --max-gpus or the tolerance";
      return plan_;
    }
    plan_.found = true;
    plan_.layout = layouts[static_cast<std::size_t>(*search.first_true)];
    plan_.answer_run = find_run(plan_.layout, jobs);
    if (*search.first_true > 0)
      plan_.first_failing = find_run(layouts[static_cast<std::size_t>(*search.first_true - 1)], jobs);
    finish();
    return plan_;
  }

  Plan most_jobs(int gpus) {
    plan_.mode = Plan::Mode::most_jobs;
    plan_.requested = gpus;
    auto layout = layout_for_gpus(gpus, 1, settings_.max_gpus_per_pod);
    auto analysis = analyse_layout(scenario_, *layout);
    int estimate = analytic_most_jobs(*layout, analysis);
    // Enough pods that their NICs do not stop the GPUs short, when the GPUs can be split that far.
    const int min_pods = pods_for_network(analysis, estimate, saturation_threshold);
    if (min_pods > layout->pods) {
      layout = layout_for_gpus(gpus, std::min(min_pods, gpus), settings_.max_gpus_per_pod);
      analysis = analyse_layout(scenario_, *layout);
      estimate = analytic_most_jobs(*layout, analysis);
    }
    plan_.layout_rule = layout_rule(settings_.max_gpus_per_pod, layout->pods);
    plan_.layout = *layout;
    plan_.analytic_layout = *layout;
    plan_.analytic_jobs = estimate;
    plan_.analytic_module_low_load_s = analysis.module_low_load_s;
    const int step = std::max(1, static_cast<int>(std::lround(job_grid_fraction * estimate)));
    plan_.job_step = step;
    const int reference_jobs = reference_job_count(estimate, analysis.first().jobs_at_saturation);
    auto evaluate = [&](const std::vector<int>& indices) {
      std::vector<std::pair<PodLayout, int>> points;
      for (const int k : indices)
        points.emplace_back(*layout, k * step);
      const auto runs = run_points(points, *layout, reference_jobs);
      std::vector<bool> failing;
      for (const auto& run : runs)
        failing.push_back(!run.within_tolerance);
      return failing;
    };
    const int last = static_cast<int>(std::ceil(job_search_ceiling * estimate / step)) + 2;
    const auto search = find_first_true(1, last, estimate / step + 1, settings_.parallel, evaluate);
    plan_.batches = search.batches;
    if (search.first_true && *search.first_true == 1) {
      plan_.not_found_reason = "even " + std::to_string(step) + " jobs take the module beyond tolerance";
      return plan_;
    }
    plan_.found = true;
    plan_.jobs = search.first_true ? (*search.first_true - 1) * step : last * step;
    plan_.answer_run = find_run(*layout, plan_.jobs);
    if (search.first_true) plan_.first_failing = find_run(*layout, *search.first_true * step);
    finish();
    return plan_;
  }

private:
  static int reference_job_count(int jobs, double knee_jobs) {
    const int tenth = static_cast<int>(std::lround(reference_load_fraction * knee_jobs));
    return std::max(1, std::min(jobs, std::max(min_reference_jobs, tenth)));
  }

  // A link the pods cannot relieve (site switch, WAN) full before the jobs fit: no number of GPUs helps.
  void check_fixed_network(const LayoutAnalysis& analysis, int jobs) const {
    const auto& fixed = fixed_network_limit(analysis);
    const double usable_jobs = saturation_threshold * fixed.jobs_at_saturation;
    if (jobs <= usable_jobs) return;
    char text[512];
    std::snprintf(
        text, sizeof text,
        "impossible target: the %s (%s) saturates first: %d jobs at %.3g Gb/event every %.4g s need "
        "%.3g Gb/s, but it fills at %.0f jobs (%.0f %% busy at %.0f), so no number of GPUs serves "
        "%d jobs; give the network more capacity, compress the inputs or plan for fewer jobs",
        fixed.resource.c_str(), fixed.capacity.c_str(), jobs,
        analysis.job_traffic_bps * analysis.t_ideal_s / 1e9, analysis.t_ideal_s,
        jobs * analysis.job_traffic_bps / 1e9, fixed.jobs_at_saturation, saturation_threshold * 100.0,
        usable_jobs, jobs);
    throw InputError(text);
  }

  int analytic_most_jobs(const PodLayout& layout, const LayoutAnalysis& analysis) const {
    const auto parameters = analysis::derive_parameters(with_layout(scenario_, layout));
    const int limit = static_cast<int>(std::ceil(mva_curve_extent * analysis.first().jobs_at_saturation)) + 2;
    std::vector<int> counts;
    for (int n = 1; n <= limit; ++n)
      counts.push_back(n);
    const auto curve = analysis::analytic_curve(parameters, counts);
    int best = 1;
    for (const auto& point : curve)
      if (point.mva_module_s <= (1.0 + settings_.tolerance) * curve.front().mva_module_s) best = point.jobs;
    const double network_jobs = saturation_threshold * analysis.network_limit().jobs_at_saturation;
    return std::max(1, std::min(best, static_cast<int>(network_jobs)));
  }

  // Simulates the points (and the reference, the first time) in one parallel batch.
  std::vector<PlanRun> run_points(const std::vector<std::pair<PodLayout, int>>& points,
                                  const PodLayout& roomy, int reference_jobs) {
    std::vector<Scenario> scenarios;
    const bool with_reference = !plan_.reference.ok && plan_.reference.jobs == 0;
    if (with_reference) scenarios.push_back(at(roomy, reference_jobs));
    for (const auto& [layout, jobs] : points)
      scenarios.push_back(at(layout, jobs));
    const auto outcomes = simulate_(scenarios);
    std::size_t k = 0;
    if (with_reference) {
      plan_.reference = to_run("reference", roomy, reference_jobs, outcomes[k++]);
      if (!plan_.reference.ok) throw std::runtime_error("the reference run failed: " + plan_.reference.error);
      plan_.reference.module_over_reference = 1.0;
      plan_.reference.within_tolerance = true;
    }
    std::vector<PlanRun> runs;
    for (const auto& [layout, jobs] : points) {
      PlanRun run = to_run("candidate", layout, jobs, outcomes[k++]);
      if (!run.ok) throw std::runtime_error("a confirming run failed: " + run.error);
      run.module_over_reference = run.module_s / plan_.reference.module_s;
      // Failed events (rejections) mean the server could not serve the load at all.
      run.within_tolerance = run.error.empty() && run.module_over_reference <= 1.0 + settings_.tolerance;
      plan_.runs.push_back(run);
      runs.push_back(run);
    }
    return runs;
  }

  Scenario at(const PodLayout& layout, int jobs) const {
    Scenario s = with_layout(scenario_, layout);
    s.workload.jobs = jobs;
    return s;
  }

  PlanRun to_run(const std::string& role, const PodLayout& layout, int jobs,
                 const SimulationOutcome& outcome) {
    PlanRun run;
    run.role = role;
    run.layout = layout;
    run.jobs = jobs;
    run.ok = outcome.ok;
    run.error = outcome.error;
    run.wall_clock_s = outcome.wall_clock_s;
    if (!outcome.ok) return run;
    const RunSummary& s = outcome.summary;
    run.module_s = accelerated_module_s(s, modules_);
    run.event_s = s.event.mean_s;
    run.events_per_s = s.events_per_s;
    run.gpu_utilisation = s.gpu_utilisation;
    run.gpu_s_per_event = gpu_seconds_per_event(s, inferences_per_event_);
    run.bottleneck = s.bottleneck;
    run.bottleneck_utilisation = s.bottleneck_utilisation;
    if (s.events_failed > 0) run.error = std::to_string(s.events_failed) + " events failed";
    return run;
  }

  std::optional<PlanRun> find_run(const PodLayout& layout, int jobs) const {
    for (const auto& run : plan_.runs)
      if (run.layout.gpus() == layout.gpus() && run.layout.pods == layout.pods && run.jobs == jobs)
        return run;
    return std::nullopt;
  }

  void finish() {
    plan_.analysis = analyse_layout(scenario_, plan_.layout);
    if (plan_.answer_run) {
      plan_.ratio_simulated = cpu_gpu_ratio(plan_.reference.event_s, plan_.answer_run->gpu_s_per_event);
      plan_.knee_sizing = plan_.mode == Plan::Mode::fewest_gpus
                              ? std::ceil(plan_.jobs / plan_.ratio_simulated)
                              : std::floor(plan_.ratio_simulated * plan_.layout.gpus());
      plan_.cost = cost_per_event(scenario_, plan_.layout.gpus(), plan_.jobs, plan_.answer_run->events_per_s);
    }
  }

  const PlannerSettings settings_;
  Scenario scenario_;
  SimulateBatch simulate_;
  std::vector<std::string> modules_;
  double inferences_per_event_ = 0.0;
  Plan plan_;
};

Planner::Planner(PlannerSettings settings, Scenario scenario, SimulateBatch simulate)
    : search_(std::make_unique<Search>(std::move(settings), std::move(scenario), std::move(simulate))) {}

Planner::~Planner() = default;

Plan Planner::fewest_gpus(int jobs) {
  return search_->fewest_gpus(jobs);
}

Plan Planner::most_jobs(int gpus) {
  return search_->most_jobs(gpus);
}

} // namespace sonicsim::planning
