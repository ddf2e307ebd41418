// Test helper: two runs' events.csv compared event by event (matched by job, event number and try).
#pragma once

#include <cstddef>
#include <filesystem>

namespace sonicsim::testing {

struct EventsComparison {
  std::size_t events = 0;    // matched in both files
  std::size_t unmatched = 0; // in one file only
  std::size_t beyond = 0;    // start, end or duration apart by more than the tolerance
  double worst_s = 0.0;      // the largest difference seen
};

// Each event's start_s, end_s and event_s agree within 1e-6 s, or within the file's own resolution (9
// significant digits, two units of the last) where that is coarser.
EventsComparison compare_events(const std::filesystem::path& a_csv, const std::filesystem::path& b_csv);

} // namespace sonicsim::testing
