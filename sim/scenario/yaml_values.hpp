// Typed reads of one YAML value through a Cursor: the value with its unit, converted to SI, or a
// ScenarioError that says where, which key, what was written and what is expected.
#pragma once

#include <string>
#include <vector>

#include "sim/scenario/scenario.hpp"
#include "sim/scenario/yaml_cursor.hpp"

namespace sonicsim {

double read_duration_s(const Cursor& c);
double read_bytes(const Cursor& c);
double read_bandwidth_bps(const Cursor& c);
double read_number(const Cursor& c);
int read_int(const Cursor& c, int minimum); // an integer >= minimum
bool read_bool(const Cursor& c);
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
