#include "sim/planning/autoscaler_plan.hpp"

#include "sim/metrics/number_text.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sonicsim::planning {

const char* verdict_name(AutoscalerOption::Verdict verdict) {
  switch (verdict) {
  case AutoscalerOption::Verdict::meets:
    return "meets";
  case AutoscalerOption::Verdict::fails:
    return "fails";
  case AutoscalerOption::Verdict::undecided:
    break;
  }
  return "undecided";
}

AutoscalerPlan decide_autoscaler_plan(double tolerance, const std::vector<PooledFigures>& reference,
                                      const std::vector<AutoscalerSetting>& settings,
                                      const std::vector<std::vector<PooledFigures>>& runs) {
  if (settings.size() != runs.size())
    throw std::logic_error("decide_autoscaler_plan: a setting without runs");
  AutoscalerPlan plan;
  plan.tolerance = tolerance;
  std::vector<double> reference_event, reference_hours;
  for (const auto& r : reference) {
    if (r.event_mean_s) reference_event.push_back(*r.event_mean_s);
    if (r.device_hours) reference_hours.push_back(*r.device_hours);
  }
  plan.reference_event_mean_s = confidence_interval_95(reference_event);
  plan.reference_device_hours = confidence_interval_95(reference_hours);
  for (std::size_t s = 0; s < settings.size(); ++s) {
    if (runs[s].size() != reference.size())
      throw std::logic_error("decide_autoscaler_plan: replications not paired with the reference's");
    AutoscalerOption option;
    option.setting = settings[s];
    std::vector<double> ratio, event, hours, cost;
    bool no_event = false; // a replication completed no event where the reference's did
    for (std::size_t r = 0; r < runs[s].size(); ++r) {
      const PooledFigures& run = runs[s][r];
      // A pair is compared only when both define the event time (a run without a completed event has none).
      if (run.event_mean_s && reference[r].event_mean_s)
        ratio.push_back(*run.event_mean_s / *reference[r].event_mean_s);
      no_event = no_event || (!run.event_mean_s && reference[r].event_mean_s);
      if (run.event_mean_s) event.push_back(*run.event_mean_s);
      if (run.device_hours) hours.push_back(*run.device_hours);
      if (run.cost_usd_per_event) cost.push_back(*run.cost_usd_per_event);
    }
    option.event_ratio = confidence_interval_95(ratio);
    option.event_mean_s = confidence_interval_95(event);
    option.device_hours = confidence_interval_95(hours);
    option.cost_usd_per_event = confidence_interval_95(cost);
    // One replication has no interval: its verdict cannot be confident either way.
    const double limit = 1.0 + tolerance;
    if (no_event)
      option.verdict = AutoscalerOption::Verdict::fails; // its event time is past any tolerance
    else if (option.event_ratio.has_interval() && option.event_ratio.high() <= limit)
      option.verdict = AutoscalerOption::Verdict::meets;
    else if (option.event_ratio.has_interval() && option.event_ratio.low() > limit)
      option.verdict = AutoscalerOption::Verdict::fails;
    plan.options.push_back(option);
  }
  std::stable_sort(plan.options.begin(), plan.options.end(),
                   [](const auto& a, const auto& b) { return a.device_hours.mean < b.device_hours.mean; });
  for (std::size_t i = 0; i < plan.options.size() && !plan.answer; ++i)
    if (plan.options[i].verdict == AutoscalerOption::Verdict::meets) plan.answer = i;
  // An undecided setting cheaper than the answer could be the answer with more replications.
  const std::size_t cheaper = plan.answer ? *plan.answer : plan.options.size();
  std::size_t undecided = 0;
  for (std::size_t i = 0; i < cheaper; ++i)
    undecided += plan.options[i].verdict == AutoscalerOption::Verdict::undecided ? 1 : 0;
  if (!plan.answer)
    plan.reason =
        "no setting keeps the event time within " + percent_text(tolerance) +
        " of the static reference at 95 % confidence" +
        (undecided ? " (" + std::to_string(undecided) + " undecided: more replications may decide them)"
                   : "");
  else if (undecided)
    plan.reason = std::to_string(undecided) +
                  " cheaper setting(s) undecided: with more replications one of them may meet the target";
  // An answer at the edge of what was tried says where the search should go on.
  if (plan.answer) {
    const AutoscalerSetting& best = plan.options[*plan.answer].setting;
    double highest = best.threshold;
    bool several = false;
    for (const auto& s : settings) {
      several = several || s.threshold != best.threshold;
      highest = std::max(highest, s.threshold);
    }
    if (several && best.threshold == highest)
      plan.reason += std::string(plan.reason.empty() ? "" : "; ") +
                     "the answer is the highest threshold tried: a higher one may need fewer device-hours";
  }
  return plan;
}

} // namespace sonicsim::planning
