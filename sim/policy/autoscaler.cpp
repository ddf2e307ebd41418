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
  desired = std::clamp(desired, replicas - settings_.step, replicas + settings_.step);
  return std::clamp(desired, settings_.min_replicas, settings_.max_replicas);
}

} // namespace sonicsim
