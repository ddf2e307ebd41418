#include "sim/calibration/joint_constraints.hpp"

#include "sim/random/distribution.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <cmath>
#include <cstdio>

namespace sonicsim {

double constraint_quantity(const JointConstraint& k, const std::vector<std::string>& overrides) {
  const Scenario scenario = load_variant_file(k.scenario, k.variants, overrides);
  for (const auto& module : scenario.workload.pipeline) {
    if (module.name != k.module) continue;
    const double inferences = expected_count(module.inferences);
    if (k.quantity == "inferences_per_event") return inferences;
    const auto model = scenario.models.find(module.model);
    return model == scenario.models.end() ? 0.0 : inferences * model->second.input_bytes_per_inference;
  }
  return 0.0; // the spec reader checked that the module exists
}

double ConstraintCheck::residual_sd() const {
  return (after - constraint->value) / constraint->sd;
}

std::vector<ConstraintCheck> check_constraints(const JointSpec& spec, const std::vector<double>& start,
                                               const std::vector<double>& fitted) {
  std::vector<ConstraintCheck> checks;
  for (const auto& k : spec.constraints) {
    ConstraintCheck check;
    check.constraint = &k;
    check.before = constraint_quantity(k, parameter_overrides(spec, k.series, start));
    check.after = constraint_quantity(k, parameter_overrides(spec, k.series, fitted));
    checks.push_back(check);
  }
  return checks;
}

std::string contradicted_fact(const JointSpec& spec, const std::vector<ConstraintCheck>& checks,
                              const std::vector<double>& start, const std::vector<double>& fitted,
                              std::size_t i) {
  for (const auto& check : checks) {
    if (std::fabs(check.residual_sd()) <= contradiction_sd) continue;
    std::vector<double> moved = start;
    moved[i] = fitted[i];
    const JointConstraint& k = *check.constraint;
    if (constraint_quantity(k, parameter_overrides(spec, k.series, moved)) == check.before) continue;
    char text[256];
    std::snprintf(text, sizeof text, "contradicts the released %s: %.4g against %.4g +- %.2g (%+.1f sd)",
                  k.name.c_str(), check.after, k.value, k.sd, check.residual_sd());
    return text;
  }
  return {};
}

} // namespace sonicsim
