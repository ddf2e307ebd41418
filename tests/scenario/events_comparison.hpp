// Test helper: two runs' events.csv compared event by event (matched by job, event number and try).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace sonicsim::testing {

struct EventsComparison {
  std::size_t events = 0;    // matched in both files
  std::size_t unmatched = 0; // in one file only
  std::size_t beyond = 0;    // start, end or duration apart by more than the tolerance
  double worst_s = 0.0;      // the largest difference seen
};

// Each event's start_s, end_s and event_s agree within 1e-6 s, or within the file's own resolution (9
// significant digits, two units of the last), or within 1e-8 of the event's end date (SimGrid's roundings of
// dates add up over a run), whichever is coarsest.
EventsComparison compare_events(const std::filesystem::path& a_csv, const std::filesystem::path& b_csv);

// Where simultaneous events make two exact-in-law ways of simulating part event by event (a rounding decides
// which of two flows that end together is handed over first, and the runs then differ as two seeds would):
// paired replications (the same 8 seeds) of `arguments` with `settings_a` and with `settings_b`, checked with
// doctest. The mean event time's paired differences have a 99 % interval (Student t, 7 degrees of freedom:
// 3.499483) that contains 0, or are within an equivalence margin of 1e-4 of the mean (30 times below the
// seed-to-seed 95 % interval of these means, about 0.3 %: no figure a user reads can tell the two apart).
// 99 % rather than 95 %: several scenarios are checked this way, and a bias is what is looked for, not a
// 1-in-20 draw. At the length the scenario writes (precision rule off): a bias shows in every event.
void check_paired_event_means(const std::string& name, const std::string& arguments,
                              const std::string& settings_a, const std::string& settings_b);

} // namespace sonicsim::testing
