#include "sim/app/calibrate_model_form.hpp"

#include "models/student_t.hpp"
#include "sim/app/joint_runs.hpp"
#include "sim/calibration/calibration.hpp"
#include "sim/metrics/json_fields.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

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

} // namespace

ModelForm leave_one_series_out(const JointSpec& spec, const ExecutionContext& context,
                               const std::vector<double>& fitted, const TextOutput& say) {
  ModelForm out;
  say("\nmodel form: each series predicted by a fit to the others\n");
  for (std::size_t s = 0; s < spec.series.size(); ++s) {
    JointSpec rest = spec;
    rest.series.erase(rest.series.begin() + static_cast<std::ptrdiff_t>(s));
    rest.parameters.clear();
    rest.predictions.clear();
    rest.starts.clear();
    std::vector<std::string> names;
    for (const auto& series : rest.series)
      names.push_back(series.name);
    std::vector<std::size_t> kept; // indices into spec.parameters
    std::vector<calibration::FitParameter> parameters;
    std::vector<double> start;
    for (std::size_t i = 0; i < spec.parameters.size(); ++i)
      if (acts_on(spec.parameters[i], names)) {
        kept.push_back(i);
        rest.parameters.push_back(spec.parameters[i]);
        parameters.push_back(spec.parameters[i].fit);
        start.push_back(fitted[i]);
      }
    std::vector<calibration::DataPoint> data;
    for (const auto& series : rest.series)
      for (const auto& point : series.points)
        data.push_back({point.x, point.y, point.sd});
    std::vector<double> values = fitted;
    if (!kept.empty() && data.size() > kept.size()) {
      const calibration::Predictor simulate = [&](const std::vector<double>& v) {
        return simulate_series(rest, context, v);
      };
      const auto r = calibration::calibrate(parameters, start, data, simulate, spec.max_evaluations);
      for (std::size_t j = 0; j < kept.size(); ++j)
        values[kept[j]] = r.values[j];
    }
    JointSpec alone = spec;
    alone.series = {spec.series[s]};
    const auto predicted = simulate_series(alone, context, values);
    for (std::size_t p = 0; p < spec.series[s].points.size(); ++p) {
      const auto& point = spec.series[s].points[p];
      out.held_out.push_back({spec.series[s].name, point.x, point.y, point.sd, predicted[p]});
      say("  without %-30s x %-6g measured %-8.4g predicted %-8.4g %+6.2f %%\n", spec.series[s].name.c_str(),
          point.x, point.y, predicted[p], 100.0 * out.held_out.back().relative_error());
    }
    out.left_out.push_back(spec.series[s].name);
    out.values.push_back(values);
  }
  double squares = 0.0;
  for (const auto& point : out.held_out)
    squares += point.relative_error() * point.relative_error();
  out.relative_rms =
      out.held_out.empty() ? 0.0 : std::sqrt(squares / static_cast<double>(out.held_out.size()));
  out.covered = count_covered(out.held_out);
  say("model form: held-out points off by %.2f %% (relative RMS); %zu of %zu within their 95 %% interval "
      "(measurement sd and the other series' model error)\n",
      100.0 * out.relative_rms, out.covered, out.held_out.size());
  return out;
}

void add_model_form(const JointSpec& spec, const JointPrediction& prediction, const ExecutionContext& context,
                    const ModelForm& model_form, PredictionResult& result) {
  if (model_form.values.size() < 2 || !result.value) return;
  JointPrediction once = prediction;
  once.replications = 1;
  const auto values = simulate_prediction(spec, once, context, model_form.values);
  std::vector<double> xs;
  for (const auto& per_fit : values) {
    if (!per_fit.front()) {
      result.model_form_se = std::numeric_limits<double>::infinity();
      result.half_width = std::numeric_limits<double>::infinity();
      result.problem = "a fit without one of the series gives no value (no crossing within the sweep): the "
                       "released data do not bound this prediction";
      return;
    }
    xs.push_back(*per_fit.front());
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
}

nlohmann::ordered_json model_form_json(const ModelForm& model_form) {
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const auto& p : model_form.held_out)
    points.push_back({{"series", p.series},
                      {"x", p.x},
                      {"measured", p.measured},
                      {"sd", p.sd},
                      {"predicted_without_its_series", p.predicted},
                      {"relative_error", p.relative_error()}});
  return {{"method", "leave_one_series_out"},
          {"left_out", model_form.left_out},
          {"values", model_form.values},
          {"held_out", points},
          {"relative_rms", model_form.relative_rms},
          {"covered", model_form.covered},
          {"coverage", model_form.held_out.empty() ? 0.0
                                                   : static_cast<double>(model_form.covered) /
                                                         static_cast<double>(model_form.held_out.size())}};
}

std::optional<ModelForm> model_form_from_file(const JointSpec& spec, const std::string& path) {
  const JsonFields json = JsonFields::read_file(path);
  if (!json.is_object() || !json.has("model_form")) return std::nullopt;
  const JsonFields form = json.at("model_form");
  ModelForm out;
  const JsonFields fits = form.at("values");
  for (std::size_t f = 0; f < fits.size(); ++f) {
    const JsonFields fit = fits.at(f);
    if (fit.size() != spec.parameters.size())
      fit.fail("the spec's " + std::to_string(spec.parameters.size()) + " parameter value(s)");
    std::vector<double> values;
    for (std::size_t i = 0; i < fit.size(); ++i) {
      values.push_back(fit.at(i).number());
      const auto& bounds = spec.parameters[i].fit;
      if (values.back() < bounds.lower || values.back() > bounds.upper)
        fit.at(i).fail("a value within " + spec.parameters[i].fit.key + "'s bounds");
    }
    out.values.push_back(std::move(values));
    out.left_out.push_back(form.at("left_out").at(f).text());
  }
  out.relative_rms = form.number_or("relative_rms", 0.0);
  out.covered = form.has("covered") ? static_cast<std::size_t>(form.at("covered").integer()) : 0;
  return out;
}

} // namespace sonicsim
