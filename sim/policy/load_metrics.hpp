// The load metrics a server group's autoscaler or rate limiter polls, as the Prometheus queries SuperSONIC's
// chart writes them over the pods' Triton counters: one row per metric (its name in scenarios, its unit,
// what it reads) and one formula from the counters of the scraped pods at two readings to the metric. Pure
// code, unit-tested (tests/unit/test_load_metrics.cpp); the server pool (sim/components/server_pool.cpp)
// takes the readings. A threshold's bounds are checked where the scenario is read
// (sim/scenario/scenario_operations.cpp), which sits below this layer and names the same metrics.
#pragma once

#include "sim/scenario/operations.hpp"

#include <cstdint>
#include <vector>

namespace sonicsim {

// What the autoscaler and the rate limiter read of a pod (its Triton metrics), cumulative over the run:
// summed over the pod's models.
struct PodLoad {
  double queue_wait_s = 0.0;  // nv_inference_queue_duration_us, in seconds
  std::uint64_t batches = 0;  // nv_inference_exec_count
  double device_busy_s = 0.0; // booked on its devices
  int queued = 0;             // requests waiting now
  // Per request answered, summed: from arrival to reply, and Triton's compute (input, infer, output).
  double request_time_s = 0.0;
  double service_time_s = 0.0;
};

// One scraped pod (serving or draining) at the window's two readings; a pod new in the window reads from
// zero.
struct PodWindow {
  PodLoad since, until;
};

// Its name is load_metric_name(metric), as scenarios write it.
struct LoadMetricSpec {
  LoadMetric metric;
  const char* reads; // the formula, for people (its unit: load_metric_unit, sim/scenario/operations.hpp)
};

// Every metric (all_load_metrics), in that order.
const std::vector<LoadMetricSpec>& load_metric_table();
const LoadMetricSpec& load_metric_spec(LoadMetric metric);

// The metric over a window of `interval_s` from the scraped pods' counters (`devices_per_pod` each). None
// scraped, or a ratio whose divisor is zero (no batch executed, no request answered), reads 0, as the chart's
// queries do (their + 0.001, or Prometheus returning nothing).
double load_metric(LoadMetric metric, MetricAggregation aggregation, const std::vector<PodWindow>& pods,
                   int devices_per_pod, double interval_s);

} // namespace sonicsim
