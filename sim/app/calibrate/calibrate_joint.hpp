// `sonicsim calibrate --spec FILE`: a joint calibration of several measured series
// (sim/calibration/joint_spec.hpp).
#pragma once

#include "sim/app/common/output_options.hpp"
#include "sim/execution/run_or_submit.hpp"

#include <filesystem>
#include <string>

namespace sonicsim {

// Returns the exit code. `text`: the report on stdout; `json_out`: calibration.json's content on stdout.
// `predict_from`: a calibration.json of the same spec: its fit is taken as it is and only the predictions
// run.
int calibrate_joint(const std::string& spec_path, const ExecutionContext& context,
                    const std::filesystem::path& output_dir, bool text, bool json_out,
                    const std::string& predict_from = "");

} // namespace sonicsim
