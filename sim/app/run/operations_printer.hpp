// The operations lines of `run`'s summary (summary.json's `operations`): each pooled group's pods and
// device-hours against a static deployment of its peak, and what became of every event and request.
#pragma once

#include "sim/metrics/operations_summary.hpp"

#include <ostream>

namespace sonicsim {

void print_operations_lines(std::ostream& out, const OperationsSummary& operations);

} // namespace sonicsim
