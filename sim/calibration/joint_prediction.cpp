#include "sim/calibration/joint_prediction.hpp"

#include "models/student_t.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sonicsim {
namespace {

// Mean and standard error of the replications' values; none if any is missing.
std::optional<std::pair<double, double>> mean_and_se(const std::vector<std::optional<double>>& xs) {
  double sum = 0.0;
  for (const auto& x : xs) {
    if (!x) return std::nullopt;
    sum += *x;
  }
  const double n = static_cast<double>(xs.size()), mean = sum / n;
  double squares = 0.0;
  for (const auto& x : xs)
    squares += (*x - mean) * (*x - mean);
  return std::pair{mean, n > 1 ? std::sqrt(squares / (n - 1) / n) : 0.0};
}

// One sd up, or down when up leaves the parameter's bounds (the scenario may refuse a value beyond them), or
// as far as the bounds allow: the gradient divides by the step taken. 0: no room at all.
double gradient_step(const calibration::FitParameter& fit, double value, double sd) {
  const double step = value + sd <= fit.upper ? sd : value - sd >= fit.lower ? -sd : 0.0;
  if (step != 0.0) return step;
  return fit.upper - value >= value - fit.lower ? fit.upper - value : fit.lower - value;
}

} // namespace

std::pair<double, double> PredictionResult::interval() const {
  constexpr double open = std::numeric_limits<double>::infinity();
  if (!value) return {-open, open};
  if (std::isfinite(half_width)) return {*value - half_width, *value + half_width};
  // Open: only a crossing's misfit opens one side alone; any other open part opens both.
  if (!std::isfinite(bounded_parts_half_width) || !(crossing_curve_lower || crossing_curve_higher))
    return {-open, open};
  const double low = crossing_curve_lower
                         ? *value - std::hypot(bounded_parts_half_width, *value - *crossing_curve_lower)
                         : -open;
  const double high = crossing_curve_higher
                          ? *value + std::hypot(bounded_parts_half_width, *crossing_curve_higher - *value)
                          : open;
  return {low, high};
}

