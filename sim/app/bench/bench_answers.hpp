// `sonicsim bench` beyond the kernel's speed: the answers a user waits for (a plan, validation) timed as
// whole commands, the campaign's cost against its size, and the SimPy peer measured side by side. Each figure
// is printed with the goal it is held to (issue "answers in seconds"), so that a change shows its cost.
#pragma once

#include "sim/app/common/output_options.hpp"
#include "sim/metrics/bench_figures.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

// A whole command's cost: wall seconds, and CPU seconds of it and every process it waited for (its
// simulations), which other load on the machine does not inflate.
struct CommandTiming {
  double wall_s = 0.0;
  double cpu_s = 0.0;
  int exit_code = 0;
};

// Runs this executable with `words` (its output discarded) and times it.
CommandTiming time_command(const std::vector<std::string>& words);

// The simulated requests per wall second the SimPy peer printed ("req/s=N") for `jobs` clients of `events`
// events each, run with Debian's python3 (the peer imports python3-simpy3); none when it failed.
std::optional<double> peer_requests_per_s(const std::string& script, int jobs, int events);

// The answers a user waits for (a plan, the plan comparing device types, a teacher's two sweeps, validate
// --fast and all of it; with_calibration: the CMS spec's calibration from its fit and whole, about an hour),
// each as a whole command in a child (output into a temporary directory of its own), with the goal it is
// held to.
nlohmann::ordered_json time_answers(const TextOutput& say, bool with_calibration);

} // namespace sonicsim
