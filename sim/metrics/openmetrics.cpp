#include "sim/metrics/openmetrics.hpp"

#include <cmath>
#include <cstdio>
#include <ostream>
#include <stdexcept>

namespace sonicsim {
namespace {

// Label values escape backslash, double quote and line feed (OpenMetrics ABNF).
std::string escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.10g", value);
  return buffer;
}

// Days since 1970-01-01 of a civil date (H. Hinnant's algorithm, proleptic Gregorian calendar).
long days_from_civil(long y, unsigned m, unsigned d);

// Days in `month` (1..12) of `year`, leap years as the Gregorian calendar has them.
int days_in_month(int year, int month) {
  static constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : days[month - 1];
}

long days_from_civil(long y, unsigned m, unsigned d) {
  y -= m <= 2;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long>(doe) - 719468;
}

} // namespace

void write_openmetrics(std::ostream& out, const std::vector<MetricFamily>& families, double start_epoch_s,
                       double interval_s) {
  for (const auto& family : families) {
    out << "# TYPE " << family.name << ' ' << family.type << '\n';
    out << "# HELP " << family.name << ' ' << family.help << '\n';
    for (const auto& series : family.series) {
      std::string labels;
      for (const auto& [name, value] : series.labels)
        labels += (labels.empty() ? "" : ",") + name + "=\"" + escaped(value) + "\"";
      const std::string prefix = family.name + (labels.empty() ? "" : "{" + labels + "}") + ' ';
      for (std::size_t r = 0; r < series.values.size(); ++r) {
        if (!series.present.empty() && !series.present[r]) continue;
        char stamp[48];
        std::snprintf(stamp, sizeof stamp, "%.3f", start_epoch_s + static_cast<double>(r + 1) * interval_s);
        out << prefix << number(series.values[r]) << ' ' << stamp << '\n';
      }
    }
  }
  out << "# EOF\n";
}

double parse_utc_timestamp(const std::string& text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  char zone = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c%c", &year, &month, &day, &hour, &minute, &second,
                  &zone, &extra) != 7 ||
      zone != 'Z' || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 ||
      second > 59 || year < 1970 || year > 2200)
    throw std::invalid_argument("expected a UTC time such as 2024-01-01T00:00:00Z, got '" + text + "'");
  // A day the month does not have (2023-02-29, 2024-04-31) is not a date, not the first of the next month.
  if (day > days_in_month(year, month))
    throw std::invalid_argument("got '" + text + "': " + std::to_string(year) + "-" +
                                (month < 10 ? "0" : "") + std::to_string(month) + " has " +
                                std::to_string(days_in_month(year, month)) +
                                " days; expected a UTC time such as 2024-01-01T00:00:00Z");
  return static_cast<double>(
             days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day))) *
             86400.0 +
         hour * 3600.0 + minute * 60.0 + second;
}

} // namespace sonicsim
