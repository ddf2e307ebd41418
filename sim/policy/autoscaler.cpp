#include "sim/policy/autoscaler.hpp"

#include <algorithm>
#include <cmath>

namespace sonicsim {

double serving_delay_s(const AutoscalerSettings& settings) {
  const double ready_s = settings.startup_delay_s;
  const auto& probe = settings.readiness_probe;
  if (!probe) return ready_s;
  if (ready_s <= probe->initial_delay_s) return probe->initial_delay_s;
  // The first probe at or after ready_s; a relative slack so that a delay on the grid stays there.
  const double periods = std::ceil((ready_s - probe->initial_delay_s) / probe->period_s - 1e-9);
  return probe->initial_delay_s + periods * probe->period_s;
}

AutoscalerPolicy::AutoscalerPolicy(const AutoscalerSettings& settings) : settings_(settings) {}

int AutoscalerPolicy::raw_recommendation(double metric, int pods) const {
  // The HPA's usage ratio: the metric against its target for the pods there are. With AverageValue the
  // target is per pod, so the group's target is pods x threshold.
  const bool average = settings_.metric_type == MetricType::average_value;
  const double target = average ? settings_.threshold * std::max(pods, 1) : settings_.threshold;
  const double ratio = target > 0 ? metric / target : 0.0;
  int raw = pods;
  if (std::fabs(ratio - 1.0) > settings_.tolerance) {
    // Value: ceil(current x ratio); AverageValue: ceil(metric / threshold), the same number written as the
    // HPA writes it. A tiny excess from rounding in the ratio must not add a pod.
    const double exact = average ? metric / settings_.threshold : static_cast<double>(pods) * ratio;
    raw = static_cast<int>(std::ceil(exact - 1e-9));
  }
  return std::clamp(raw, settings_.min_pods, settings_.max_pods);
}

int AutoscalerPolicy::decide(double now_s, double metric, int pods) {
  const int raw = raw_recommendation(metric, pods);
  history_.push_back({now_s, raw});
  const double keep_s = std::max(settings_.scale_up_window_s, settings_.scale_down_window_s);
  while (!history_.empty() && history_.front().at_s < now_s - keep_s)
    history_.pop_front();
  int up = raw, down = raw;
  for (const auto& r : history_) {
    if (r.at_s >= now_s - settings_.scale_up_window_s) up = std::min(up, r.pods);
    if (r.at_s >= now_s - settings_.scale_down_window_s) down = std::max(down, r.pods);
  }
  int desired = pods;
  if (desired < up) desired = up;
  if (desired > down) desired = down;
  // The HPA's scaling policies: at most `pods` added (removed) within the direction's period, counted from
  // the count at the period's start. A period is at least a sync period, so with syncs as long as it this
  // is "pods per sync".
  const auto period_s = [this](const AutoscalerSettings::ScalingPolicy& policy) {
    return std::max(policy.period_s, settings_.sync_period_s);
  };
  const double up_period_s = period_s(settings_.scale_up_policy);
  const double down_period_s = period_s(settings_.scale_down_policy);
  const double keep_changes_s = std::max(up_period_s, down_period_s);
  while (!changes_.empty() && changes_.front().at_s <= now_s - keep_changes_s + 1e-9 * keep_changes_s)
    changes_.pop_front();
  int added = 0, removed = 0;
  for (const auto& change : changes_) {
    const bool rise = change.pods_added > 0;
    const double within_s = rise ? up_period_s : down_period_s;
    if (change.at_s <= now_s - within_s + 1e-9 * within_s) continue;
    (rise ? added : removed) += std::abs(change.pods_added);
  }
  const int up_limit = std::max(pods, pods - added + settings_.scale_up_policy.pods);
  const int down_limit = std::min(pods, pods + removed - settings_.scale_down_policy.pods);
  desired = std::clamp(desired, down_limit, up_limit);
  desired = std::clamp(desired, settings_.min_pods, settings_.max_pods);
  if (desired != pods) changes_.push_back({now_s, desired - pods});
  return desired;
}

} // namespace sonicsim
