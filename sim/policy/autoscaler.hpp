// The autoscaler's decision, as KEDA and the Kubernetes HPA make it for SuperSONIC: a metric read every poll
// against a threshold, turned into a pod count. Pure code: a sequence of (time, metric, pods) in, a
// sequence of pod counts out; the server pool (sim/components/server_pool.hpp) carries the counts out.
#pragma once

#include "sim/scenario/operations.hpp"

#include <deque>

namespace sonicsim {

// From the autoscaler's decision to a serving pod: startup_delay, or with a readiness probe the first probe
// at or after it (initial_delay + k x period, k >= 0).
double serving_delay_s(const AutoscalerSettings& settings);

class AutoscalerPolicy {
public:
  explicit AutoscalerPolicy(const AutoscalerSettings& settings);
  // The Deployment's pod count after the poll at `now_s` that read `metric`, with `pods` in the
  // Deployment now (starting, serving and failed pods alike: the Deployment's spec, as the HPA reads it).
  //   1. raw = ceil(pods x metric / threshold) (metricType Value) or ceil(metric / threshold)
  //      (AverageValue), or pods while the usage ratio (metric / threshold, or metric / (pods x
  //      threshold)) is within 1 +- tolerance; then clamped to min..max;
  //   2. stabilisation (the HPA's): a rise goes only to the lowest raw count of the scale-up window, a fall
  //      only to the highest of the scale-down window (both windows include this poll);
  //   3. at most scale_up_policy.pods added within its period (scale_down_policy's for removals; a period
  //      is at least a poll): the HPA's scaling policies, counted from the pod count at the period's
  //      start; and min..max.
  int decide(double now_s, double metric, int pods);
  // The raw count of step 1, for reports.
  int raw_recommendation(double metric, int pods) const;

private:
  struct Recommendation {
    double at_s = 0.0;
    int pods = 0;
  };
  AutoscalerSettings settings_;
  std::deque<Recommendation> history_; // recommendations within the longer stabilisation window
  struct Change {
    double at_s = 0.0;
    int pods_added = 0; // < 0: removed
  };
  std::deque<Change> changes_; // within the step period
};

} // namespace sonicsim
