// `sonicsim replay`'s pure parts: a Prometheus range query's JSON read as the HTTP API writes it
// (sim/measurements/prometheus_matrix.hpp), and a recorded series against a simulated one
// (sim/analysis/replay_comparison.hpp), each figure computed by hand.
#include "sim/analysis/replay_comparison.hpp"
#include "sim/measurements/measurement_error.hpp"
#include "sim/measurements/prometheus_matrix.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

using namespace sonicsim;

namespace {

// `text` as a file of its own, read; the error's text, or "" when it reads.
std::string read_error(const std::string& text, measurements::PrometheusMatrix* out = nullptr) {
  const auto file = std::filesystem::temp_directory_path() /
                    ("sonicsim_matrix_" + std::to_string(std::hash<std::string>{}(text)) + ".json");
  std::ofstream(file) << text;
  std::string error;
  try {
    const auto matrix = measurements::read_prometheus_matrix(file.string());
    if (out) *out = matrix;
  } catch (const measurements::MeasurementError& e) {
    error = e.what();
  }
  std::filesystem::remove(file);
  return error;
}

} // namespace

TEST_CASE("prometheus matrix: two series as /api/v1/query_range answers, summed where they share a time") {
  measurements::PrometheusMatrix m;
  const std::string answer =
      R"({"status":"success","data":{"resultType":"matrix","result":[
        {"metric":{"pod":"envoy-0"},"values":[[1709251260,"40"],[1709251320,"41.5"],[1709251380,"NaN"]]},
        {"metric":{"pod":"envoy-1"},"values":[[1709251320,"10"],[1709251380,"12"]]}]}})";
  REQUIRE(read_error(answer, &m).empty());
  CHECK(m.series.size() == 2);
  CHECK(m.step_s() == 60);
  CHECK(m.series[0].labels == "{pod=\"envoy-0\"}");
  CHECK(std::isnan(m.series[0].values[2]));
  const auto total = m.summed();
  REQUIRE(total.values.size() == 3);
  CHECK(total.values[0] == 40);   // only envoy-0 at the first time
  CHECK(total.values[1] == 51.5); // 41.5 + 10
  CHECK(total.values[2] == 12);   // a NaN adds nothing
  // Grafana's query inspector shows the same `data` object alone.
  CHECK(read_error(R"({"resultType":"matrix","result":[{"metric":{},"values":[[1,"1"],[2,"2"]]}]})").empty());
}

TEST_CASE("prometheus matrix: what is not a range query's answer is refused, naming the file and the place") {
  CHECK(read_error("{").find("not JSON") != std::string::npos);
  CHECK(read_error(R"({"status":"error","error":"parse error at char 5"})").find("parse error at char 5") !=
        std::string::npos);
  CHECK(read_error(R"({"status":"success","data":{"resultType":"vector","result":[]}})")
            .find("a range query's answer") != std::string::npos);
  CHECK(read_error(R"({"status":"success","data":{"resultType":"matrix","result":[]}})").find("no series") !=
        std::string::npos);
  CHECK(read_error(R"({"resultType":"matrix","result":[{"values":[[2,"1"],[1,"2"]]}]})")
            .find("result[0].values[1]: times must increase") != std::string::npos);
  CHECK(read_error(R"({"resultType":"matrix","result":[{"values":[[1,"1"]]}]})").find("fewer than two") !=
        std::string::npos);
  CHECK(read_error(R"({"resultType":"matrix","result":[{"values":[[1,"1"],[2,"+Inf"]]}]})")
            .find("not a finite number") != std::string::npos);
}

TEST_CASE("replay comparison: bias, mean and relative error, decisions and lag, by hand") {
  // A recorded step from 2 to 4 pods at the third sample, simulated one sample later, one step of 60 s.
  const std::vector<analysis::ReplayPoint> points{{60, 2, 2},  {120, 2, 2}, {180, 4, 2}, {240, 4, 4},
                                                  {300, 4, 4}, {360, 4, 4}, {420, 4, 4}, {480, 4, 4}};
  const auto c = analysis::compare_replay(points, 60, true);
  CHECK(c.points == 8);
  CHECK(c.mean_recorded == doctest::Approx(28.0 / 8));
  CHECK(c.mean_simulated == doctest::Approx(26.0 / 8));
  CHECK(c.mean_error == doctest::Approx(-2.0 / 8)); // one sample 2 pods short
  CHECK(c.mean_absolute_error == doctest::Approx(2.0 / 8));
  CHECK(c.relative_error == doctest::Approx(2.0 / 28));
  // Seven steps: the recorded rise at 180 s is not simulated then (a miss), the simulated rise at 240 s is
  // not recorded then (another): 5 of 7 match.
  REQUIRE(c.decision_match_rate);
  CHECK(*c.decision_match_rate == doctest::Approx(5.0 / 7));
  // Shifted one sample, the simulation fits exactly: it acts 60 s later.
  REQUIRE(c.lag_s);
  CHECK(*c.lag_s == 60);
  // A rate has no decisions; a NaN recorded sample is left out.
  const auto rate = analysis::compare_replay({{60, 10, 11}, {120, NAN, 5}, {180, 10, 9}}, 60, false);
  CHECK(rate.points == 2);
  CHECK(rate.mean_error == 0);
  CHECK(rate.mean_absolute_error == 1);
  CHECK(!rate.decision_match_rate);
  CHECK(!rate.lag_s);
}
