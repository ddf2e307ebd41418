// The direct-inference baseline CMS quotes SONIC's gain against: the same jobs with every model on their own
// CPU. `run` simulates it beside a run; validate and calibrate simulate it as a run of their batch and join
// the two summaries here, so every command computes the gain one way.
#pragma once

#include "sim/metrics/run_summary.hpp"
#include "sim/scenario/scenario.hpp"

#include <optional>

namespace sonicsim {

// The scenario with every remote module run directly, when each states its direct-inference time and some
// model is served; none otherwise (nothing to compare, or this is the baseline already). Not for campaigns
// (their jobs come and go).
std::optional<Scenario> direct_inference_baseline(const Scenario& scenario);

// Sets service.direct_inference from the baseline's summary: both sides by one figure, events per second per
// job in each run's steady-state window. Nothing when either run completed no event.
void compare_with_direct(RunSummary& service, const RunSummary& direct);

} // namespace sonicsim
