// What the fitted scenario says at each measured point in the units the released facts are stated in: the
// device's inferences per second and each served model's input bytes per second per job, beside what the
// measured rate gives with the released bytes per event (the spec's constraints), each residual in units of
// its uncertainty. A reader checks a fit against what they know of the deployment, not only against the
// fitted figure.
#pragma once

#include "sim/app/calibrate/joint_runs.hpp"
#include "sim/app/common/output_options.hpp"

#include <nlohmann/json.hpp>

namespace sonicsim {

// One row per point of each series whose figure is events_per_s_per_job of a run with servers (direct
// baselines have none); printed as a table and returned as calibration.json's `derived`.
nlohmann::ordered_json derived_quantities_json(const JointSpec& spec, const std::vector<SeriesPointRun>& runs,
                                               const TextOutput& say);

} // namespace sonicsim
