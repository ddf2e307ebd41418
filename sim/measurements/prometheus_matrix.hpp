// A Prometheus range query's answer, as the HTTP API's /api/v1/query_range returns it (and Grafana's query
// inspector shows it): {"status": "success", "data": {"resultType": "matrix", "result": [{"metric": {...},
// "values": [[unix time, "value"], ...]}, ...]}}, or its `data` object alone. What `sonicsim replay` reads
// of an operator's recorded day: each series with its labels and its samples.
#pragma once

#include <string>
#include <vector>

namespace sonicsim::measurements {

struct PrometheusSeries {
  std::string labels;                  // the series' labels as {name="value", ...}, for messages
  std::vector<double> times_s, values; // unix seconds, increasing; NaN where the query divided 0 by 0
};

struct PrometheusMatrix {
  std::string file;
  std::vector<PrometheusSeries> series;
  // The samples' spacing (the query's step): the smallest gap between two samples of a series.
  double step_s() const;
  // The series summed at each time any of them has a sample (a sample a series lacks adds nothing): a
  // count split by pod or by proxy replica, added up. NaN samples add nothing either.
  PrometheusSeries summed() const;
};

// Reads and checks the file: a JSON document of the shape above with at least one series of at least two
// samples, times increasing, values numbers written as Prometheus writes them ("1.5", "NaN", "+Inf"); a
// MeasurementError names the file and what is wrong otherwise.
PrometheusMatrix read_prometheus_matrix(const std::string& path);

} // namespace sonicsim::measurements
