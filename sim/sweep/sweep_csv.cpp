#include "sim/sweep/sweep_csv.hpp"

#include "sim/text/csv.hpp"

#include <cstdlib>
#include <fstream>
#include <istream>
#include <stdexcept>

namespace sonicsim {

std::size_t CsvTable::column(const std::string& name) const {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  throw std::out_of_range(file + ": no column '" + name + "'; expected the file as sonicsim writes it");
}

std::vector<std::optional<double>> CsvTable::optional_numbers(const std::string& name) const {
  const std::size_t index = column(name);
  std::vector<std::optional<double>> values;
  for (const auto& row : rows) {
    const std::string& field = row[index];
    if (field.empty()) {
      values.push_back(std::nullopt);
      continue;
    }
    char* end = nullptr;
    const double value = std::strtod(field.c_str(), &end);
    if (end == field.c_str() || *end != '\0')
      throw std::runtime_error(file + ": row " + std::to_string(values.size() + 1) + ", column '" + name +
                               "': '" + field.substr(0, 40) + "' is not a number");
    values.push_back(value);
  }
  return values;
}

std::vector<double> CsvTable::numbers(const std::string& name) const {
  std::vector<double> values;
  for (const auto& value : optional_numbers(name)) {
    if (!value)
      throw std::runtime_error(file + ": row " + std::to_string(values.size() + 1) + ", column '" + name +
                               "' is empty; expected a number");
    values.push_back(*value);
  }
  return values;
}

CsvTable read_csv(std::istream& in) {
  CsvTable table;
  std::string line;
  if (std::getline(in, line)) table.header = split_csv_line(line);
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    table.rows.push_back(split_csv_line(line));
    if (table.rows.back().size() != table.header.size())
      throw std::runtime_error(table.file + ": row " + std::to_string(table.rows.size()) + " has " +
                               std::to_string(table.rows.back().size()) + " fields, the header " +
                               std::to_string(table.header.size()));
  }
  return table;
}

CsvTable read_csv_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read '" + path + "'");
  try {
    CsvTable table = read_csv(in);
    table.file = path;
    return table;
  } catch (const std::runtime_error& error) {
    const std::string text = error.what();
    throw std::runtime_error(text.rfind("CSV:", 0) == 0 ? path + text.substr(3) : path + ": " + text);
  }
}

} // namespace sonicsim
