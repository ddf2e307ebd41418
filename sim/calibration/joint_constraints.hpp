// The released facts of a joint calibration that are not series (JointConstraint): their value in a
// scenario, and whether a fit contradicts them. Pure code (loads scenarios, simulates nothing).
#pragma once

#include "sim/calibration/joint_spec.hpp"

#include <string>
#include <vector>

namespace sonicsim {

// The scenario's value of the constraint's quantity with these --set overrides: the mean inferences per event
// its module sends (the exact mean of the drawn counts, sim/random/distribution.hpp expected_count), or that
// times its model's input bytes per inference.
double constraint_quantity(const JointConstraint& constraint, const std::vector<std::string>& overrides);

struct ConstraintCheck {
  double before = 0.0; // at the parameters' start values
  double after = 0.0;  // at the fitted values
  double residual_sd() const;
  const JointConstraint* constraint = nullptr;
};

// Every constraint of the spec at the start and at the fitted values.
std::vector<ConstraintCheck> check_constraints(const JointSpec& spec, const std::vector<double>& start,
                                               const std::vector<double>& fitted);

// Beyond this many sd from a released fact, a fitted value that moves the scenario there is refused.
inline constexpr double contradiction_sd = 3.0;

// Why parameter i may not be adopted: the first constraint it moves (its value alone moved from start to
// fitted changes the quantity) that the fit leaves beyond contradiction_sd; empty when none.
std::string contradicted_fact(const JointSpec& spec, const std::vector<ConstraintCheck>& checks,
                              const std::vector<double>& start, const std::vector<double>& fitted,
                              std::size_t i);

} // namespace sonicsim
