// A calibration's model-form estimate (sim/calibration/model_form.hpp) in calibration.json: written after a
// fit, and read back for predictions made from a finished fit (calibrate --spec --predict-from).
#pragma once

#include "sim/app/common/output_options.hpp"
#include "sim/calibration/held_out_coverage.hpp"
#include "sim/calibration/model_form.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace sonicsim {

// The held-out points' coverage by the interval as quoted (sim/calibration/held_out_coverage.hpp), printed
// through `say` and as JSON.
nlohmann::ordered_json coverage_json(const HeldOutCoverage& coverage, const TextOutput& say);

nlohmann::ordered_json model_form_json(const ModelForm& model_form);
// The same as read back from `from` (calibrate --predict-from): the fits and the summary, not the points.
nlohmann::ordered_json model_form_read_back_json(const ModelForm& model_form, const std::string& from);

// The leave-one-out fits of a finished calibration.json (--predict-from), for predictions made from it: none
// when the file has no model_form. Each fit's values are checked against the spec's parameters and bounds.
std::optional<ModelForm> model_form_from_file(const JointSpec& spec, const std::string& path);

} // namespace sonicsim
