// The charts of autoscaled pools: a varied key named as a reader knows it, and the trade-off chart's points,
// intervals and colours (the answer green, failing settings orange, only the roles drawn in the legend).
#include "sim/report/pool_charts.hpp"

#include <doctest/doctest.h>

using namespace sonicsim::report;

TEST_CASE("a varied key is named by its last part, in words") {
  CHECK(readable_key("platform.server_groups.triton.autoscaler.threshold") == "threshold");
  CHECK(readable_key("platform.server_groups.triton.autoscaler.startup_delay") == "startup delay");
  CHECK(readable_key("platform.server_groups.triton.autoscaler.max") == "max pods");
  CHECK(readable_key("platform.server_groups.triton.autoscaler.min") == "min pods");
  CHECK(readable_key("workload.jobs") == "jobs");
  CHECK(readable_key("seed") == "seed");
}

TEST_CASE("the trade-off chart draws each point with its intervals, coloured by its role") {
  TradeoffPoint reference{"static_40", "reference", 960.0, 51.0, 960.0, 960.0, 50.9, 51.1};
  TradeoffPoint answer{"threshold 200 ms", "the answer", 639.0, 51.3, 609.0, 668.0, 51.2, 51.4};
  TradeoffPoint failing{"threshold 800 ms", "setting: fails", 400.0,        60.0,
                        std::nullopt,       std::nullopt,     std::nullopt, std::nullopt};
  const Json chart = tradeoff_chart("t", {reference, answer, failing}, 53.6, "reference + 5 %");
  const Json& values = chart.at("data").at("values");
  REQUIRE(values.size() == 3);
  CHECK(values[1].at("hours_low") == 609.0);
  CHECK(values[1].at("event_high") == 51.4);
  // Without an interval, the bars have no length: low and high at the point.
  CHECK(values[2].at("hours_low") == 400.0);
  CHECK(values[2].at("event_high") == 60.0);
  // Event bars, device-hour bars, points, labels, and the ceiling.
  REQUIRE(chart.at("layer").size() == 5);
  const Json& scale = chart.at("layer")[2].at("encoding").at("color").at("scale");
  CHECK(scale.at("domain") == Json::array({"reference", "the answer", "setting: fails"}));
  CHECK(scale.at("range") == Json::array({"#1f77b4", "#2ca02c", "#ff7f0e"}));
  CHECK(chart.at("layer")[4].at("data").at("values")[0].at("label") == "reference + 5 %");
  // Device-hours are not drawn from zero: the settings differ by a fraction of their size.
  CHECK(chart.at("layer")[2].at("encoding").at("x").at("scale").at("zero") == false);
}
