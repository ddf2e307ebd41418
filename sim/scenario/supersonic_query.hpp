// The scaling queries of SuperSONIC's values files, recognised as a whole: the chart's queue time per batch
// (templates/_helpers/_scaling-metric.tpl, a ratio of sums) and Purdue's form of it (values-geddes-cms.yaml,
// a sum of per-series ratios). sonicsim does not evaluate PromQL; a query of another form is not recognised,
// and the reader says so. Pure string work.
#pragma once

#include "sim/scenario/operations.hpp"

#include <optional>
#include <string>

namespace sonicsim {

struct QueueTimeQuery {
  MetricAggregation aggregation = MetricAggregation::ratio_of_sums;
  std::string queue_window;      // the rate() window of nv_inference_queue_duration_us, as written ("30s")
  std::string executions_window; // the rate() window of nv_inference_exec_count
};

// The query's form, whitespace aside; nullopt when it is neither form.
std::optional<QueueTimeQuery> recognise_queue_time_query(const std::string& query);

// A Prometheus duration of one unit ("30s", "1m", "500ms"), in seconds; nullopt when not one.
std::optional<double> prometheus_duration_s(const std::string& text);

} // namespace sonicsim
