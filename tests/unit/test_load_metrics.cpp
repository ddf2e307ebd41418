// The load metrics an autoscaler or a rate limiter polls (sim/policy/load_metrics.hpp): every metric a row,
// and each formula on two pods' counters followed by hand.
#include "sim/policy/load_metrics.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>

using namespace sonicsim;

namespace {

PodLoad counters(double wait_s, std::uint64_t batches, double busy_s, int queued, double request_s,
                 double service_s) {
  return PodLoad{wait_s, batches, busy_s, queued, request_s, service_s};
}

// Pod A between two readings; pod B new in the window (it reads from zero).
const std::vector<PodWindow> two_pods{
    {counters(1.0, 10, 5.0, 0, 2.0, 1.0), counters(3.0, 20, 15.0, 4, 10.0, 5.0)},
    {PodLoad{}, counters(1.0, 40, 20.0, 2, 3.0, 3.0)}};

double metric(LoadMetric m, const std::vector<PodWindow>& pods,
              MetricAggregation aggregation = MetricAggregation::ratio_of_sums) {
  return load_metric(m, aggregation, pods, 1, 30.0);
}

} // namespace

TEST_CASE("load metrics: every metric has one row, named as scenarios write it, with a unit and a formula") {
  std::set<std::string> names;
  for (const LoadMetric m : all_load_metrics) {
    const LoadMetricSpec& spec = load_metric_spec(m);
    CHECK(spec.metric == m);
    CHECK(names.insert(load_metric_name(m)).second);
    CHECK(std::string(load_metric_unit(m)) != "");
    CHECK(std::string(spec.reads) != "");
  }
  CHECK(load_metric_table().size() == names.size());
  CHECK(std::size(load_metric_rows) == names.size());
  // The unit decides how a threshold is written and echoed: only the queue time is in seconds.
  CHECK(load_metric_in_seconds(LoadMetric::queue_time_per_batch));
  CHECK_FALSE(load_metric_in_seconds(LoadMetric::device_utilisation));
  CHECK_FALSE(load_metric_in_seconds(LoadMetric::pods_needed));
}

TEST_CASE("load metrics: each formula on two pods' counters, by hand") {
  // Queue time per batch, the chart's ratio of sums: (2 + 1) s over (10 + 40) batches.
  CHECK(metric(LoadMetric::queue_time_per_batch, two_pods) == doctest::Approx(0.06));
  // Purdue's sum of each pod's ratio: 2 / 10 + 1 / 40.
  CHECK(metric(LoadMetric::queue_time_per_batch, two_pods, MetricAggregation::sum_of_ratios) ==
        doctest::Approx(0.225));
  // Busy (10 + 20) device-s over 2 pods x 1 device x 30 s.
  CHECK(metric(LoadMetric::device_utilisation, two_pods) == doctest::Approx(0.5));
  // Waiting now: (4 + 2) over 2 pods.
  CHECK(metric(LoadMetric::queue_length, two_pods) == doctest::Approx(3.0));
  // Replicas needed (SuperSONIC main's _scaling-metric.tpl): L_proxy x max(R, 1) / max(L_service, R, 1).
  // Over 30 s, (8 + 3) s in the system and (4 + 3) s in service: L_proxy 11 / 30, L_service 7 / 30, below the
  // 2 pods, so the floor holds: 11 / 30 x 2 / 2 = 0.367, an underused group that may scale down.
  CHECK(metric(LoadMetric::pods_needed, two_pods) == doctest::Approx(11.0 / 30.0));
  // The same counters over 3 s: L_service 7 / 3 = 2.33 above the 2 pods, so Little's law unfloored:
  // 11 / 3 x 2 / (7 / 3) = 2 x 11 / 7.
  CHECK(load_metric(LoadMetric::pods_needed, MetricAggregation::ratio_of_sums, two_pods, 1, 3.0) ==
        doctest::Approx(2.0 * 11.0 / 7.0));
}

TEST_CASE("load metrics: nothing scraped or nothing done reads 0; utilisation at most 1") {
  for (const LoadMetric m : all_load_metrics)
    CHECK(metric(m, {}) == 0.0);
  // A pod that executed no batch and answered no request in the window: the ratios read 0, not NaN.
  const std::vector<PodWindow> idle{
      {counters(1.0, 10, 5.0, 0, 2.0, 1.0), counters(1.0, 10, 5.0, 0, 2.0, 1.0)}};
  CHECK(metric(LoadMetric::queue_time_per_batch, idle) == 0.0);
  CHECK(metric(LoadMetric::pods_needed, idle) == 0.0);
  // More busy time than the window holds (a reading's rounding) is capped.
  const std::vector<PodWindow> over{{PodLoad{}, counters(0.0, 1, 45.0, 0, 0.0, 0.0)}};
  CHECK(metric(LoadMetric::device_utilisation, over) == 1.0);
}
