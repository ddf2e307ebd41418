#include "sim/analysis/figure_context.hpp"

#include "sim/analysis/scenario_parameters.hpp"
#include "sim/scenario/input_error.hpp"

#include <stdexcept>

namespace sonicsim::analysis {

FigureContext figure_context(const Scenario& scenario) {
  FigureContext context = served_figure_context(scenario);
  try {
    context.inferences_per_event = derive_parameters(scenario).inferences;
  } catch (const InputError&) {
    // No accelerated module: no inferences per event.
  } catch (const std::invalid_argument&) {
    // A degenerate model (zero GPU time): likewise.
  }
  return context;
}

} // namespace sonicsim::analysis
