// A result file read field by field: every damage is told with the file and the key path, never in the JSON
// library's words (sim/metrics/json_fields.hpp).
#include "sim/metrics/json_fields.hpp"
#include "sim/scenario/input_error.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace sonicsim;
namespace fs = std::filesystem;

namespace {

std::string error_reading(const std::string& text, const std::string& name = "calibration.json") {
  const fs::path dir = fs::temp_directory_path() / "sonicsim_json_fields";
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  try {
    const JsonFields json = JsonFields::read_file(dir / name);
    json.at("parameters").at(0).at("value").number();
    json.at("covariance").at(0).number();
  } catch (const InputError& e) {
    fs::remove_all(dir);
    return e.what();
  }
  fs::remove_all(dir);
  return "no error";
}

} // namespace

TEST_CASE("json fields: damaged result files are named with the key") {
  CHECK(error_reading(R"({"parameters": [{"value": 1.5}], "covariance": [2]})") == "no error");
  // Cut short after line 2: the line and column where the text stops being JSON.
  CHECK(error_reading("{\"parameters\": [\n{\"value\": 1.5").find("calibration.json:2:14: not valid JSON") !=
        std::string::npos);
  CHECK(error_reading("").find("calibration.json: empty") != std::string::npos);
  CHECK(error_reading(R"({"parameters": [{"value": "x"}], "covariance": [2]})")
            .find("key parameters[0].value: got the text \"x\"; expected a number") != std::string::npos);
  CHECK(error_reading(R"({"parameters": [{"value": 1}], "covariance": []})")
            .find("key covariance: got an array of 0; expected an array of at least 1 element(s)") !=
        std::string::npos);
  CHECK(error_reading(R"({"parameters": [{}], "covariance": [1]})")
            .find("key parameters[0].value is missing") != std::string::npos);
  CHECK(error_reading(R"({"parameters": {"value": 1}})")
            .find("key parameters: got an object of 1 key(s); expected an array") != std::string::npos);
  // Not a regular file: refused before reading (a device would be read without end).
  try {
    JsonFields::read_file(fs::temp_directory_path());
    FAIL("a folder was read");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("not a regular file") != std::string::npos);
  }
}
