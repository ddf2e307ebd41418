// The OpenMetrics text sonicsim writes for Prometheus: families, labels escaped, samples stamped at the end
// of their interval, the closing # EOF; and the UTC times it is stamped from.
#include "sim/metrics/openmetrics.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <stdexcept>

using namespace sonicsim;

TEST_CASE("OpenMetrics text: one line per sample, stamped at the end of its interval") {
  std::ostringstream out;
  write_openmetrics(out,
                    {{"nv_inference_count",
                      "unknown",
                      "Number of inferences",
                      {{{{"model", "m\"1"}, {"version", "1"}}, {10.0, 25.0}}}},
                     {"nv_gpu_utilization", "gauge", "GPU utilization", {{{{"gpu_uuid", "GPU-0"}}, {0.5}}}}},
                    1704067200.0, 60.0);
  CHECK(out.str() == "# TYPE nv_inference_count unknown\n"
                     "# HELP nv_inference_count Number of inferences\n"
                     "nv_inference_count{model=\"m\\\"1\",version=\"1\"} 10 1704067260.000\n"
                     "nv_inference_count{model=\"m\\\"1\",version=\"1\"} 25 1704067320.000\n"
                     "# TYPE nv_gpu_utilization gauge\n"
                     "# HELP nv_gpu_utilization GPU utilization\n"
                     "nv_gpu_utilization{gpu_uuid=\"GPU-0\"} 0.5 1704067260.000\n"
                     "# EOF\n");
}

TEST_CASE("UTC times for --metrics-start") {
  CHECK(parse_utc_timestamp("1970-01-01T00:00:00Z") == 0.0);
  CHECK(parse_utc_timestamp("2024-01-01T00:00:00Z") == 1704067200.0); // date -u -d 2024-01-01 +%s
  CHECK(parse_utc_timestamp("2024-03-01T12:30:15Z") == 1709296215.0); // a leap year's 1 March
  CHECK_THROWS_AS(parse_utc_timestamp("2024-01-01"), std::invalid_argument);
  CHECK_THROWS_AS(parse_utc_timestamp("2024-13-01T00:00:00Z"), std::invalid_argument);
  CHECK_THROWS_AS(parse_utc_timestamp("2024-01-01T00:00:00+01"), std::invalid_argument);
  // Days a month does not have are refused, not rolled into the next month; 2000 is a leap year, 1900 not
  // (the Gregorian rule), but 1900 is before 1970 anyway: 2100 is the century tested.
  CHECK(parse_utc_timestamp("2024-02-29T00:00:00Z") == 1709164800.0); // date -u -d 2024-02-29 +%s
  CHECK(parse_utc_timestamp("2000-02-29T00:00:00Z") == 951782400.0);  // date -u -d 2000-02-29 +%s
  CHECK_THROWS_AS(parse_utc_timestamp("2023-02-29T00:00:00Z"), std::invalid_argument);
  CHECK_THROWS_AS(parse_utc_timestamp("2100-02-29T00:00:00Z"), std::invalid_argument);
  CHECK_THROWS_AS(parse_utc_timestamp("2024-02-30T00:00:00Z"), std::invalid_argument);
  CHECK_THROWS_AS(parse_utc_timestamp("2024-04-31T00:00:00Z"), std::invalid_argument);
}
