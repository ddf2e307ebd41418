// How numbers are printed for people: times with significant digits that suit their magnitude (a 110 s CPU
// step and a 4 ms inference in one table), rates in Gb/s, utilisations as percentages. Files (JSON, CSV) keep
// full precision, SI units and fractions; only the terminal uses these. Pure code.
#pragma once

#include <string>

namespace sonicsim {

// Fixed-point with `digits` significant digits, at most 9 decimals and none beyond the units for large
// values: 110.2, 11.93, 0.01234, 0.0001235, 12346. 0 prints as "0"; non-finite values as "nan"/"inf".
std::string significant(double value, int digits = 4);

// A fraction as a percentage with `digits` significant digits: "2.0 %", "0.73 %"; below 0.01 % "<0.01 %".
std::string percent_text(double fraction, int digits = 2);

// A bit rate in Gb/s with 4 significant digits: "1.471 Gb/s".
std::string gbps_text(double bits_per_s);

// 17 significant digits: the text reads back as the same double (a value handed to another process as text,
// e.g. a --set override of an array task).
std::string exact_number_text(double value);

} // namespace sonicsim
