#include "sim/calibration/measured_series.hpp"

#include "sim/measurements/measurement_error.hpp"
#include "sim/measurements/measurement_fields.hpp"

#include <algorithm>

namespace sonicsim::calibration {
namespace {

using measurements::MeasurementError;

std::size_t column_index(const measurements::CsvRecord& header, const std::string& name,
                         const std::string& path, const std::string& role) {
  for (std::size_t i = 0; i < header.fields.size(); ++i)
    if (measurements::trimmed_field(header.fields[i]) == name) return i;
  // A file with one field per line is not a CSV of series (a wrong path): its first line is not echoed.
  if (header.fields.size() < 2)
    throw MeasurementError(path, header.line,
                           "no column '" + name + "' (" + role +
                               "): the first line is not a comma-separated header; expected a CSV of "
                               "measured series (series, x, y, sd columns)");
  std::string known;
  for (const auto& field : header.fields)
    known += (known.empty() ? "'" : ", '") + measurements::trimmed_field(field) + "'";
  throw MeasurementError(path, header.line,
                         "no column '" + name + "' (" + role + "); the header has " + known);
}

// The cell as a finite number, or an error at its line and column.
double finite_number(const std::string& text, const std::string& column, const std::string& path, int line,
                     const std::string& expected) {
  const auto value = measurements::finite_field(text);
  if (!value)
    throw MeasurementError(path, line,
                           "column '" + column + "': got \"" + measurements::trimmed_field(text) +
                               "\"; expected " + expected);
  return *value;
}

} // namespace

std::vector<MeasuredPoint> read_measured_series(const std::string& path, const std::string& series,
                                                const SeriesColumns& columns,
                                                const std::vector<double>& exclude) {
  const auto records = measurements::read_csv_records(path, "a CSV of measured series");
  if (records.empty())
    throw MeasurementError(path, 0, "empty file; expected a header and rows of measured series");
  const auto& header = records.front();
  const std::size_t series_column = column_index(header, "series", path, "each row's series");
  const std::size_t x_column = column_index(header, columns.x, path, "--x");
  const std::size_t y_column = column_index(header, columns.y, path, "--y");
  const std::size_t sd_column = column_index(header, columns.sd, path, "--sd");
  std::vector<MeasuredPoint> points;
  for (std::size_t r = 1; r < records.size(); ++r) {
    const auto& [line, fields] = records[r];
    if (fields.size() != header.fields.size())
      throw MeasurementError(path, line,
                             "got " + std::to_string(fields.size()) + " fields; expected " +
                                 std::to_string(header.fields.size()) + ", as in the header");
    if (measurements::trimmed_field(fields[series_column]) != series) continue;
    MeasuredPoint point;
    point.line = line;
    point.x = finite_number(fields[x_column], columns.x, path, line, "a finite number (the varied quantity)");
    point.y = finite_number(fields[y_column], columns.y, path, line, "a finite measured value");
    if (!(point.y >= smallest_measured_value && point.y <= largest_measured_value))
      throw MeasurementError(path, line,
                             "column '" + columns.y + "': got " +
                                 measurements::trimmed_field(fields[y_column]) +
                                 "; expected a measured value between 1e-9 and 1e12 (a time in seconds or a "
                                 "rate per second)");
    point.sd = finite_number(fields[sd_column], columns.sd, path, line, "a finite standard deviation");
    if (!(point.sd > 0.0) || point.sd < smallest_relative_sd * point.y)
      throw MeasurementError(
          path, line,
          "column '" + columns.sd + "': got " + measurements::trimmed_field(fields[sd_column]) +
              "; expected a standard deviation > 0 and at least 1e-9 of the measured value "
              "(residuals are counted in it)");
    if (std::find(exclude.begin(), exclude.end(), point.x) == exclude.end()) points.push_back(point);
  }
  if (points.empty())
    throw MeasurementError(path, 0,
                           "no row with series '" + series + "'" +
                               (exclude.empty() ? "" : " outside --exclude") +
                               "; expected rows whose 'series' column is '" + series + "'");
  return points;
}

} // namespace sonicsim::calibration
