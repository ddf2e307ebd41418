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

// A figure as a user names it (narrowed to a module or not) in one run of the scenario: the scenario's
// context, with its inferences per event only for the one figure that needs them (2,000 drawn request splits,
// not for every point of every evaluation). Throws std::runtime_error starting with `where` when the run does
// not define it: a fit or a prediction needs a value at every point.
double named_figure_value(const FigureName& name, const RunSummary& summary, const Scenario& scenario,
                          const std::string& where);

} // namespace sonicsim::analysis