std::pair<double, double> PredictionResult::span() const {
  if (!value) return {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  const auto [interval_low, interval_high] = interval();
  const double below = *value - interval_low, above = interval_high - *value; // each possibly infinite
  double low = *value, high = *value;
  bool bounded = true; // no crossing within the sweep somewhere: the data and the sweep do not bound it
  const auto take = [&](const std::optional<double>& other) {
    bounded = bounded && other.has_value();
    if (other) low = std::min(low, *other), high = std::max(high, *other);
  };
  for (const auto& h : held)
    take(h.prediction);
  for (const auto& r : rivals)
    take(r.prediction);
  if (!bounded) return {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  return {low - below, high + above};
}

std::pair<double, double> reading_envelope(const std::vector<const PredictionResult*>& readings) {
  constexpr double open = std::numeric_limits<double>::infinity();
  std::pair<double, double> envelope{open, -open};
  for (const PredictionResult* reading : readings) {
    if (!reading->value) return {-open, open};
    const auto [low, high] = reading->span();
    envelope = {std::min(envelope.first, low), std::max(envelope.second, high)};
  }
  return envelope;
}

namespace {

// Each held parameter acting on the prediction at its two bounds, and each unknown acting on it at the ends
// of its range, added to the batch's `sets` (a bound it is held at is the value's own runs, set 0).
struct HeldRuns {
  std::vector<std::pair<std::size_t, double>> at; // index in the run's values, bound
  std::vector<std::size_t> set;                   // its runs' index in `sets`
  std::string key(const JointSpec& spec, std::size_t h) const {
    const std::size_t i = at[h].first, k = spec.parameters.size();
    return i < k ? spec.parameters[i].fit.key : spec.unknowns[i - k].key;
  }
};

HeldRuns add_held_runs(const JointSpec& spec, const JointPrediction& prediction,
                       const std::vector<bool>& fitted, const std::vector<double>& base,
                       std::vector<std::vector<double>>& sets) {
  HeldRuns held;
  const auto hold_at = [&](std::size_t i, double bound) {
    held.at.emplace_back(i, bound);
    if (bound == base[i]) {
      held.set.push_back(0);
      return;
    }
    auto at = base;
    at[i] = bound;
    held.set.push_back(sets.size());
    sets.push_back(at);
  };
  const std::size_t k = spec.parameters.size();
  for (std::size_t i = 0; i < k; ++i)
    if (!fitted[i] && acts_on_prediction(spec.parameters[i], prediction))
      for (const double bound : {spec.parameters[i].fit.lower, spec.parameters[i].fit.upper})
        hold_at(i, bound);
  for (std::size_t j = 0; j < spec.unknowns.size(); ++j)
    if (unknown_acts_on(spec.unknowns[j], prediction))
      for (const double end : {spec.unknowns[j].lower, spec.unknowns[j].upper})
        hold_at(k + j, end);
  return held;
}

// Each stepped parameter's gradient (sets[s + 1] steps stepped[s]) from the runs' differences to the centre,
// replication by replication (common random numbers); a step that leaves the sweep is said in `problem`.
void add_gradients(const JointSpec& spec, const std::vector<double>& values,
                   const std::vector<std::size_t>& stepped, const std::vector<std::vector<double>>& sets,
                   const std::vector<std::vector<std::optional<double>>>& runs, PredictionResult& result) {
  for (std::size_t s = 0; s < stepped.size(); ++s) {
    const std::size_t i = stepped[s];
    const double step = sets[s + 1][i] - values[i];
    double sum = 0.0;
    int n = 0;
    for (std::size_t r = 0; r < runs[0].size(); ++r)
      if (runs[0][r] && runs[s + 1][r]) {
        sum += (*runs[s + 1][r] - *runs[0][r]) / step;
        ++n;
      }
    if (n == 0) {
      result.problem = "one sd of " + spec.parameters[i].fit.key + " moves it out of the sweep";
      continue;
    }
    result.gradient[i] = sum / n;
  }
}

} // namespace

PredictionResult predict(const JointSpec& spec, const JointPrediction& prediction,
                         const JointSimulator& simulator, const std::vector<double>& values,
                         const std::vector<double>& covariance, const std::vector<bool>& fitted,
                         const std::vector<RivalFit>& rivals) {
  const std::size_t k = values.size();
  PredictionResult result;
  result.id = prediction.id;
  result.title = prediction.title;
  result.gradient.assign(k, 0.0);
  // Every run's values: the parameters', then each unknown's (sim/calibration/joint_unknowns.hpp), assumed.
  std::vector<double> base = values;
  for (const auto& u : spec.unknowns)
    base.push_back(u.assumed);
  // The fitted values, then each fitted parameter one sd up: one batch.
  std::vector<std::vector<double>> sets{base};
  std::vector<std::size_t> stepped;
  for (std::size_t i = 0; i < k; ++i) {
    const double sd = std::sqrt(std::max(0.0, covariance[i * k + i]));
    // A parameter that does not act on the prediction's runs has no gradient: it costs no runs.
    if (!fitted[i] || !(sd > 0.0) || !acts_on_prediction(spec.parameters[i], prediction)) continue;
    const double step = gradient_step(spec.parameters[i].fit, values[i], sd);
    if (step == 0.0) continue;
    auto up = base;
    up[i] += step;
    sets.push_back(up);
    stepped.push_back(i);
  }
  const HeldRuns held = add_held_runs(spec, prediction, fitted, base, sets);
  // Each rival fit's values, in the same batch.
  const std::size_t first_rival = sets.size();
  for (const auto& rival : rivals) {
    auto at = base;
    for (std::size_t i = 0; i < k && i < rival.values.size(); ++i)
      at[i] = std::clamp(rival.values[i], spec.parameters[i].fit.lower, spec.parameters[i].fit.upper);
    sets.push_back(at);
  }
  const auto runs = simulator.prediction(spec, prediction, sets);
  if (simulator.warnings) result.warnings = simulator.warnings(spec, prediction, values);
  for (std::size_t r = 0; r < rivals.size(); ++r) {
    const auto mean = mean_and_se(runs[first_rival + r]);
    result.rivals.push_back(
        {rivals[r].start, rivals[r].chi_square, mean ? std::optional<double>(mean->first) : std::nullopt});
  }
  for (std::size_t h = 0; h < held.at.size(); ++h) {
    const auto mean = mean_and_se(runs[held.set[h]]);
    result.held.push_back({held.key(spec, h), held.at[h].second,
                           mean ? std::optional<double>(mean->first) : std::nullopt, held.set[h] == 0});
  }
  const auto centre = mean_and_se(runs[0]);
  if (!centre) {
    result.problem = "does not cross within the sweep (" + std::to_string(prediction.sweep.front()) + " to " +
                     std::to_string(prediction.sweep.back()) + " jobs) in every replication";
    return result;
  }
  result.value = centre->first;
  result.seed_se = centre->second;
  add_gradients(spec, values, stepped, sets, runs, result);
  double variance = 0.0;
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j)
      if (fitted[i] && fitted[j]) variance += result.gradient[i] * result.gradient[j] * covariance[i * k + j];
  result.parameter_se = std::sqrt(std::max(0.0, variance));
  // The seeds' part by Student's t over the replications (a few seeds estimate their spread poorly); the
  // calibration's by the normal quantile (its covariance is an estimate over many points).
  const int replications = static_cast<int>(runs[0].size());
  result.replications = replications;
  const double t_seeds = replications > 1 ? models::student_t_975(replications - 1) : 0.0;
  result.half_width = std::hypot(1.96 * result.parameter_se, t_seeds * result.seed_se);
  result.bounded_parts_half_width = result.half_width;
  return result;
}

} // namespace sonicsim
