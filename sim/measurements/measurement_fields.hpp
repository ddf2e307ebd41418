// One field of a measurement CSV (perf_analyzer, Model Analyzer): its text without surrounding blanks, or a
// number >= 0, with the file, line and column named when it is not one.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sonicsim::measurements {

// One non-blank line of a CSV file, split into fields, with its line number.
struct CsvRecord {
  int line = 0;
  std::vector<std::string> fields;
};

// Every non-blank line of the file. Throws MeasurementError naming the file when it cannot be opened (`what`
// says what was expected) and the line of an unterminated quote.
std::vector<CsvRecord> read_csv_records(const std::string& path, const std::string& what);

std::string trimmed_field(const std::string& text);

// The field as a finite number (blanks around it allowed, nothing else after it); none otherwise.
std::optional<double> finite_field(const std::string& text);

// Throws MeasurementError "FILE:LINE: column 'COLUMN': got "TEXT"; expected a number >= 0".
double non_negative_number(const std::string& text, const std::string& column, const std::string& path,
                           int line);

} // namespace sonicsim::measurements
