// plan --gpus G: the most jobs G GPUs serve, on one device type and pod NIC.
#include "sim/planning/planner_search.hpp"

#include <functional>
#include <utility>

namespace sonicsim::planning {

namespace {

// The MVA's value of a target's figure at one point of the curve, or none when the MVA does not predict it.
std::optional<double> mva_value(const PlanTarget& target, const analysis::AnalyticPoint& point) {
  if (!target.figure.module.empty()) return std::nullopt; // one module of several: the MVA sums them
  switch (target.figure.figure) {
  case Figure::module_mean_s:
    return point.mva_module_s;
  case Figure::event_mean_s:
    return point.mva_event_s;
  case Figure::gpu_utilisation:
    return point.mva_gpu_utilisation;
  case Figure::events_per_s_per_job:
    return point.mva_events_per_s / point.jobs;
  default:
    return std::nullopt;
  }
}

bool meets(const PlanTarget& target, double value, double low_load) {
  const double limit = target.relative ? target.limit * low_load : target.limit;
  return target.at_most ? value <= limit : value >= limit;
}

} // namespace

Planner::Search::JobEstimate Planner::Search::analytic_most_jobs(const PodLayout& layout,
                                                                 const LayoutAnalysis& analysis) const {
  const auto parameters = analysis::derive_parameters(with_layout(scenario_, layout));
  const int limit = static_cast<int>(std::ceil(mva_curve_extent * analysis.first().jobs_at_saturation)) + 2;
  std::vector<int> counts;
  for (int n = 1; n <= limit; ++n)
    counts.push_back(n);
  const auto curve = analysis::analytic_curve(parameters, counts);
  // The targets the search decides on (those more jobs never help) whose figure the MVA predicts.
  std::vector<PlanTarget> predicted;
  std::vector<std::string> unpredicted;
  for (const auto& target : settings_.targets) {
    if (!monotone_in_devices(target)) continue;
    if (mva_value(target, curve.front()))
      predicted.push_back(target);
    else
      unpredicted.push_back(target.text);
  }
  JobEstimate out;
  out.predicted = unpredicted.empty();
  if (predicted.empty()) {
    predicted.push_back(relative_module_target(bracket_tolerance_));
    out.basis = "for " + predicted.back().text + ": the MVA does not predict " + unpredicted.front();
  } else {
    out.basis = "for " + predicted.front().text;
    for (std::size_t k = 1; k < predicted.size(); ++k)
      out.basis += ", " + predicted[k].text;
    if (!unpredicted.empty()) out.basis += " (the MVA does not predict " + unpredicted.front() + ")";
  }
  // The largest count below which every point meets every predicted target.
  int best = 1;
  for (const auto& point : curve) {
    bool all = true;
    for (const auto& target : predicted)
      all = all && meets(target, *mva_value(target, point), *mva_value(target, curve.front()));
    if (!all) break;
    best = point.jobs;
  }
  const double network_jobs =
      std::min(saturation_threshold * analysis.network_limit().jobs_at_saturation,
               settings_.max_link_load * fixed_network_limit(analysis).jobs_at_saturation);
  out.jobs = std::max(1, std::min(best, static_cast<int>(network_jobs)));
  return out;
}

namespace {

// The answer's range: from the highest index meeting by its interval to below the lowest failing by it.
std::pair<int, int> strict_job_range(const ConfidentSearch& search, int confirmed,
                                     const std::function<Decision(int)>& strict_at) {
  int low = confirmed, high = *search.first_true - 1;
  for (const auto& [index, decision] : search.decisions)
    if (index <= confirmed && strict_at(index) != Decision::yes) low = std::min(low, index - 1);
  for (const auto& [index, decision] : search.decisions)
    if (index > confirmed && strict_at(index) == Decision::no) {
      high = std::max(confirmed, index - 1);
      break;
    }
  return {std::max(0, low), high};
}

} // namespace

// G GPUs of `type` behind `nic` laid out with enough pods that their NICs do not stop the GPUs short, when
// the GPUs can be split that far; the analytic models' view of it and their most jobs.
Planner::Search::GpuLayout Planner::Search::layout_of_gpus(const std::string& type, double nic,
                                                           int gpus) const {
  auto layout = layout_for_gpus(gpus, 1, settings_.max_gpus_per_pod);
  layout->device_type = type;
  layout->nic_bps = nic;
  auto analysis = analyse_layout(scenario_, *layout);
  auto estimated = analytic_most_jobs(*layout, analysis);
  const int min_pods = pods_for_network(analysis, estimated.jobs, saturation_threshold);
  if (min_pods > layout->pods) {
    layout = layout_for_gpus(gpus, std::min(min_pods, gpus), settings_.max_gpus_per_pod);
    layout->device_type = type;
    layout->nic_bps = nic;
    analysis = analyse_layout(scenario_, *layout);
    estimated = analytic_most_jobs(*layout, analysis);
  }
  return {*layout, analysis, estimated};
}

OptionSearch Planner::Search::search_most_jobs(const std::string& type, double nic, int gpus) {
  OptionSearch out;
  out.option.device_type = type;
  out.option.nic_bps = nic;
  const auto [layout, analysis, estimated] = layout_of_gpus(type, nic, gpus);
  const int estimate = estimated.jobs;
  out.option.estimate_basis = estimated.basis;
  if (plan_.layout_rule.empty()) plan_.layout_rule = layout_rule(settings_.max_gpus_per_pod, layout.pods);
  if (plan_.analytic_module_low_load_s == 0.0) plan_.analytic_module_low_load_s = analysis.module_low_load_s;
  out.option.layout = layout;
  out.option.analytic_layout = layout;
  out.option.analytic_jobs = estimate;
  const int step = std::max(1, static_cast<int>(std::lround(job_grid_fraction * estimate)));
  out.job_step = step;
  out.runs.emplace(make_runs());
  PlanRuns& runs = *out.runs;
  runs.set_reference(
      RunPoint{layout, {}, reference_job_count(estimate, analysis.first().jobs_at_saturation)});
  runs.ensure({}, settings_.replications);
  if (const auto reason = impossible_reason(runs.reference(), estimate); !reason.empty()) {
    out.option.reason = reason;
    out.impossible = true;
    return out;
  }
  auto point = [&](int k) { return RunPoint{layout, {}, k * step}; };
  const double ceiling_factor = estimated.predicted ? job_search_ceiling : job_search_ceiling_unpredicted;
  const int ceiling_jobs = settings_.max_jobs > 0
                               ? std::max(settings_.max_jobs, step)
                               : static_cast<int>(std::ceil(ceiling_factor * estimate)) + 2 * step;
  const int last = std::max(1, ceiling_jobs / step);
  out.ceiling_jobs = last * step;
  // True = the targets fail: more jobs never help.
  const auto judge = [&](const std::vector<int>& indices) {
    std::vector<RunPoint> points;
    for (const int k : indices)
      points.push_back(point(k));
    return judge_points(runs, points, true);
  };
  // The answer is the highest index meeting the targets: one below the open range's ends.
  const auto tell = [&](const SearchOutlook& outlook) {
    tell_outlook(outlook,
                 type + ": " + std::to_string(std::max(1, outlook.open_low - 1) * step) + "-" +
                     std::to_string((outlook.open_high - 1) * step) + " jobs open",
                 runs.simulations());
  };
  SearchShape shape;
  shape.first_radius = first_radius();
  const auto search =
      find_first_true_confidently(1, last, estimate / step + 1, candidates_per_batch(), judge, tell, shape);
  out.budget_exhausted = search.budget_exhausted;
  const int confirmed = search.first_possible - 1; // the highest index known to meet
  if (confirmed < 1) {
    out.option.reason = "even " + std::to_string(step) + " jobs are not confirmed to meet the targets";
    return out;
  }
  if (!search.first_true) {
    // Nothing failed up to the ceiling: the answer lies above it, not at it. A bound, not an answer.
    out.option.at_least_jobs = confirmed * step;
    out.option.reason =
        "every count simulated up to " + std::to_string(confirmed * step) +
        " jobs meets the targets and the search's ceiling (" + std::to_string(last * step) + " jobs, " +
        (settings_.max_jobs > 0 ? std::string("--max-jobs")
                                : significant(ceiling_factor, 3) + " x the analytic estimate") +
        ") stopped it before any count failed: the answer is at least " + std::to_string(confirmed * step) +
        " jobs; raise --max-jobs to find it";
    return out;
  }
  out.option.found = true;
  out.option.jobs = confirmed * step;
  const auto [low, high] = strict_job_range(
      search, confirmed, [&](int index) { return strict_decision(*runs.find(point(index))); });
  out.option.jobs_low = low * step;
  out.option.jobs_high = high * step;
  out.answer_run = *runs.find(point(confirmed));
  if (const auto* above = runs.find(point(*search.first_true))) out.first_failing = *above;
  out.option.cost_usd_per_event = cost_interval(*out.answer_run);
  return out;
}

} // namespace sonicsim::planning
