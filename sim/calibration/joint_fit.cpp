#include "sim/calibration/joint_fit.hpp"

#include "sim/metrics/number_text.hpp"

#include <cmath>

namespace sonicsim {
namespace {

std::string g(double value) {
  return significant(value, 4);
}

// Why parameter i is not adopted: a contradicted fact first (the data may measure it, but the deployment
// says otherwise), then what the data cannot tell; "" when it is adopted.
std::string why_not_adopted(const JointSpec& spec, const calibration::CalibrationResult& r, std::size_t i,
                            const std::string& contradicted) {
  if (!contradicted.empty()) return contradicted;
  if (!r.identifiable[i]) return "not identifiable: no series moves with it";
  if (!r.separable[i]) {
    const std::size_t k = r.values.size();
    for (std::size_t j = 0; j < k; ++j)
      if (j != i && std::fabs(r.correlation[i * k + j]) > calibration::separable_correlation)
        return "not separable from " + spec.parameters[j].fit.key + " (correlation " +
               g(r.correlation[i * k + j]) + "): the data measure only a combination";
  }
  if (r.at_bound[i])
    return "at its bound: the data want it beyond [" + g(spec.parameters[i].fit.lower) + ", " +
           g(spec.parameters[i].fit.upper) + "]";
  return "";
}

} // namespace

std::vector<double> initial_values(const JointSpec& spec) {
  std::vector<double> out;
  for (const auto& p : spec.parameters)
    out.push_back(p.initial);
  return out;
}

std::vector<calibration::DataPoint> series_data(const JointSpec& spec) {
  std::vector<calibration::DataPoint> out;
  for (const auto& series : spec.series)
    for (const auto& point : series.points)
      out.push_back({point.x, point.y, point.sd});
  return out;
}

calibration::Predictor series_predictor(const JointSpec& spec, const JointSimulator& simulator,
                                        std::vector<double> base, std::vector<std::size_t> positions,
                                        int replication) {
  return [&spec, &simulator, base = std::move(base), positions = std::move(positions),
          replication](const std::vector<double>& values) {
    if (positions.empty()) return simulator.series(spec, values, replication);
    std::vector<double> full = base;
    for (std::size_t a = 0; a < positions.size(); ++a)
      full[positions[a]] = values[a];
    return simulator.series(spec, full, replication);
  };
}

JointFit fit_joint(const JointSpec& spec, const JointSimulator& simulator,
                   const std::function<void(const FitStart&)>& on_start) {
  std::vector<calibration::FitParameter> parameters;
  for (const auto& p : spec.parameters)
    parameters.push_back(p.fit);
  const auto data = series_data(spec);
  const calibration::Predictor simulate = series_predictor(spec, simulator, {}, {}, 0);
  JointFit out;
  std::vector<std::vector<double>> starts{initial_values(spec)};
  starts.insert(starts.end(), spec.starts.begin(), spec.starts.end());
  for (std::size_t s = 0; s < starts.size(); ++s) {
    auto result = calibration::calibrate(parameters, starts[s], data, simulate, spec.max_evaluations);
    out.starts.push_back({starts[s], result.values, result.after.chi_square, result.evaluations});
    if (on_start) on_start(out.starts.back());
    if (s == 0) {
      out.result = std::move(result);
      continue;
    }
    result.predicted_before = out.result.predicted_before;
    result.before = out.result.before;
    if (result.after.chi_square < out.result.after.chi_square) out.result = std::move(result);
  }
  // Which start wins is decided at one seed; how far its answer moves with the seed is the seeds' part.
  if (spec.seeds > 1) {
    std::vector<calibration::Predictor> others;
    for (int r = 1; r < spec.seeds; ++r)
      others.push_back(series_predictor(spec, simulator, {}, {}, r));
    out.result = calibration::add_seeds(parameters, data, simulate, out.result, others, spec.max_evaluations);
  }
  return out;
}

Adoption adopt(const JointSpec& spec, const calibration::CalibrationResult& fit) {
  Adoption out;
  const auto initial = initial_values(spec);
  // The released facts that are not series, at the start and at the fit: a value that moves the scenario
  // beyond contradiction_sd from one is not adopted.
  out.checks = check_constraints(spec, initial, fit.values);
  for (const auto& p : spec.parameters)
    out.values.push_back(p.assumed);
  for (std::size_t i = 0; i < fit.values.size(); ++i) {
    const std::string contradicted = contradicted_fact(spec, out.checks, initial, fit.values, i);
    out.why_not.push_back(why_not_adopted(spec, fit, i, contradicted));
    out.adopted.push_back(out.why_not.back().empty());
    // At its bound for no other reason, it is held at that bound: the data push it beyond the range the spec
    // allows, so within the range their answer is the bound (its interval, one-sided, is not one to adopt).
    // For any other reason the data do not place it, and it stays at its assumed value.
    const bool held_at_bound =
        fit.at_bound[i] && contradicted.empty() && fit.identifiable[i] && fit.separable[i];
    if (out.adopted.back() || held_at_bound) out.values[i] = fit.values[i];
  }
  return out;
}

} // namespace sonicsim
