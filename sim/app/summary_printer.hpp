// The short human summary `sonicsim run` prints.
#pragma once

#include "sim/metrics/run_recorder.hpp"
#include "sim/scenario/scenario.hpp"

#include <iosfwd>

namespace sonicsim {

void print_run_summary(std::ostream& out, const Scenario& scenario, const RunSummary& summary);

} // namespace sonicsim
