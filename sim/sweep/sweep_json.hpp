// A sweep's result as one JSON document (`sweep --json`): each point's varied values, its simulated figures
// (mean and 95 % interval over its replications), the analytic and MVA predictions and the bottleneck, then
// the knee fits. The same numbers as sweep.csv and fits.csv, at full precision; a figure a point does not
// define is left out, never null.
#pragma once

#include "sim/sweep/sweep_table.hpp"

#include <nlohmann/json.hpp>

namespace sonicsim {

nlohmann::ordered_json sweep_to_json(const std::vector<VaryAxis>& axes, const std::vector<SweepRow>& rows,
                                     const std::vector<CurveFit>& fits);

} // namespace sonicsim
