// A measured series as `sonicsim calibrate` reads it: the rows of one series of a CSV file (a 'series' column
// naming each row's series), with the varied quantity, the measured value and its standard deviation. Every
// cell is checked where it is read, so that a bad cell is reported at its file, line and column. Pure code.
#pragma once

#include <string>
#include <vector>

namespace sonicsim::calibration {

struct SeriesColumns {
  std::string x;  // the varied quantity (e.g. clients)
  std::string y;  // the measured observable
  std::string sd; // its standard deviation
};

struct MeasuredPoint {
  double x = 0.0;
  double y = 0.0;
  double sd = 0.0;
  int line = 0; // in the file: errors about what this point sets name it
};

// The largest measured value taken: times in seconds and rates per second are far below it, and a fit on a
// larger one has no finite chi-square.
inline constexpr double largest_measured_value = 1e12;
// The smallest: below a nanosecond (or a rate of 1e-9 per second) a value is a typo or an underflow, and
// relative errors on it overflow.
inline constexpr double smallest_measured_value = 1e-9;
// An sd below this fraction of the value claims a precision no measurement has, and makes chi-square
// overflow.
inline constexpr double smallest_relative_sd = 1e-9;

// The rows of `series` whose x is not in `exclude`. Throws measurements::MeasurementError naming the file,
// the line and the column for a missing column, a row of the wrong width, a cell that is not a finite number,
// a measured value outside [smallest_measured_value, largest_measured_value], or an sd that is not > 0 (nor
// above smallest_relative_sd of the value); and naming the file when no row is in the series. A UTF-8
// byte-order mark and CRLF line ends are read as a spreadsheet writes them.
std::vector<MeasuredPoint> read_measured_series(const std::string& path, const std::string& series,
                                                const SeriesColumns& columns,
                                                const std::vector<double>& exclude);

} // namespace sonicsim::calibration
