// Reading Model Analyzer's metrics-model-inference.csv (tests/data/model_analyzer/, a format fixture).
#include "sim/measurements/measurement_error.hpp"
#include "sim/measurements/model_analyzer.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

using namespace sonicsim::measurements;

namespace {
const std::string fixture =
    std::string(SONICSIM_SOURCE_DIR) + "/tests/data/model_analyzer/metrics-model-inference.csv";
}

TEST_CASE("Model Analyzer: per batch size, the highest throughput over concurrencies of one configuration") {
  const auto imported = import_model_analyzer(fixture);
  CHECK(imported.config == "particlenet_AK4_config_0"); // the first in the file
  CHECK(imported.configs.size() == 2);
  CHECK(imported.rows.size() == 5);
  REQUIRE(imported.curve_points.size() == 3);
  CHECK(imported.curve_points[0] == std::pair<double, double>(1, 806.0)); // concurrency 4 beats 1
  CHECK(imported.curve_points[1] == std::pair<double, double>(16, 4715.7));
  CHECK(imported.curve_points[2] == std::pair<double, double>(256, 5512.5));
  CHECK(imported.rows[1].p99_latency_s == doctest::Approx(6.34e-3));
  CHECK(imported.rows[1].gpu_utilisation == doctest::Approx(0.38));
  // 38 % GPU at the batch-1 peak: the server set the rate, and the note says what the device could do.
  CHECK(imported.notes.at(0).find("the device could run about 2121/s") != std::string::npos);
  // Another configuration by name.
  const auto second = import_model_analyzer(fixture, "particlenet_AK4_config_1");
  REQUIRE(second.curve_points.size() == 1);
  CHECK(second.curve_points[0].second == doctest::Approx(5120.3));
}

TEST_CASE("Model Analyzer: bad files name the file, the line and what is expected") {
  const auto dir = std::filesystem::temp_directory_path() / "sonicsim_model_analyzer_unit";
  std::filesystem::create_directories(dir);
  const auto missing = (dir / "missing.csv").string();
  std::ofstream(missing) << "Model,Batch,Throughput (infer/sec)\nm,1,10\n";
  CHECK_THROWS_WITH_AS(import_model_analyzer(missing),
                       doctest::Contains("missing.csv:1: missing column 'Concurrency'"), MeasurementError);
  const auto bad = (dir / "bad.csv").string();
  std::ofstream(bad) << "Batch,Concurrency,Throughput (infer/sec)\n1,4,lots\n";
  CHECK_THROWS_WITH_AS(import_model_analyzer(bad),
                       doctest::Contains("bad.csv:2: column 'Throughput (infer/sec)'"), MeasurementError);
  CHECK_THROWS_WITH_AS(import_model_analyzer(fixture, "nope"), doctest::Contains("no configuration 'nope'"),
                       MeasurementError);
}
