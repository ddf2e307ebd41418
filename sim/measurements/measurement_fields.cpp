#include "sim/measurements/measurement_fields.hpp"

#include "sim/measurements/measurement_error.hpp"

#include <cmath>
#include <cstdlib>

namespace sonicsim::measurements {

std::string trimmed_field(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

double non_negative_number(const std::string& text, const std::string& column, const std::string& path,
                           int line) {
  const std::string trimmed = trimmed_field(text);
  char* end = nullptr;
  const double value = std::strtod(trimmed.c_str(), &end);
  if (trimmed.empty() || end != trimmed.c_str() + trimmed.size() || !std::isfinite(value) || value < 0.0)
    throw MeasurementError(path, line,
                           "column '" + column + "': got \"" + trimmed + "\"; expected a number >= 0");
  return value;
}

} // namespace sonicsim::measurements
