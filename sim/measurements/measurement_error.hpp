// An error in a measurement file a scenario or a command reads (a perf_analyzer or Model Analyzer CSV, a
// Triton config.pbtxt): it names the file and, when known, the line. Like a ScenarioError it exits with
// code 2.
#pragma once

#include <stdexcept>
#include <string>

namespace sonicsim::measurements {

struct MeasurementError : std::runtime_error {
  MeasurementError(const std::string& file, int line, const std::string& message)
      : std::runtime_error(file + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + message),
        file_name(file), line_number(line) {}
  std::string file_name;
  int line_number = 0; // 0: the file as a whole
};

} // namespace sonicsim::measurements
