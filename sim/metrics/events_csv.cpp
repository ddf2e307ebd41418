#include "sim/metrics/events_csv.hpp"

#include "sim/metrics/operations_recorder.hpp"
#include "sim/metrics/run_recorder.hpp"
#include "sim/text/csv.hpp"

#include <charconv>
#include <ostream>
#include <type_traits>

namespace sonicsim {
namespace {

// A field after a comma (none before the first): an integer, or a double as printf's %.9g (std::to_chars
// with a precision is specified so). A stream at precision 9 wrote the same text, and took a quarter of a
// large run's time doing it.
template <typename Number> void append_field(std::string& row, Number value) {
  if (!row.empty()) row.push_back(',');
  char text[32];
  std::to_chars_result written;
  if constexpr (std::is_floating_point_v<Number>)
    written = std::to_chars(text, text + sizeof text, value, std::chars_format::general, 9);
  else
    written = std::to_chars(text, text + sizeof text, value);
  row.append(text, written.ptr);
}

} // namespace

void write_events_csv_header(std::ostream& out, const std::vector<std::string>& module_names, bool outcome) {
  out << "job,event,start_s,end_s,event_s";
  for (const auto& name : module_names)
    out << ',' << csv_field(name + "_s");
  out << ",requests,retries,inferences,failed,warmup" << (outcome ? ",outcome\n" : "\n");
}

void write_events_csv_row(std::ostream& out, const EventRecord& event, bool outcome, std::string& row) {
  row.clear();
  append_field(row, event.job);
  append_field(row, event.event_index);
  append_field(row, event.start_s);
  append_field(row, event.end_s);
  append_field(row, event.end_s - event.start_s);
  for (const double t : event.module_s)
    append_field(row, t);
  append_field(row, event.requests);
  append_field(row, event.retries);
  append_field(row, event.inferences);
  append_field(row, event.failed ? 1 : 0);
  append_field(row, event.warmup ? 1 : 0);
  if (outcome) row.append(",").append(event_outcome_name(event.outcome));
  row.push_back('\n');
  out.write(row.data(), static_cast<std::streamsize>(row.size()));
}

} // namespace sonicsim
