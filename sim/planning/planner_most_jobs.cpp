// plan --gpus G: the most jobs G GPUs serve, on one device type and pod NIC.
#include "sim/planning/planner_search.hpp"

namespace sonicsim::planning {

int Planner::Search::analytic_most_jobs(const PodLayout& layout, const LayoutAnalysis& analysis) const {
  const auto parameters = analysis::derive_parameters(with_layout(scenario_, layout));
  const int limit = static_cast<int>(std::ceil(mva_curve_extent * analysis.first().jobs_at_saturation)) + 2;
  std::vector<int> counts;
  for (int n = 1; n <= limit; ++n)
    counts.push_back(n);
  const auto curve = analysis::analytic_curve(parameters, counts);
  int best = 1;
  for (const auto& point : curve)
    if (point.mva_module_s <= (1.0 + bracket_tolerance_) * curve.front().mva_module_s) best = point.jobs;
  const double network_jobs = saturation_threshold * analysis.network_limit().jobs_at_saturation;
  return std::max(1, std::min(best, static_cast<int>(network_jobs)));
}

OptionSearch Planner::Search::search_most_jobs(const std::string& type, double nic, int gpus) {
  OptionSearch out;
  out.option.device_type = type;
  out.option.nic_bps = nic;
  auto layout = layout_for_gpus(gpus, 1, settings_.max_gpus_per_pod);
  layout->device_type = type;
  layout->nic_bps = nic;
  auto analysis = analyse_layout(scenario_, *layout);
  int estimate = analytic_most_jobs(*layout, analysis);
  // Enough pods that their NICs do not stop the GPUs short, when the GPUs can be split that far.
  const int min_pods = pods_for_network(analysis, estimate, saturation_threshold);
  if (min_pods > layout->pods) {
    layout = layout_for_gpus(gpus, std::min(min_pods, gpus), settings_.max_gpus_per_pod);
    layout->device_type = type;
    layout->nic_bps = nic;
    analysis = analyse_layout(scenario_, *layout);
    estimate = analytic_most_jobs(*layout, analysis);
  }
  if (plan_.layout_rule.empty()) plan_.layout_rule = layout_rule(settings_.max_gpus_per_pod, layout->pods);
  if (plan_.analytic_module_low_load_s == 0.0) plan_.analytic_module_low_load_s = analysis.module_low_load_s;
  out.option.layout = *layout;
  out.option.analytic_layout = *layout;
  out.option.analytic_jobs = estimate;
  const int step = std::max(1, static_cast<int>(std::lround(job_grid_fraction * estimate)));
  out.job_step = step;
  out.runs.emplace(make_runs());
  PlanRuns& runs = *out.runs;
  runs.set_reference(
      RunPoint{*layout, {}, reference_job_count(estimate, analysis.first().jobs_at_saturation)});
  runs.ensure({}, settings_.replications);
  if (const auto reason = impossible_reason(runs.reference(), estimate); !reason.empty()) {
    out.option.reason = reason;
    out.impossible = true;
    return out;
  }
  auto point = [&](int k) { return RunPoint{*layout, {}, k * step}; };
  const int last = static_cast<int>(std::ceil(job_search_ceiling * estimate / step)) + 2;
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
  const auto search =
      find_first_true_confidently(1, last, estimate / step + 1, settings_.parallel, judge, tell);
  out.budget_exhausted = search.budget_exhausted;
  const int confirmed = search.first_possible - 1; // the highest index known to meet
  if (confirmed < 1) {
    out.option.reason = "even " + std::to_string(step) + " jobs are not confirmed to meet the targets";
    return out;
  }
  out.option.found = true;
  out.option.jobs = confirmed * step;
  {
    // The range: from the highest index meeting by its interval to below the lowest failing by it.
    int low = confirmed, high = search.first_true ? *search.first_true - 1 : last;
    for (const auto& [index, decision] : search.decisions) {
      const auto strict = strict_decision(*runs.find(point(index)));
      if (index <= confirmed && strict != Decision::yes) low = std::min(low, index - 1);
    }
    for (const auto& [index, decision] : search.decisions)
      if (index > confirmed && strict_decision(*runs.find(point(index))) == Decision::no) {
        high = std::max(confirmed, index - 1);
        break;
      }
    out.option.jobs_low = std::max(0, low) * step;
    out.option.jobs_high = high * step;
  }
  out.answer_run = *runs.find(point(confirmed));
  if (search.first_true)
    if (const auto* above = runs.find(point(*search.first_true))) out.first_failing = *above;
  out.option.cost_usd_per_event = cost_interval(*out.answer_run);
  return out;
}

} // namespace sonicsim::planning
