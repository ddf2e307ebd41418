// The arithmetic of `sonicsim bench`'s figures, apart from the runs: CPU seconds from an rusage, how a cost
// grows with a size, and a peer's printed rate. Pure code, unit-tested.
#pragma once

#include <optional>
#include <string>

struct rusage;

namespace sonicsim {

// User + system seconds of an rusage (getrusage, or wait4's of a child and what it waited for).
double cpu_seconds(const rusage& usage);

// The exponent k of cost = c x size^k through two measurements: 1 is linear, 2 quadratic. Throws
// std::invalid_argument unless both sizes and costs are positive and the sizes differ.
double scaling_exponent(double size_a, double cost_a, double size_b, double cost_b);

// The rate a peer printed as "req/s=N" in its output; none when it printed none or N is not a positive
// number.
std::optional<double> printed_requests_per_s(const std::string& output);

} // namespace sonicsim
