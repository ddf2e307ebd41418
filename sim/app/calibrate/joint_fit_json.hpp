// How `calibrate --spec` shows a joint calibration's fit (sim/calibration/joint_calibration.hpp): each table
// printed on the terminal as calibration.json's part of the same name is built, so the two cannot disagree.
#pragma once

#include "sim/app/common/output_options.hpp"
#include "sim/calibration/joint_calibration.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sonicsim {

// Each series' points measured, before and after the fit, with their residuals.
nlohmann::ordered_json series_json(const JointSpec& spec, const calibration::CalibrationResult& r,
                                   const TextOutput& say);

// Each parameter's value, interval, correlations and whether it was adopted (and if not, why and where held).
nlohmann::ordered_json parameters_json(const JointSpec& spec, const calibration::CalibrationResult& r,
                                       const Adoption& adoption, const TextOutput& say);

// The constraint table: each released fact beside the scenario's value before and after the fit.
nlohmann::ordered_json constraints_json(const std::vector<ConstraintCheck>& checks, const TextOutput& say);

// calibration.json's `starts`: where each start began and ended, and its chi-square.
nlohmann::ordered_json starts_json(const std::vector<FitStart>& starts);

// The starts' ends the data cannot tell from the best (sim/calibration/rival_fits.hpp), said; and as JSON.
void say_rival_fits(const std::vector<FitStart>& ends, const std::vector<RivalFit>& rivals,
                    std::size_t points, std::size_t fitted, const TextOutput& say);
nlohmann::ordered_json rival_fits_json(const std::vector<RivalFit>& rivals);

// The held-out ratios of the SONIC points to their direct levels, which a crossing's or a gain's misfit
// rests on.
void say_ratios(const ModelForm& form, const TextOutput& say);

} // namespace sonicsim
