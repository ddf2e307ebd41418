// A date as an unsigned integer that orders as the dates do, for the event calendar's heap
// (sim/kernel/event_calendar.hpp): integer compares instead of floating-point ones, and an entry of two
// integers (date, then scheduling order) in 16 bytes.
//
// The usual map of IEEE-754 doubles: a non-negative one's sign bit set, a negative one's bits all inverted
// (so more negative is smaller). -0.0 is taken as 0.0 first, so that equal dates give equal keys and their
// tie goes to the scheduling order, as a floating-point compare would. NaN has no place (the calendar refuses
// it before it gets a key).
#pragma once

#include <cstdint>
#include <cstring>

namespace sonicsim {

inline std::uint64_t date_key(double date_s) {
  const double normal_s = date_s + 0.0; // -0.0 + 0.0 is +0.0
  std::uint64_t bits = 0;
  std::memcpy(&bits, &normal_s, sizeof bits);
  return bits >> 63 ? ~bits : bits | (std::uint64_t{1} << 63);
}

inline double date_from_key(std::uint64_t key) {
  const std::uint64_t bits = key >> 63 ? key & ~(std::uint64_t{1} << 63) : ~key;
  double date_s = 0.0;
  std::memcpy(&date_s, &bits, sizeof date_s);
  return date_s;
}

} // namespace sonicsim
