// The fit the scenarios actually take: the values the data do not measure held where they are kept, and the
// others fitted again with them there.
//
// Why: a joint fit moves every parameter together. When one of them is not adopted (at its bound, not
// separable, contradicting a released fact) it is held (joint_fit.hpp Adoption), and the values fitted beside
// it answer a question together with it: the Google Cloud CPU speed fitted beside the ParticleNet AK4 direct
// time (correlation -0.9) is 1.73 with the time at 5 ms and 1.62 with it at 44.4 ms. Adopting one without
// refitting it would run the scenarios at a point no fit chose. So the adopted parameters are fitted again,
// the held ones fixed, until no further parameter falls out. Pure code: the simulations are the
// JointSimulator's.
#pragma once

#include "sim/calibration/joint_fit.hpp"

#include <functional>
#include <string>
#include <vector>

namespace sonicsim {

struct ConditionalFit {
  // Over every parameter: the adopted ones as refitted (values, intervals, covariance among them); the held
  // ones at their kept values, with the full fit's interval and flags (what the data said of them) and no
  // covariance. Its predicted_after and quality are those of the scenarios as they will run.
  calibration::CalibrationResult result;
  Adoption adoption;
  // The fit of all parameters together, before any was held (empty `values` when none was held).
  calibration::CalibrationResult unconditional;
  int rounds = 0; // refits made (0: every parameter adopted at once, or none)
};

// From the joint fit (`fit`, by fit_joint): adopt, and while a parameter is not adopted and others are,
// refit those others (at spec.seeds seeds) with it held. `on_round` hears of each refit's held parameters.
ConditionalFit
fit_conditionally(const JointSpec& spec, const JointSimulator& simulator,
                  const calibration::CalibrationResult& fit,
                  const std::function<void(const std::vector<std::string>& held)>& on_round = {});

} // namespace sonicsim
