#include "sim/calibration/model_form.hpp"

#include "models/student_t.hpp"
#include "sim/calibration/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>

namespace sonicsim {
namespace {

// The held-out points' 95 % interval: the measurement's sd and the model-form error the other series'
// held-out points show (relative RMS), so that no point's own error widens its own interval.
std::size_t count_covered(const std::vector<HeldOutPoint>& points) {
  std::size_t covered = 0;
  for (const auto& point : points) {
    double squares = 0.0;
    std::size_t n = 0;
    for (const auto& other : points)
      if (other.series != point.series) {
        squares += other.relative_error() * other.relative_error();
        ++n;
      }
    const double model = n > 0 ? std::sqrt(squares / static_cast<double>(n)) * point.measured : 0.0;
    if (std::fabs(point.predicted - point.measured) <= 1.96 * std::hypot(point.sd, model)) ++covered;
  }
  return covered;
}

double relative_rms_of(const std::vector<HeldOutPoint>& points) {
  double squares = 0.0;
  for (const auto& point : points)
    squares += point.relative_error() * point.relative_error();
  return points.empty() ? 0.0 : std::sqrt(squares / static_cast<double>(points.size()));
}

// Each point of a series with a reference over the reference's point at the same x, or its only one.
std::vector<HeldOutPoint> ratios_to_references(const JointSpec& spec,
                                               const std::vector<HeldOutPoint>& points) {
  std::vector<HeldOutPoint> out;
  for (const auto& series : spec.series) {
    if (series.reference.empty()) continue;
    std::vector<const HeldOutPoint*> references;
    for (const auto& point : points)
      if (point.series == series.reference) references.push_back(&point);
    for (const auto& point : points) {
      if (point.series != series.name) continue;
      const HeldOutPoint* reference = references.size() == 1 ? references.front() : nullptr;
      for (const auto* r : references)
        if (r->x == point.x) reference = r;
      if (!reference) continue; // the spec's check makes this not happen
      const double measured = point.measured / reference->measured;
      out.push_back({series.name, point.x, measured,
                     measured * std::hypot(point.sd / point.measured, reference->sd / reference->measured),
                     point.predicted / reference->predicted});
    }
  }
  return out;
}

} // namespace

void summarise_held_out(const JointSpec& spec, ModelForm& form) {
  form.relative_rms = relative_rms_of(form.held_out);
  form.covered = count_covered(form.held_out);
  form.ratios = ratios_to_references(spec, form.held_out);
  form.ratio_relative_rms = relative_rms_of(form.ratios);
  form.ratio_covered = count_covered(form.ratios);
}

ModelForm leave_one_series_out(const JointSpec& spec, const JointSimulator& simulator,
                               const std::vector<double>& fitted,
                               const std::function<void(const HeldOutPoint&)>& on_held_out,
                               const std::vector<bool>& free) {
  ModelForm out;
  for (std::size_t s = 0; s < spec.series.size(); ++s) {
    JointSpec rest = spec;
    rest.series.erase(rest.series.begin() + static_cast<std::ptrdiff_t>(s));
    rest.parameters.clear();
    rest.predictions.clear();
    rest.starts.clear();
    std::vector<std::string> names;
    for (const auto& series : rest.series)
      names.push_back(series.name);
    // Every parameter acting on the series kept is set in their runs; only the free ones are fitted, the
    // others at their values in `fitted`.
    std::vector<std::size_t> kept;      // indices into spec.parameters of those fitted
    std::vector<std::size_t> positions; // their positions among rest.parameters
    std::vector<double> acting_values;  // every acting parameter's value, as fitted
    std::vector<calibration::FitParameter> parameters;
    std::vector<double> start;
    for (std::size_t i = 0; i < spec.parameters.size(); ++i) {
      if (!acts_on(spec.parameters[i], names)) continue;
      if (free.empty() || free[i]) {
        kept.push_back(i);
        positions.push_back(rest.parameters.size());
        parameters.push_back(spec.parameters[i].fit);
        start.push_back(fitted[i]);
      }
      rest.parameters.push_back(spec.parameters[i]);
      acting_values.push_back(fitted[i]);
    }
    std::vector<calibration::DataPoint> data;
    for (const auto& series : rest.series)
      for (const auto& point : series.points)
        data.push_back({point.x, point.y, point.sd});
    std::vector<double> values = fitted;
    const std::size_t k = spec.parameters.size();
    std::vector<double> covariance(k * k, 0.0);
    if (!kept.empty() && data.size() > kept.size()) {
      const auto r = calibration::calibrate(parameters, start, data,
                                            series_predictor(rest, simulator, acting_values, positions, 0),
                                            spec.max_evaluations);
      for (std::size_t j = 0; j < kept.size(); ++j) {
        values[kept[j]] = r.values[j];
        for (std::size_t m = 0; m < kept.size() && r.covariance.size() == kept.size() * kept.size(); ++m)
          covariance[kept[j] * k + kept[m]] = r.covariance[j * kept.size() + m];
      }
    }
    JointSpec alone = spec;
    alone.series = {spec.series[s]};
    const auto predicted = simulator.series(alone, values, 0);
    for (std::size_t p = 0; p < spec.series[s].points.size(); ++p) {
      const auto& point = spec.series[s].points[p];
      out.held_out.push_back({spec.series[s].name, point.x, point.y, point.sd, predicted[p]});
      if (on_held_out) on_held_out(out.held_out.back());
    }
    out.left_out.push_back(spec.series[s].name);
    out.values.push_back(values);
    out.covariances.push_back(covariance);
  }
  summarise_held_out(spec, out);
  return out;
}

namespace {

// The prediction's mean over its replications with the curve scaled by `curve_scale` (a crossing's direct
// level divided by it); none if a replication does not cross.
std::optional<double> crossing_with_curve_scaled(const JointSpec& spec, const JointPrediction& prediction,
                                                 const JointSimulator& simulator,
                                                 const std::vector<double>& values, double curve_scale) {
  JointPrediction moved = prediction;
  moved.level_scale = prediction.level_scale / curve_scale;
  const auto per_replication = simulator.prediction(spec, moved, {values}).front();
  double sum = 0.0;
  for (const auto& x : per_replication) {
    if (!x) return std::nullopt;
    sum += *x;
  }
  return sum / static_cast<double>(per_replication.size());
}

// The half-width the model's misfit (relative, 95 %) gives the prediction; infinite, with `problem` saying
// which way, where the moved curve does not cross within the sweep.
double misfit_half_width(const JointSpec& spec, const JointPrediction& prediction,
                         const JointSimulator& simulator, const std::vector<double>& values,
                         PredictionResult& result) {
  const double relative = result.model_error_relative, value = *result.value;
  if (prediction.observable == "direct_inference_gain") return relative * (1.0 + value);
  if (prediction.observable != "crossing_jobs") return relative * std::fabs(value);
  char share[32];
  std::snprintf(share, sizeof share, "%.1f %%", 100.0 * relative);
  if (relative >= 1.0) { // the curve could be nothing
    result.problem = std::string("the held-out error (") + share + ") leaves the curve unbounded";
    return std::numeric_limits<double>::infinity();
  }
  result.crossing_curve_lower =
      crossing_with_curve_scaled(spec, prediction, simulator, values, 1.0 - relative);
  result.crossing_curve_higher =
      crossing_with_curve_scaled(spec, prediction, simulator, values, 1.0 + relative);
  const auto bound_text = [](double x) {
    char text[64];
    std::snprintf(text, sizeof text, "%.4g", x);
    return std::string(text);
  };
  std::vector<std::string> open;
  if (!result.crossing_curve_lower)
    open.push_back(std::string("with the simulated curve ") + share +
                   " lower (the held-out error) it is below direct inference from the sweep's first point (" +
                   (prediction.sweep.empty() ? std::string("?") : bound_text(prediction.sweep.front())) +
                   " jobs): the released data cannot say that it beats direct inference at all");
  if (!result.crossing_curve_higher)
    open.push_back(std::string("with the simulated curve ") + share +
                   " higher it stays above direct inference to the sweep's last point (" +
                   (prediction.sweep.empty() ? std::string("?") : bound_text(prediction.sweep.back())) +
                   " jobs)");
  if (!open.empty()) {
    result.problem = open.front() + (open.size() > 1 ? "; " + open.back() : std::string());
    if (result.crossing_curve_higher)
      result.problem +=
          "; with it higher it crosses at " + bound_text(*result.crossing_curve_higher) + " jobs";
    if (result.crossing_curve_lower)
      result.problem += "; with it lower it crosses at " + bound_text(*result.crossing_curve_lower) + " jobs";
    return std::numeric_limits<double>::infinity();
  }
  return std::max(std::fabs(*result.crossing_curve_lower - value),
                  std::fabs(*result.crossing_curve_higher - value));
}

} // namespace

void add_model_form(const JointSpec& spec, const JointPrediction& prediction, const JointSimulator& simulator,
                    const ModelForm& model_form, const std::vector<double>& values,
                    PredictionResult& result) {
  if (model_form.values.size() < 2 || !result.value) return;
  JointPrediction once = prediction;
  once.replications = 1;
  const auto per_fit = simulator.prediction(spec, once, model_form.values);
  std::vector<double> xs;
  for (const auto& fit : per_fit) {
    if (!fit.front()) {
      result.model_form_se = std::numeric_limits<double>::infinity();
      result.half_width = std::numeric_limits<double>::infinity();
      result.bounded_parts_half_width = std::numeric_limits<double>::infinity();
      result.problem = "a fit without one of the series gives no value (no crossing within the sweep): the "
                       "released data do not bound this prediction";
      return;
    }
    xs.push_back(*fit.front());
  }
  const double n = static_cast<double>(xs.size());
  double mean = 0.0, squares = 0.0;
  for (const double x : xs)
    mean += x / n;
  for (const double x : xs)
    squares += (x - mean) * (x - mean);
  result.model_form_se = std::sqrt((n - 1.0) / n * squares); // jackknife
  result.model_form_values = xs;
  const double t = models::student_t_975(static_cast<int>(xs.size()) - 1);
  result.half_width = std::hypot(result.half_width, t * result.model_form_se);
  result.bounded_parts_half_width = result.half_width;

  const bool on_ratio =
      (prediction.observable == "crossing_jobs" || prediction.observable == "direct_inference_gain") &&
      !model_form.ratios.empty();
  result.model_error_relative = 1.96 * (on_ratio ? model_form.ratio_relative_rms : model_form.relative_rms);
  result.model_error_on_ratio = on_ratio;
  result.model_error_half_width = misfit_half_width(spec, prediction, simulator, values, result);
  result.half_width = std::hypot(result.half_width, result.model_error_half_width); // inf: not bounded
}

} // namespace sonicsim
