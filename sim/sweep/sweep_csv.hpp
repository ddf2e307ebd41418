// Reading sweep.csv and fits.csv back (tests, validation cases built on a sweep, merging tools): a header row
// and data rows, fields quoted as write_sweep_csv quotes them.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

struct CsvTable {
  std::string file = "CSV"; // where it was read from, for errors
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;

  // Index of a column; throws std::out_of_range naming it and the file when absent.
  std::size_t column(const std::string& name) const;
  // A column as numbers; a field that is empty or not a number throws std::runtime_error naming the file, the
  // row and the column.
  std::vector<double> numbers(const std::string& name) const;
  // A column whose empty fields mean "no value" (a figure the run does not define, an analytic column of a
  // scenario without one): those are empty optionals; a field that is not a number still throws.
  std::vector<std::optional<double>> optional_numbers(const std::string& name) const;
};

// Throws std::runtime_error on an unterminated quote or a row with a different number of fields.
CsvTable read_csv(std::istream& in);
CsvTable read_csv_file(const std::string& path);

} // namespace sonicsim
