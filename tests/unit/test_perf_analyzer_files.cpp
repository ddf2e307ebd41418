// Reading perf_analyzer -f CSV files: columns by name, batch size from the file name, errors with file and
// line.
#include "sim/measurements/measurement_error.hpp"
#include "sim/measurements/perf_analyzer.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

using namespace sonicsim::measurements;

namespace {

const char* const header = "Concurrency,Inferences/Second,Client Send,Network+Server Send/Recv,Server Queue,"
                           "Server Compute Input,Server Compute Infer,Server Compute Output,Client Recv,"
                           "p50 latency,p90 latency,p95 latency,p99 latency\n";

std::string write(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "sonicsim_perf_analyzer_unit";
  std::filesystem::create_directories(dir);
  const auto path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

std::string error_of(const std::string& path, std::optional<int> batch = std::nullopt) {
  try {
    read_perf_analyzer_file(path, batch);
  } catch (const MeasurementError& e) {
    return e.what();
  }
  return "no error";
}

} // namespace

TEST_CASE("batch sizes from perf_analyzer file names") {
  CHECK(batch_size_from_name("particlenet_AK4_PT_batch64.csv") == 64);
  CHECK(batch_size_from_name("/a/b/deepmet-b8.csv") == 8);
  CHECK(batch_size_from_name("model_b16_run2.csv") == 16);
  CHECK_FALSE(batch_size_from_name("results.csv").has_value());
  CHECK_FALSE(batch_size_from_name("bob12.csv").has_value()); // "b" must start a word
}

TEST_CASE("a perf_analyzer file is read by column name, in seconds") {
  const auto path =
      write("m_batch16.csv", std::string(header) + "4,4715.73,27,1110,4302,185,2966,4905,2,13228,"
                                                   "14000,14414,17461\n");
  const auto file = read_perf_analyzer_file(path);
  CHECK(file.batch_size == 16);
  REQUIRE(file.rows.size() == 1);
  CHECK(file.rows[0].line == 2);
  CHECK(file.rows[0].concurrency == 4);
  CHECK(file.rows[0].inferences_per_s == doctest::Approx(4715.73));
  CHECK(file.rows[0].compute_infer_s == doctest::Approx(2966e-6));
  CHECK(file.rows[0].compute_output_s == doctest::Approx(4905e-6));
  CHECK(file.rows[0].p95_s == doctest::Approx(14414e-6));
  // Two files of one batch size are an error.
  CHECK_THROWS_AS(import_perf_analyzer({path, path}, std::nullopt, 0, 0), MeasurementError);
}

TEST_CASE("bad perf_analyzer files name the file, the line and what is expected") {
  // A missing column.
  const auto missing = write("missing_batch4.csv", "Concurrency,Inferences/Second\n4,100\n");
  CHECK(error_of(missing).find("missing_batch4.csv:1: missing column 'Client Send'") != std::string::npos);
  // A batch size the name does not state, and none given.
  const auto unnamed = write("results.csv", std::string(header) + "4,1,1,1,1,1,1,1,1,1,1,1,1\n");
  CHECK(error_of(unnamed).find("results.csv: cannot find the batch size") != std::string::npos);
  CHECK(error_of(unnamed, 32) == "no error");
  // A value that is not a number.
  const auto text = write("text_batch2.csv", std::string(header) + "4,fast,1,1,1,1,1,1,1,1,1,1,1\n");
  CHECK(error_of(text).find(
            "text_batch2.csv:2: column 'Inferences/Second': got \"fast\"; expected a number >= 0") !=
        std::string::npos);
  // A header and no data.
  const auto empty = write("empty_batch2.csv", header);
  CHECK(error_of(empty).find("empty_batch2.csv:1: no data row after the header") != std::string::npos);
}
