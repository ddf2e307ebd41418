#include "events_comparison.hpp"

#include "sim/sweep/sweep_csv.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace sonicsim::testing {
namespace {

// One unit of the 9th significant digit of `value`: what events.csv can show.
double print_resolution(double value) {
  const double magnitude = std::fabs(value);
  if (magnitude == 0.0) return 0.0;
  return std::pow(10.0, std::floor(std::log10(magnitude)) - 8.0);
}

} // namespace

EventsComparison compare_events(const std::filesystem::path& a_csv, const std::filesystem::path& b_csv) {
  const auto a = read_csv_file(a_csv.string()), b = read_csv_file(b_csv.string());
  // By job, event and how often that pair was seen before (a preempted job's event is tried again).
  using Key = std::tuple<std::string, std::string, int>;
  std::map<Key, const std::vector<std::string>*> by_event;
  std::map<std::pair<std::string, std::string>, int> seen_b, seen_a;
  for (const auto& row : b.rows)
    by_event[{row[0], row[1], seen_b[{row[0], row[1]}]++}] = &row;
  EventsComparison out;
  out.unmatched =
      a.rows.size() > b.rows.size() ? a.rows.size() - b.rows.size() : b.rows.size() - a.rows.size();
  for (const auto& row : a.rows) {
    const auto found = by_event.find({row[0], row[1], seen_a[{row[0], row[1]}]++});
    if (found == by_event.end()) {
      ++out.unmatched;
      continue;
    }
    ++out.events;
    for (const std::size_t column : {a.column("start_s"), a.column("end_s"), a.column("event_s")}) {
      const double x = std::stod(row[column]), y = std::stod((*found->second)[column]);
      const double difference = std::fabs(x - y);
      out.worst_s = std::max(out.worst_s, difference);
      const double tolerance = std::max(1e-6, 2.0 * print_resolution(std::max(std::fabs(x), std::fabs(y))));
      if (difference > tolerance) ++out.beyond;
    }
  }
  return out;
}

} // namespace sonicsim::testing
