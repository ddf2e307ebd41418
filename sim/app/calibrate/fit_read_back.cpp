#include "sim/app/calibrate/fit_read_back.hpp"

#include "models/student_t.hpp"
#include "sim/app/calibrate/model_form_json.hpp"
#include "sim/metrics/json_fields.hpp"
#include "sim/metrics/number_text.hpp"
#include "sim/scenario/input_error.hpp"

#include <algorithm>
#include <limits>

namespace sonicsim {

FitReadBack read_fit_back(const JointSpec& spec, const std::string& path, std::size_t points) {
  FitReadBack out;
  std::vector<FitStart>& starts = out.starts;
  const JsonFields json = [&]() {
    try {
      return JsonFields::read_file(path);
    } catch (const InputError& e) {
      throw InputError(std::string("--predict-from ") + e.what());
    }
  }();
  if (!json.is_object() || !json.has("parameters"))
    throw InputError("--predict-from " + path +
                     ": not a calibration.json of calibrate --spec (no parameters)");
  const std::size_t k = spec.parameters.size();
  const JsonFields parameters = json.at("parameters");
  if (parameters.size() != k)
    parameters.fail("the spec's " + std::to_string(k) + " parameter(s) (this fit is of another spec)");
  calibration::CalibrationResult& r = out.result;
  const double t = models::student_t_975(static_cast<int>(std::max<std::size_t>(1, points - k)));
  std::vector<double> sd(k, 0.0);
  for (std::size_t i = 0; i < k; ++i) {
    const JsonFields p = parameters.at(i);
    const std::string key = p.at("key").text();
    if (key != spec.parameters[i].fit.key)
      p.at("key").fail("the spec's parameter " + std::to_string(i + 1) + ", " + spec.parameters[i].fit.key);
    r.values.push_back(p.at("value").number());
    const calibration::FitParameter& fit = spec.parameters[i].fit;
    if (r.values.back() < fit.lower || r.values.back() > fit.upper)
      p.at("value").fail("a value within the spec's bounds, " + significant(fit.lower, 4) + " to " +
                         significant(fit.upper, 4) + " " + fit.unit);
    r.identifiable.push_back(p.at("identifiable").boolean());
    r.separable.push_back(p.at("separable").boolean());
    r.at_bound.push_back(p.at("at_bound").boolean());
    const double half_width =
        p.has("ci95_half_width") ? p.at("ci95_half_width").number() : std::numeric_limits<double>::infinity();
    if (half_width < 0.0) p.at("ci95_half_width").fail("a half-width of 0 or more");
    r.ci95_half_width.push_back(half_width);
    sd[i] = half_width / t;
  }
  const bool has_covariance = json.has("covariance");
  if (has_covariance && json.at("covariance").size() != k * k)
    json.at("covariance")
        .fail("a " + std::to_string(k) + " x " + std::to_string(k) +
              " matrix (one row per parameter, flattened to " + std::to_string(k * k) + " numbers)");
  r.correlation.assign(k * k, 0.0);
  r.covariance.assign(k * k, 0.0);
  for (std::size_t i = 0; i < k; ++i) {
    const JsonFields correlations =
        k > 1 ? parameters.at(i).at("correlations") : JsonFields(nlohmann::json::object(), path);
    for (std::size_t j = 0; j < k; ++j) {
      const double c = i == j ? 1.0 : correlations.number_or(spec.parameters[j].fit.key, 0.0);
      if (c < -1.0 || c > 1.0) correlations.at(spec.parameters[j].fit.key).fail("a correlation in -1..1");
      r.correlation[i * k + j] = c;
      r.covariance[i * k + j] =
          has_covariance ? json.at("covariance").at(i * k + j).number() : c * sd[i] * sd[j];
    }
    if (r.covariance[i * k + i] < 0.0) json.at("covariance").at(i * k + i).fail("a variance of 0 or more");
  }
  // Where each start ended, for the rival fits (written since they exist; none before).
  if (json.has("starts"))
    for (std::size_t i = 0; i < json.at("starts").size(); ++i) {
      const JsonFields start = json.at("starts").at(i);
      std::vector<double> values;
      for (std::size_t j = 0; j < start.at("values").size(); ++j)
        values.push_back(start.at("values").at(j).number());
      if (values.size() != k) start.at("values").fail(std::to_string(k) + " values, one per parameter");
      starts.push_back({{}, values, start.at("chi_square").number(), 0});
    }
  r.status_text = "read from " + path + " (not fitted again)";
  if (spec.leave_one_series_out) {
    // The fit's own leave-one-out fits, as it found them: the predictions made from it carry the same term.
    out.model_form = model_form_from_file(spec, path);
    if (!out.model_form)
      throw InputError("--predict-from " + path +
                       ": no model_form in it, and the spec asks for one (fit again without --predict-from)");
  }
  return out;
}

} // namespace sonicsim
