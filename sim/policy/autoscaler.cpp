#include "sim/policy/autoscaler.hpp"

#include <algorithm>
#include <cmath>

namespace sonicsim {

AutoscalerPolicy::AutoscalerPolicy(const AutoscalerSettings& settings) : settings_(settings) {}

int AutoscalerPolicy::raw_recommendation(double metric, int replicas) const {
  const double ratio = settings_.threshold > 0 ? metric / settings_.threshold : 0.0;
  int raw = replicas;
  if (std::fabs(ratio - 1.0) > settings_.tolerance) {
    // The HPA's ceil(current x ratio); a tiny excess from rounding in the ratio must not add a pod.
    const double exact = static_cast<double>(replicas) * ratio;
    raw = static_cast<int>(std::ceil(exact - 1e-9));
  }
  return std::clamp(raw, settings_.min_replicas, settings_.max_replicas);
}

int AutoscalerPolicy::decide(double now_s, double metric, int replicas) {
  const int raw = raw_recommendation(metric, replicas);
  history_.push_back({now_s, raw});
  const double keep_s = std::max(settings_.scale_up_window_s, settings_.scale_down_window_s);
  while (!history_.empty() && history_.front().at_s < now_s - keep_s)
    history_.pop_front();
  int up = raw, down = raw;
  for (const auto& r : history_) {
    if (r.at_s >= now_s - settings_.scale_up_window_s) up = std::min(up, r.replicas);
    if (r.at_s >= now_s - settings_.scale_down_window_s) down = std::max(down, r.replicas);
  }
  int desired = replicas;
  if (desired < up) desired = up;
  if (desired > down) desired = down;
  // The HPA's scaling policy: at most `step` pods added (removed) within a period, counted from the count at
  // the period's start. The period is at least a poll, so with polls as long as it this is "step per poll".
  const double period_s = std::max(settings_.step_period_s, settings_.poll_interval_s);
  while (!changes_.empty() && changes_.front().at_s <= now_s - period_s + 1e-9 * period_s)
    changes_.pop_front();
  int added = 0, removed = 0;
  for (const auto& change : changes_)
    (change.replicas_added > 0 ? added : removed) += std::abs(change.replicas_added);
  const int up_limit = std::max(replicas, replicas - added + settings_.step);
  const int down_limit = std::min(replicas, replicas + removed - settings_.step);
  desired = std::clamp(desired, down_limit, up_limit);
  desired = std::clamp(desired, settings_.min_replicas, settings_.max_replicas);
  if (desired != replicas) changes_.push_back({now_s, desired - replicas});
  return desired;
}

} // namespace sonicsim
