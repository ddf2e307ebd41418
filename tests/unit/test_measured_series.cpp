// Reading a measured series for `sonicsim calibrate`: every cell checked where it is read, errors at the
// file, line and column; spreadsheet CSVs (byte-order mark, CRLF) read as written.
#include "sim/calibration/measured_series.hpp"
#include "sim/measurements/measurement_error.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

using sonicsim::calibration::read_measured_series;

namespace {

const char* const header = "series,clients,time_s,time_sd_s\n";

std::string write(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "sonicsim_measured_series_unit";
  std::filesystem::create_directories(dir);
  const auto path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string error_of(const std::string& text, const std::vector<double>& exclude = {}) {
  try {
    read_measured_series(write("data.csv", text), "a", {"clients", "time_s", "time_sd_s"}, exclude);
  } catch (const sonicsim::measurements::MeasurementError& e) {
    return e.what();
  }
  return "no error";
}

} // namespace

TEST_CASE("a measured series: the rows of its series, with their lines") {
  const auto points =
      read_measured_series(write("ok.csv", std::string(header) + "a,4,12.5,0.5\nb,8,99,1\na,16,14,0.7\n"),
                           "a", {"clients", "time_s", "time_sd_s"}, {});
  REQUIRE(points.size() == 2);
  CHECK(points[0].x == 4);
  CHECK(points[0].y == 12.5);
  CHECK(points[0].sd == 0.5);
  CHECK(points[0].line == 2);
  CHECK(points[1].line == 4);
  // --exclude leaves a point out.
  CHECK(read_measured_series(write("ok.csv", std::string(header) + "a,4,12.5,0.5\na,16,14,0.7\n"), "a",
                             {"clients", "time_s", "time_sd_s"}, {16})
            .size() == 1);
}

TEST_CASE("a spreadsheet's byte-order mark and CRLF line ends are not part of the fields") {
  const auto points = read_measured_series(
      write("crlf.csv", "\xEF\xBB\xBFseries,clients,time_s,time_sd_s\r\na,4,12.5,0.5\r\n"), "a",
      {"clients", "time_s", "time_sd_s"}, {});
  REQUIRE(points.size() == 1);
  CHECK(points[0].sd == 0.5);
}

TEST_CASE("a bad cell is reported at its line and column") {
  // Not a number, not finite, or a number followed by something that is not a blank (NUL, no-break space).
  for (const std::string cell : {"", "abc", "inf", "-nan", "1e999", "12 x"})
    CHECK(error_of(std::string(header) + "a,4," + cell + ",0.5\n").find("data.csv:2: column 'time_s'") !=
          std::string::npos);
  CHECK(error_of(std::string(header) + "a,4,12\xC2\xA0,0.5\n").find("data.csv:2: column 'time_s'") !=
        std::string::npos);
  CHECK(error_of(std::string(header) + "a,4,12" + std::string(1, '\0') + ",0.5\n")
            .find("data.csv:2: column 7: byte 0x00 is not text") != std::string::npos);
  // A measured value must be a value: > 0 (at least 1e-9) and at most 1e12.
  for (const std::string cell : {"0", "-0.001", "1e-310", "1e13"})
    CHECK(
        error_of(std::string(header) + "a,4," + cell + ",0.5\n").find("expected a measured value between") !=
        std::string::npos);
  // An sd > 0, not claiming a precision below 1e-9 of the value.
  for (const std::string cell : {"0", "-1", "1e-12"})
    CHECK(error_of(std::string(header) + "a,4,12.5," + cell + "\n").find("column 'time_sd_s'") !=
          std::string::npos);
  CHECK(error_of(std::string(header) + "a,4,12.5\n").find("data.csv:2: got 3 fields; expected 4") !=
        std::string::npos);
  CHECK(error_of(std::string(header) + "\"a,4,12.5,0.5\n").find("data.csv:2: a quoted field is not closed") !=
        std::string::npos);
}

TEST_CASE("missing columns and series are named with what the file has") {
  CHECK(error_of("clients,time_s,time_sd_s\n4,12,1\n").find("data.csv:1: no column 'series'") !=
        std::string::npos);
  CHECK(error_of("series,clients,time_s\na,4,12\n")
            .find("no column 'time_sd_s' (--sd); the header has 'series'") != std::string::npos);
  CHECK(error_of(std::string(header) + "b,4,12.5,0.5\n").find("no row with series 'a'") != std::string::npos);
  CHECK(error_of(std::string(header) + "a,4,12.5,0.5\n", {4}).find("outside --exclude") != std::string::npos);
}
