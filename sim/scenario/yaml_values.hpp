// Typed reads of one YAML value through a Cursor: the value with its unit, converted to SI, or a
// ScenarioError that says where, which key, what was written and what is expected.
#pragma once

#include <string>
#include <vector>

#include "sim/scenario/scenario.hpp"
#include "sim/scenario/yaml_cursor.hpp"

namespace sonicsim {

// Physical bounds every value of a kind obeys after unit conversion (docs/scenario_reference.md, "Bounds").
// A value beyond them is a typo, and would overflow or stall the simulation: it is an error naming the key.
// Durations: at most 10 years of simulated time (the longest studied campaign is three weeks).
constexpr double max_duration_s = 10.0 * 365.25 * 86400.0;
// ... and, unless 0, at least 1 ps: a smaller one is below the resolution of a simulated clock that runs to
// 1e6 s, and a denormal one divides into infinity.
constexpr double min_duration_s = 1e-12;
// Bandwidths: at most 1 Pb/s (the fastest links of 2024 carry 0.8 Tb/s).
constexpr double max_bandwidth_bps = 1e15;
// Sizes: at most 1 TB (a whole event's inputs are megabytes to gigabytes).
constexpr double max_bytes = 1e12;
// Plain numbers: at most 1e15 in magnitude (throughputs, fractions, ratios, prices).
constexpr double max_number = 1e15;

double read_duration_s(const Cursor& c);    // finite, |value| <= max_duration_s
double read_bytes(const Cursor& c);         // finite, |value| <= max_bytes
double read_bandwidth_bps(const Cursor& c); // finite, |value| <= max_bandwidth_bps
double read_number(const Cursor& c);        // finite, |value| <= max_number
int read_int(const Cursor& c, int minimum, int maximum = 1'000'000'000); // an integer in [minimum, maximum]
bool read_bool(const Cursor& c);
std::uint64_t read_seed(const Cursor& c); // an integer in [0, 2^64 - 1]
std::string read_string(const Cursor& c);
std::string read_choice(const Cursor& c, const std::vector<std::string>& choices);

// What a distribution is a distribution of: it decides the unit of its parameters.
enum class Quantity { duration, count };
// A scalar is a constant ("110s", 55000); a map {dist: ..., parameters} is checked for the parameters of that
// distribution and their ranges (sd >= 0, mean > 0 for lognormal/exponential, min <= max, values >= 0).
DistributionSpec read_distribution(const Cursor& c, Quantity quantity);

// Fails with "got VALUE; expected EXPECTED" unless ok.
inline void require(const Cursor& c, bool ok, const std::string& expected) {
  if (!ok) c.fail_value(expected);
}

} // namespace sonicsim
