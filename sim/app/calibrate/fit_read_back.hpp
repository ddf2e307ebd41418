// `calibrate --spec FILE --predict-from calibration.json`: a finished joint fit read back from its file, to
// be taken as it is (sim/calibration/joint_calibration.hpp, FitReadBack) while only the predictions run.
#pragma once

#include "sim/calibration/joint_calibration.hpp"

#include <string>

namespace sonicsim {

// The values, what was adopted, the covariance (written since --predict-from exists; before, rebuilt from
// the 95 % half-widths, which are t_{n-k} standard deviations, and the correlations), where each start
// ended, and the leave-one-series-out fits when the spec asks for a model form. Every number is checked
// against the spec at its place in the file; `points`: the spec's measured points.
FitReadBack read_fit_back(const JointSpec& spec, const std::string& path, std::size_t points);

} // namespace sonicsim
