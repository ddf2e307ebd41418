// Strings with units -> SI doubles. The YAML carries every physical quantity with its unit ("12ms", "9216B",
// "10Gbps"); these functions turn them into seconds, bytes and bits per second, or throw UnitError saying
// what was expected. They know nothing about YAML: the scenario loader adds the file, line and key path.
#pragma once

#include <stdexcept>
#include <string>

namespace sonicsim {

// The text could not be read as the requested kind of quantity; what() says what was expected.
struct UnitError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// Durations: ns, us (or µs), ms, s, min, h. "1.5min" -> 90.0. A bare number is an error.
double parse_duration_s(const std::string& text);

// Sizes: B; SI kB, MB, GB, TB (powers of 1000); IEC KiB, MiB, GiB, TiB (powers of 1024). "3MB" -> 3e6.
double parse_bytes(const std::string& text);

// Rates in bits per second: bps/b/s/bit/s with k, M, G, T prefixes ("10Gbps", "100Gb/s", "2Gbit/s"), or bytes
// per second with a capital B ("1.25GBps", "1.25GB/s" -> 1e10). A bare number is an error.
double parse_bandwidth_bps(const std::string& text);

// A plain finite number without a unit ("0.64", "1e3"). A unit suffix is an error.
double parse_number(const std::string& text);

// A plain integer ("16384", "1e3" is accepted because it is integral); fractions and out-of-range values are
// errors.
long long parse_integer(const std::string& text);

} // namespace sonicsim
