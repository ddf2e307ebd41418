#include "sim/measurements/measurement_fields.hpp"

#include "sim/measurements/measurement_error.hpp"

#include "sim/text/csv.hpp"
#include "sim/text/input_file.hpp"
#include "sim/text/utf8.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace sonicsim::measurements {

std::string trimmed_field(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

std::vector<CsvRecord> read_csv_records(const std::string& path, const std::string& what) {
  std::istringstream in;
  try {
    in.str(read_input_file(path));
  } catch (const std::runtime_error& e) {
    throw MeasurementError(path, 0, std::string(e.what()) + "; expected " + what);
  }
  std::vector<CsvRecord> records;
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    // A spreadsheet may save with a UTF-8 byte-order mark and CRLF line ends: neither is part of a field.
    if (line == 1 && text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (trimmed_field(text).empty()) continue;
    if (const auto bad = first_non_text_byte(text)) {
      char byte[8];
      std::snprintf(byte, sizeof byte, "0x%02X",
                    static_cast<unsigned>(static_cast<unsigned char>(text[*bad])));
      throw MeasurementError(path, line,
                             "column " + std::to_string(*bad + 1) + ": byte " + byte +
                                 " is not text (a control character or malformed UTF-8); expected " + what);
    }
    try {
      records.push_back(CsvRecord{line, split_csv_line(text)});
    } catch (const std::exception&) {
      throw MeasurementError(path, line, "a quoted field is not closed on its line; expected " + what);
    }
  }
  return records;
}

std::optional<double> finite_field(const std::string& text) {
  const std::string trimmed = trimmed_field(text);
  char* end = nullptr;
  const double value = std::strtod(trimmed.c_str(), &end);
  if (trimmed.empty() || end != trimmed.c_str() + trimmed.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

double non_negative_number(const std::string& text, const std::string& column, const std::string& path,
                           int line) {
  const auto value = finite_field(text);
  if (!value || *value < 0.0)
    throw MeasurementError(
        path, line, "column '" + column + "': got \"" + trimmed_field(text) + "\"; expected a number >= 0");
  return *value;
}

} // namespace sonicsim::measurements
