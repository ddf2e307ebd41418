// The analytic side of an autoscaled group: for each pod count, the MVA's steady state at a given number
// of jobs, which count the autoscaler's threshold asks for at that load, and how long the autoscaler takes
// to get there from its minimum. Pure code over the scenario.
#pragma once

#include "sim/scenario/scenario.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sonicsim::analysis {

struct PodPoint {
  int pods = 0;
  double mva_event_s = 0.0;
  double mva_events_per_s = 0.0;
  double mva_gpu_utilisation = 0.0;
  // Queueing added per request at this load: (MVA module time at the jobs - at one job) / requests per
  // event. Equal to Triton's queue time per batch when each batch is one request (no dynamic batching);
  // with merged batches the per-batch figure is larger by the requests per batch.
  double queue_wait_per_request_s = 0.0;
};

struct PodNeeds {
  std::string group;
  int jobs = 0;
  AutoscalerSettings autoscaler;
  std::vector<PodPoint> points; // min..max, at most max_points of them
  // The fewest pods whose metric at this load is within the threshold (with the tolerance); none when even
  // the maximum is not, or the metric is one the MVA does not give (queue_length).
  std::optional<int> needed;
  // From min to `needed`: ceil((needed - min) / step) polls, each a poll interval, the first waiting for a
  // full scale-up window, plus the start-up delay; assumes the metric stays above the threshold meanwhile.
  std::optional<double> reach_s;
  std::string note; // why `needed` is none, or what it rests on
};

constexpr int max_pod_points = 200;

// For the first group with an autoscaler; none without one.
std::optional<PodNeeds> pod_needs(const Scenario& scenario, int jobs);

} // namespace sonicsim::analysis
