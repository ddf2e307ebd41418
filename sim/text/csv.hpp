// CSV as RFC 4180 writes it, in one place: a field holding a comma, a quote or a line break is quoted, with
// its quotes doubled; reading undoes exactly that. Every CSV sonicsim writes with a user-chosen text in it
// (module names in events.csv, sweep keys and values, bottleneck names) goes through csv_field. Pure code.
#pragma once

#include <string>
#include <vector>

namespace sonicsim {

// The field as written in a CSV line.
std::string csv_field(const std::string& text);

// A number as sonicsim's result CSVs write it: 6 significant digits (so the text depends only on the value),
// and an empty field for NaN (not available).
std::string csv_number(double value);

// The fields of one CSV line (no line break inside a field: sonicsim never writes one in a line it reads
// back). Throws std::runtime_error on an unterminated quote.
std::vector<std::string> split_csv_line(const std::string& line);

} // namespace sonicsim
