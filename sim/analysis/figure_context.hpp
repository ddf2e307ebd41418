// What the figure table needs from a scenario to read its figures: which modules module_mean_s sums (the
// remote-inference ones a server serves), the prices of the cost per event and the mean inferences per event
// behind the GPU time per event.
#pragma once

#include "sim/metrics/figure_table.hpp"
#include "sim/scenario/scenario.hpp"

namespace sonicsim::analysis {

// The scenario must outlive the context (it holds a pointer to it). A scenario without an accelerated module
// gives no modules and no inferences: its module and GPU-time figures are then undefined.
FigureContext figure_context(const Scenario& scenario);

} // namespace sonicsim::analysis
