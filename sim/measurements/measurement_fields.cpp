#include "sim/measurements/measurement_fields.hpp"

#include "sim/measurements/measurement_error.hpp"

#include "sim/text/csv.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>

namespace sonicsim::measurements {

std::string trimmed_field(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

std::vector<CsvRecord> read_csv_records(const std::string& path, const std::string& what) {
  std::ifstream in(path);
  if (!in) throw MeasurementError(path, 0, "cannot open the file; expected " + what);
  std::vector<CsvRecord> records;
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (trimmed_field(text).empty()) continue;
    try {
      records.push_back(CsvRecord{line, split_csv_line(text)});
    } catch (const std::exception& e) {
      throw MeasurementError(path, line, e.what());
    }
  }
  return records;
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
