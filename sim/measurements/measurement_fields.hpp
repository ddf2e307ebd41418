// One field of a measurement CSV (perf_analyzer, Model Analyzer): its text without surrounding blanks, or a
// number >= 0, with the file, line and column named when it is not one.
#pragma once

#include <string>

namespace sonicsim::measurements {

std::string trimmed_field(const std::string& text);

// Throws MeasurementError "FILE:LINE: column 'COLUMN': got "TEXT"; expected a number >= 0".
double non_negative_number(const std::string& text, const std::string& column, const std::string& path,
                           int line);

} // namespace sonicsim::measurements
