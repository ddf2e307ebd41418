// events.csv: a row per event, written as the event ends (RunRecorder::record_event).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace sonicsim {

struct EventRecord;

// The header line: a time column per module (by name), and `outcome` for runs with operations.
void write_events_csv_header(std::ostream& out, const std::vector<std::string>& module_names, bool outcome);

// One event's row, its numbers as printf's %.9g writes them; `row`: a buffer kept between rows.
void write_events_csv_row(std::ostream& out, const EventRecord& event, bool outcome, std::string& row);

} // namespace sonicsim
