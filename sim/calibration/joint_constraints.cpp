#include "sim/calibration/joint_constraints.hpp"

#include "sim/random/distribution.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sonicsim {
namespace {

// The overrides the constraint's scenario gets for these parameter values (those acting on its series).
std::vector<std::string> overrides_for(const JointSpec& spec, const JointConstraint& k,
                                       const std::vector<double>& values) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < spec.parameters.size(); ++i) {
    const std::vector<std::string> series = k.series.empty() ? std::vector<std::string>{""} : k.series;
    for (const auto& name : series)
      for (auto& o : parameter_override(spec.parameters[i], name, values[i]))
        if (std::find(out.begin(), out.end(), o) == out.end()) out.push_back(std::move(o));
  }
  return out;
}

} // namespace

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
    check.before = constraint_quantity(k, overrides_for(spec, k, start));
    check.after = constraint_quantity(k, overrides_for(spec, k, fitted));
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
    if (constraint_quantity(k, overrides_for(spec, k, moved)) == check.before) continue;
    char text[256];
    std::snprintf(text, sizeof text, "contradicts the released %s: %.4g against %.4g +- %.2g (%+.1f sd)",
                  k.name.c_str(), check.after, k.value, k.sd, check.residual_sd());
    return text;
  }
  return {};
}

} // namespace sonicsim
