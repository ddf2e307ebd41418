// Time series in the OpenMetrics text format (the Prometheus exposition format with timestamps), so that a
// simulation loads into Prometheus (`promtool tsdb create-blocks-from openmetrics`) and shows in the Grafana
// dashboards SONIC operators already read. Pure code.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace sonicsim {

// One labelled series of a family: a value per row of the time series.
struct MetricSeries {
  std::vector<std::pair<std::string, std::string>> labels; // name, value (escaped on writing)
  std::vector<double> values;
  std::vector<char> present = {}; // per row: the series has a sample (its pod ran); empty: every row
};

// A metric family. Triton's counters are cumulative (their value is the total since the start); they are
// written with the type `unknown` so that the sample keeps Triton's own name (an OpenMetrics `counter` would
// have to be named NAME_total, and dashboards query nv_inference_count).
struct MetricFamily {
  std::string name;
  std::string type; // "unknown" (a cumulative counter under Triton's name) or "gauge"
  std::string help;
  std::vector<MetricSeries> series;
};

// Writes every family, each row r stamped at start_epoch_s + (r + 1) x interval_s (the end of its interval,
// when a scrape would have seen it), and the closing "# EOF".
void write_openmetrics(std::ostream& out, const std::vector<MetricFamily>& families, double start_epoch_s,
                       double interval_s);

// "2024-01-01T00:00:00Z" -> seconds since the Unix epoch; throws std::invalid_argument on another form.
double parse_utc_timestamp(const std::string& text);

} // namespace sonicsim
