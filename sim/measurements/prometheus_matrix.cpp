#include "sim/measurements/prometheus_matrix.hpp"
#include "sim/measurements/measurement_error.hpp"
#include "sim/text/input_file.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace sonicsim::measurements {
namespace {

using Json = nlohmann::json;

// Prometheus writes a sample's value as a string (its float formatting, NaN and +-Inf included).
double sample_value(const std::string& file, const Json& value, const std::string& where) {
  if (!value.is_string())
    throw MeasurementError(file, 0, where + ": expected the value as a string, e.g. \"1.5\"");
  const std::string text = value.get<std::string>();
  if (text == "NaN") return std::numeric_limits<double>::quiet_NaN();
  try {
    std::size_t used = 0;
    const double number = std::stod(text, &used);
    if (used == text.size() && std::isfinite(number)) return number;
  } catch (const std::exception&) {
  }
  throw MeasurementError(file, 0, where + ": value \"" + text + "\" is not a finite number (or NaN)");
}

std::string labels_text(const Json& metric) {
  std::string text;
  if (metric.is_object())
    for (const auto& [name, value] : metric.items())
      text += (text.empty() ? "" : ", ") + name + "=\"" +
              (value.is_string() ? value.get<std::string>() : value.dump()) + "\"";
  return "{" + text + "}";
}

PrometheusSeries read_series(const std::string& file, const Json& entry, std::size_t index) {
  const std::string where = "data.result[" + std::to_string(index) + "]";
  if (!entry.is_object() || !entry.contains("values") || !entry["values"].is_array())
    throw MeasurementError(file, 0,
                           where + ": expected {\"metric\": {...}, \"values\": [[time, \"value\"], ...]} "
                                   "(a range query's matrix; an instant query's \"value\" has one sample)");
  PrometheusSeries series;
  series.labels = labels_text(entry.value("metric", Json::object()));
  const Json& values = entry["values"];
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::string at = where + ".values[" + std::to_string(i) + "]";
    const Json& sample = values[i];
    if (!sample.is_array() || sample.size() != 2 || !sample[0].is_number())
      throw MeasurementError(file, 0, at + ": expected [unix time, \"value\"]");
    const double t = sample[0].get<double>();
    if (!std::isfinite(t) || (!series.times_s.empty() && t <= series.times_s.back()))
      throw MeasurementError(file, 0, at + ": times must increase");
    series.times_s.push_back(t);
    series.values.push_back(sample_value(file, sample[1], at));
  }
  if (series.times_s.size() < 2)
    throw MeasurementError(file, 0,
                           where + " " + series.labels +
                               ": fewer than two samples: a range query with "
                               "a step shorter than its range is needed");
  return series;
}

} // namespace

double PrometheusMatrix::step_s() const {
  double step = std::numeric_limits<double>::infinity();
  for (const auto& s : series)
    for (std::size_t i = 1; i < s.times_s.size(); ++i)
      step = std::min(step, s.times_s[i] - s.times_s[i - 1]);
  return step;
}

PrometheusSeries PrometheusMatrix::summed() const {
  std::map<double, double> total;
  for (const auto& s : series)
    for (std::size_t i = 0; i < s.times_s.size(); ++i) {
      double& at = total[s.times_s[i]];
      if (!std::isnan(s.values[i])) at += s.values[i];
    }
  PrometheusSeries out;
  out.labels =
      series.size() == 1 ? series.front().labels : "the sum of " + std::to_string(series.size()) + " series";
  for (const auto& [t, v] : total) {
    out.times_s.push_back(t);
    out.values.push_back(v);
  }
  return out;
}

PrometheusMatrix read_prometheus_matrix(const std::string& path) {
  std::string text;
  try {
    text = read_input_file(path);
  } catch (const std::runtime_error& e) {
    throw MeasurementError(path, 0, std::string(e.what()) + "; expected a Prometheus range query's JSON");
  }
  Json document;
  try {
    document = Json::parse(text);
  } catch (const Json::parse_error& e) {
    // In words, without the library's text: where the JSON stops being JSON.
    throw MeasurementError(path, 0,
                           text.empty() ? "empty; expected a Prometheus range query's JSON"
                                        : "not JSON: it breaks off or goes wrong at byte " +
                                              std::to_string(e.byte) + " of " + std::to_string(text.size()) +
                                              "; expected a Prometheus range query's JSON");
  }
  if (document.is_object() && document.contains("status")) {
    if (document["status"] != "success")
      throw MeasurementError(path, 0,
                             "the query failed (status " + document["status"].dump() +
                                 "): " + document.value("error", std::string("no error text")));
    document = document.value("data", Json());
  }
  if (!document.is_object() || document.value("resultType", std::string()) != "matrix" ||
      !document.contains("result") || !document["result"].is_array())
    throw MeasurementError(path, 0,
                           "expected a range query's answer: {\"status\": \"success\", \"data\": "
                           "{\"resultType\": \"matrix\", \"result\": [...]}} (/api/v1/query_range, or "
                           "Grafana's query inspector)");
  PrometheusMatrix matrix;
  matrix.file = path;
  const Json& result = document["result"];
  for (std::size_t i = 0; i < result.size(); ++i)
    matrix.series.push_back(read_series(path, result[i], i));
  if (matrix.series.empty())
    throw MeasurementError(path, 0, "the query returned no series (an empty result): nothing to replay");
  return matrix;
}

} // namespace sonicsim::measurements
