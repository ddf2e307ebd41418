#include "sim/calibration/held_out_coverage.hpp"

#include "sim/calibration/joint_prediction.hpp"

#include <cmath>
#include <limits>

namespace sonicsim {
namespace {

// The relative RMS of the held-out points of every series but `series`.
double others_relative_rms(const ModelForm& form, const std::string& series) {
  double sum = 0.0;
  std::size_t n = 0;
  for (const auto& p : form.held_out)
    if (p.series != series) sum += p.relative_error() * p.relative_error(), ++n;
  return n == 0 ? std::numeric_limits<double>::infinity() : std::sqrt(sum / static_cast<double>(n));
}

// The point as a prediction: its series' scenario, variants and overrides at its x, its observable, the
// series' parameters acting.
JointPrediction as_prediction(const JointSeries& series, const HeldOutPoint& point, int replications) {
  JointPrediction p;
  p.id = "held_out " + series.name + " at " + std::to_string(point.x);
  p.scenario = series.scenario;
  p.variants = series.variants;
  p.overrides = series.overrides;
  // The x as the series' own runs write it (a parameter's {} expansion: the same digits).
  p.overrides.push_back(expand_set({series.x_key + "={}"}, point.x).front());
  p.observable = series.observable.text();
  p.series = {series.name};
  p.replications = replications;
  return p;
}

} // namespace

HeldOutCoverage held_out_coverage(const JointSpec& spec, const JointSimulator& simulator,
                                  const ModelForm& form, const std::vector<double>& covariance,
                                  const std::vector<bool>& fitted, int replications) {
  HeldOutCoverage out;
  out.replications = replications;
  const bool own = form.covariances.size() == form.values.size();
  out.calibration_part = own ? "each leave-one-out fit's own covariance"
                             : "the full fit's covariance (this calibration.json keeps no leave-one-out "
                               "covariances): the calibration part is understated";
  for (std::size_t f = 0; f < form.left_out.size(); ++f) {
    const JointSeries* series = nullptr;
    for (const auto& s : spec.series)
      if (s.name == form.left_out[f]) series = &s;
    if (!series) continue;
    const double misfit_relative = 1.96 * others_relative_rms(form, series->name);
    // What the other series place: a parameter this fit did not move (it acts only on the left-out series)
    // or whose 95 % half-width exceeds its range is not placed without this series, so it is held and the
    // point predicted at its bounds too, as a prediction's unplaced parameters are; a linearised covariance
    // wider than the range would otherwise stand for it (the shared link without the all-models series).
    std::vector<bool> placed = fitted;
    const std::size_t k = spec.parameters.size();
    if (own)
      for (std::size_t i = 0; i < k; ++i) {
        const double variance = form.covariances[f][i * k + i];
        const auto& p = spec.parameters[i].fit;
        placed[i] = fitted[i] && variance > 0.0 && 1.96 * std::sqrt(variance) < p.upper - p.lower;
      }
    for (const auto& point : form.held_out) {
      if (point.series != series->name) continue;
      const JointPrediction prediction = as_prediction(*series, point, replications);
      PredictionResult p = predict(spec, prediction, simulator, form.values[f],
                                   own ? form.covariances[f] : covariance, placed);
      CoveredPoint c{point,
                     p.value,
                     {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()},
                     false};
      if (p.value) {
        p.half_width = std::hypot(p.half_width, misfit_relative * std::abs(*p.value), 1.96 * point.sd);
        c.interval = p.span();
        c.covered = point.measured >= c.interval.first && point.measured <= c.interval.second;
      }
      out.covered += c.covered ? 1 : 0;
      out.points.push_back(c);
    }
  }
  return out;
}

} // namespace sonicsim
