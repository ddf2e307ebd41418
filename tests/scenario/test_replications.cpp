// --replications on run, sweep and compare, end to end: replication 0 is the plain run byte for byte, every
// replicated figure is the mean of the replications' own summaries with a 95 % Student-t interval, and the
// same command gives the same files.
#include "simulate.hpp"

#include "sim/sweep/sweep_csv.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using sonicsim::testing::read_json;
using sonicsim::testing::run_sonicsim;

namespace {

// 30 jobs, 3 events each: a second per replication.
const std::string small_run =
    "run --set workload.jobs=30 --set workload.events_per_job=3 --set output.precision=off -j 2 ";

// t(0.975, n - 1) for n = 2, 3 (standard tables).
double t_975(int n) {
  return n == 2 ? 12.706205 : 4.302653;
}

} // namespace

TEST_CASE(
    "run --replications 3: replication 0 is the plain run; figures are means with Student-t intervals") {
  const fs::path base = fs::temp_directory_path() / "sonicsim_replications_run";
  fs::remove_all(base);
  REQUIRE(run_sonicsim(small_run + "--quiet --out " + (base / "plain").string()).exit_code == 0);
  const auto replicated = run_sonicsim(small_run + "--replications 3 --out " + (base / "three").string());
  INFO(replicated.output);
  REQUIRE(replicated.exit_code == 0);
  CHECK(replicated.output.find("3 replications") != std::string::npos);
  CHECK(replicated.output.find(" +- ") != std::string::npos);
  for (const char* file : {"summary.json", "events.csv", "timeseries.csv"})
    CHECK(sonicsim::testing::read_text(base / "plain" / file) ==
          sonicsim::testing::read_text(base / "three" / "replication_0" / file));

  const auto json = read_json(base / "three" / "replications.json");
  CHECK(json["replications"] == 3);
  CHECK(json["seeds"][0] == 1); // the scenario's seed
  CHECK(json["seeds"][1] != json["seeds"][2]);
  // The event mean of each replication's own summary.json, and their mean and interval, computed here.
  std::vector<double> event_means;
  for (int r = 0; r < 3; ++r)
    event_means.push_back(read_json(base / "three" / ("replication_" + std::to_string(r)) /
                                    "summary.json")["results"]["event"]["mean_s"]
                              .get<double>());
  const double mean = (event_means[0] + event_means[1] + event_means[2]) / 3.0;
  double squares = 0.0;
  for (const double v : event_means)
    squares += (v - mean) * (v - mean);
  const double half_width = t_975(3) * std::sqrt(squares / 2.0) / std::sqrt(3.0);
  const auto& event = json["figures"]["event_mean_s"];
  CHECK(event["mean"].get<double>() == doctest::Approx(mean).epsilon(1e-12));
  CHECK(event["half_width"].get<double>() == doctest::Approx(half_width).epsilon(1e-5));
  CHECK(event["half_width"].get<double>() > 0.0); // different seeds: the replications differ
  CHECK(event["n"] == 3);
  CHECK(sonicsim::testing::read_text(base / "three" / "replications.csv").find("\nevent_mean_s,") !=
        std::string::npos);

  // Deterministic: the same command writes the same aggregate.
  REQUIRE(run_sonicsim(small_run + "--quiet --replications 3 --out " + (base / "again").string()).exit_code ==
          0);
  CHECK(sonicsim::testing::read_text(base / "three" / "replications.json") ==
        sonicsim::testing::read_text(base / "again" / "replications.json"));
}

TEST_CASE("sweep --replications 2: sweep.csv holds each point's mean and interval over its replications") {
  const fs::path dir = fs::temp_directory_path() / "sonicsim_replications_sweep";
  fs::remove_all(dir);
  const auto result = run_sonicsim(
      "sweep --vary workload.jobs=10,40 --set workload.events_per_job=3 --set output.precision=off "
      "--replications 2 -j 2 --out " +
      dir.string());
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  const auto table = sonicsim::read_csv_file((dir / "sweep.csv").string());
  REQUIRE(table.rows.size() == 2);
  const auto replications = table.numbers("replications");
  const auto event = table.numbers("event_mean_s");
  const auto low = table.numbers("event_mean_s_ci95_low");
  const auto high = table.numbers("event_mean_s_ci95_high");
  for (std::size_t point = 0; point < 2; ++point) {
    CAPTURE(point);
    CHECK(replications[point] == 2);
    // The two replications' point files: point_00000N.json (the scenario's seed) and point_00000N_r1.json.
    char name[32];
    std::snprintf(name, sizeof name, "point_%06zu", point);
    const double r0 =
        read_json(dir / "points" / (std::string(name) + ".json"))["summary"]["event"]["mean_s"].get<double>();
    const double r1 =
        read_json(dir / "points" / (std::string(name) + "_r1.json"))["summary"]["event"]["mean_s"]
            .get<double>();
    CHECK(event[point] == doctest::Approx((r0 + r1) / 2.0).epsilon(1e-5)); // 6 significant digits in the CSV
    const double half_width = t_975(2) * std::fabs(r0 - r1) / 2.0;         // sd = |r0 - r1| / sqrt(2)
    CHECK(high[point] - low[point] == doctest::Approx(2.0 * half_width).epsilon(1e-4));
  }
}

TEST_CASE("compare --replications 2: every column's simulated figures carry their interval") {
  const fs::path dir = fs::temp_directory_path() / "sonicsim_replications_compare";
  fs::remove_all(dir);
  const auto result = run_sonicsim(
      "compare --jobs 60 --columns fp16 --set workload.events_per_job=3 --set output.precision=off "
      "--replications 2 -j 2 --out " +
      dir.string());
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  const auto json = read_json(dir / "compare.json");
  CHECK(json["replications"] == 2);
  for (const auto& column : json["columns"]) {
    CAPTURE(column["name"].get<std::string>());
    const auto& module = column["ci95"]["module_mean_s"];
    CHECK(module["n"] == 2);
    CHECK(module["low"].get<double>() <= column["module_mean_s"].get<double>());
    CHECK(module["high"].get<double>() >= column["module_mean_s"].get<double>());
  }
  // FP16 halves the GPU time per event (the variant doubles every throughput point): each column's simulated
  // CPU:GPU ratio lies outside the other's interval. (Not that the intervals part: with 2 replications the
  // 95 % interval is 12.7 x the replications' half-difference, measured 68.8 +- 23.1 against 136.6 +- 44.9,
  // which touch at 92.)
  const auto& base = json["columns"][0]["ci95"]["ratio_simulated"];
  const auto& fp16 = json["columns"][1]["ci95"]["ratio_simulated"];
  const double base_ratio = json["columns"][0]["ratio_simulated"].get<double>();
  const double fp16_ratio = json["columns"][1]["ratio_simulated"].get<double>();
  CHECK(fp16_ratio > base["high"].get<double>());
  CHECK(base_ratio < fp16["low"].get<double>());
  CHECK(fp16_ratio == doctest::Approx(2.0 * base_ratio).epsilon(0.10));
}
