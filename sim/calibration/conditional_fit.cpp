#include "sim/calibration/conditional_fit.hpp"

#include <algorithm>

namespace sonicsim {
namespace {

// The refit of the free parameters (indices `free`) put back over all k: the held ones keep `previous`'s
// interval and flags (what the full fit said of them) at their kept values, with no covariance.
calibration::CalibrationResult expand(const calibration::CalibrationResult& refit,
                                      const calibration::CalibrationResult& previous,
                                      const std::vector<std::size_t>& free, const std::vector<double>& kept) {
  const std::size_t k = kept.size(), m = free.size();
  calibration::CalibrationResult out = previous;
  out.values = kept;
  out.covariance.assign(k * k, 0.0);
  if (!refit.ci95_seed_part.empty()) out.ci95_seed_part.resize(k, 0.0);
  for (std::size_t a = 0; a < m; ++a) {
    const std::size_t i = free[a];
    out.values[i] = refit.values[a];
    out.ci95_half_width[i] = refit.ci95_half_width[a];
    if (!refit.ci95_seed_part.empty()) out.ci95_seed_part[i] = refit.ci95_seed_part[a];
    out.at_bound[i] = refit.at_bound[a];
    out.identifiable[i] = refit.identifiable[a];
    out.separable[i] = refit.separable[a];
    for (std::size_t b = 0; b < m; ++b) {
      out.covariance[i * k + free[b]] = refit.covariance[a * m + b];
      out.correlation[i * k + free[b]] = refit.correlation[a * m + b];
    }
  }
  out.predicted_after = refit.predicted_after;
  out.after = refit.after;
  out.evaluations = previous.evaluations + refit.evaluations;
  out.status = refit.status;
  out.status_text = refit.status_text;
  out.seeds = refit.seeds;
  return out;
}

} // namespace

ConditionalFit fit_conditionally(const JointSpec& spec, const JointSimulator& simulator,
                                 const calibration::CalibrationResult& fit,
                                 const std::function<void(const std::vector<std::string>& held)>& on_round) {
  ConditionalFit out;
  out.result = fit;
  out.adoption = adopt(spec, fit);
  const std::size_t k = spec.parameters.size();
  const auto data = series_data(spec);
  std::vector<bool> held(k, false);
  // Each round holds at least one more parameter, so at most k rounds.
  for (std::size_t round = 0; round < k; ++round) {
    std::vector<bool> now_held(k);
    for (std::size_t i = 0; i < k; ++i)
      now_held[i] = !out.adoption.adopted[i];
    if (now_held == held) break;
    std::vector<std::size_t> free;
    std::vector<calibration::FitParameter> parameters;
    std::vector<double> start;
    std::vector<std::string> held_keys;
    for (std::size_t i = 0; i < k; ++i) {
      const auto& p = spec.parameters[i].fit;
      if (now_held[i]) {
        held_keys.push_back(p.key);
        continue;
      }
      free.push_back(i);
      parameters.push_back(p);
      start.push_back(std::clamp(out.result.values[i], p.lower, p.upper));
    }
    if (free.empty() || data.size() < free.size()) break; // nothing left to fit
    held = now_held;
    if (out.unconditional.values.empty()) out.unconditional = fit;
    if (on_round) on_round(held_keys);
    const std::vector<double> kept = out.adoption.values; // the held at their kept values
    std::vector<calibration::Predictor> others;
    for (int r = 1; r < spec.seeds; ++r)
      others.push_back(series_predictor(spec, simulator, kept, free, r));
    const auto refit =
        calibration::calibrate(parameters, start, data, series_predictor(spec, simulator, kept, free, 0),
                               spec.max_evaluations, others);
    out.result = expand(refit, out.result, free, kept);
    ++out.rounds;
    // Adopted again at the refit; the held stay held, for the reason they were.
    Adoption next = adopt(spec, out.result);
    for (std::size_t i = 0; i < k; ++i)
      if (held[i]) {
        next.adopted[i] = false;
        next.why_not[i] = out.adoption.why_not[i];
        next.values[i] = kept[i];
      }
    out.adoption = std::move(next);
  }
  return out;
}

} // namespace sonicsim
