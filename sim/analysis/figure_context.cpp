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

double named_figure_value(const FigureName& name, const RunSummary& summary, const Scenario& scenario,
                          const std::string& where) {
  FigureContext context =
      name.figure == Figure::gpu_s_per_event ? figure_context(scenario) : served_figure_context(scenario);
  if (!name.module.empty()) context.modules = {name.module};
  const auto value = value_of(name.figure, summary, context);
  if (!value)
    throw std::runtime_error(where + ": a run does not define " + name.text() +
                             " (no completed event, no such module, or no direct-inference baseline); a fit "
                             "or a prediction needs it at every point");
  return *value;
}

} // namespace sonicsim::analysis
