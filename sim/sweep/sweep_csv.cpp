#include "sim/sweep/sweep_csv.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <istream>
#include <limits>
#include <stdexcept>

namespace sonicsim {
namespace {

// Splits one line; a quoted field may hold commas and doubled quotes (never a newline in sweep output).
std::vector<std::string> split_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  if (quoted) throw std::runtime_error("CSV: unterminated quote in '" + line + "'");
  return fields;
}

} // namespace

std::size_t CsvTable::column(const std::string& name) const {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  throw std::out_of_range("CSV: no column '" + name + "'");
}

std::vector<double> CsvTable::numbers(const std::string& name) const {
  const std::size_t index = column(name);
  std::vector<double> values;
  for (const auto& row : rows) {
    const std::string& field = row[index];
    values.push_back(field.empty() ? std::numeric_limits<double>::quiet_NaN()
                                   : std::strtod(field.c_str(), nullptr));
  }
  return values;
}

CsvTable read_csv(std::istream& in) {
  CsvTable table;
  std::string line;
  if (std::getline(in, line)) table.header = split_line(line);
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    table.rows.push_back(split_line(line));
    if (table.rows.back().size() != table.header.size())
      throw std::runtime_error("CSV: row " + std::to_string(table.rows.size()) + " has " +
                               std::to_string(table.rows.back().size()) + " fields, the header " +
                               std::to_string(table.header.size()));
  }
  return table;
}

CsvTable read_csv_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read '" + path + "'");
  return read_csv(in);
}

} // namespace sonicsim
