// A joint calibration (`calibrate --spec`): the fit's parameters, each series measured against the simulation
// before and after the fit, the model's own error left one series out, and the predictions with their 95 %
// intervals, their spans over rival fits and the envelope of their readings. Drawn from calibration.json.
#include "sim/report/report_sections.hpp"

#include "sim/metrics/number_text.hpp"
#include "sim/report/vega_lite.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace sonicsim::report {

namespace fs = std::filesystem;

namespace {

std::string number_or_dash(const Json& value) {
  return value.is_number() ? significant(value.get<double>()) : std::string("-");
}

// An interval [low, high] whose ends may be null (one-sided: the model's misfit opens that side).
std::string interval_text(const Json& ends) {
  if (!ends.is_array() || ends.size() != 2) return "-";
  const bool low = ends[0].is_number(), high = ends[1].is_number();
  if (low && high) return significant(ends[0].get<double>()) + " to " + significant(ends[1].get<double>());
  if (high) return "not bounded below; to " + significant(ends[1].get<double>());
  if (low) return "from " + significant(ends[0].get<double>()) + "; not bounded above";
  return "not bounded";
}

void add_parameters(ReportDocument& document, const Json& calibration) {
  std::vector<std::vector<std::string>> rows{{"parameter", "value", "95 % half-width", "adopted", "why not"}};
  for (const auto& p : calibration.at("parameters")) {
    const std::string unit = p.value("unit", std::string());
    rows.push_back({p.at("key").get<std::string>(), number_or_dash(p.at("value")) + " " + unit,
                    p.contains("ci95_half_width") ? number_or_dash(p.at("ci95_half_width")) + " " + unit
                                                  : std::string("not identifiable"),
                    p.value("adopted", false) ? "yes" : "no", p.value("not_adopted_because", std::string())});
  }
  document.table(rows);
}

// One chart per series: the measured points with their 1-sd bars, and the simulation before and after.
void add_series(ReportDocument& document, const Json& series) {
  const std::string name = series.at("name").get<std::string>();
  const std::string observable = series.at("observable").get<std::string>();
  Json measured = Json::array(), simulated = Json::array();
  for (const auto& point : series.at("points")) {
    const double x = point.at("x").get<double>(), y = point.at("measured").get<double>(),
                 sd = point.at("sd").get<double>();
    measured.push_back({{"x", x}, {"mean", y}, {"low", y - sd}, {"high", y + sd}});
    for (const char* when : {"before", "after"})
      if (point.contains(when) && point.at(when).is_number())
        simulated.push_back({{"x", x},
                             {"y", point.at(when)},
                             {"series", std::string(when) == "before" ? "before the fit" : "after the fit"}});
  }
  Json chart =
      layered_chart("Series " + name + " (" + fs::path(series.value("scenario", "")).filename().string() +
                        "): " + observable + ", measured and simulated",
                    measured, 760, 240);
  // A one-point series (a direct-inference reference) has no line to draw: its simulated values as points.
  const bool one_point = series.at("points").size() < 2;
  Json lines = layer(
      one_point ? "point" : "line",
      {{"x", channel("x", "quantitative", "jobs")},
       {"y", channel("y", "quantitative", observable)},
       {"color",
        {{"field", "series"}, {"type", "nominal"}, {"title", "simulated"}, {"legend", legend_outside()}}}});
  lines["data"] = {{"values", simulated}};
  if (!one_point) lines["mark"]["point"] = true;
  lines["params"] = zoom_params();
  chart["layer"].push_back(lines);
  add_measured_layers(chart, "jobs", observable);
  document.chart(chart);
}

void add_model_form(ReportDocument& document, const Json& form) {
  std::string text = "The model's own error, each series predicted by the fit without it (" +
                     form.value("method", std::string("leave one series out")) + "): the held-out points ";
  if (form.contains("relative_rms"))
    text += significant(100.0 * form.at("relative_rms").get<double>(), 3) + " % RMS off, " +
            std::to_string(form.value("covered", 0)) + " of " + std::to_string(form.at("held_out").size()) +
            " inside their intervals";
  if (form.contains("ratio_relative_rms"))
    text += "; their ratios to direct inference " +
            significant(100.0 * form.at("ratio_relative_rms").get<double>(), 3) + " % RMS off, " +
            std::to_string(form.value("ratio_covered", 0)) + " of " +
            std::to_string(form.at("ratios_to_direct").size()) + " inside";
  document.paragraph(text + ".");
}

// Each prediction's value, 95 % interval and span; then, per envelope, its readings side by side.
void add_predictions(ReportDocument& document, const Json& calibration) {
  std::vector<std::vector<std::string>> rows{
      {"prediction", "value", "95 % interval", "span over rival fits"}};
  for (const auto& p : calibration.at("predictions"))
    rows.push_back({p.at("id").get<std::string>(), number_or_dash(p.value("value", Json())),
                    interval_text(p.value("ci95", Json())), interval_text(p.value("span", Json()))});
  document.table(rows);
  if (!calibration.contains("envelopes")) return;
  std::vector<std::vector<std::string>> envelope_rows{{"prediction", "readings", "envelope"}};
  Json values = Json::array();
  for (const auto& envelope : calibration.at("envelopes")) {
    const std::string id = envelope.at("id").get<std::string>();
    envelope_rows.push_back(
        {id, std::to_string(envelope.at("readings").size()), interval_text(envelope.at("envelope"))});
    for (const auto& reading : envelope.at("readings"))
      for (const auto& p : calibration.at("predictions")) {
        if (p.at("id") != reading || !p.value("value", Json()).is_number()) continue;
        // An open end is drawn at the value: the table says it is open.
        const Json ci = p.value("ci95", Json::array({nullptr, nullptr}));
        const Json span = p.value("span", Json::array({nullptr, nullptr}));
        const double value = p.at("value").get<double>();
        const auto end = [value](const Json& ends, std::size_t i) {
          return ends.is_array() && ends.size() == 2 && ends[i].is_number() ? ends[i].get<double>() : value;
        };
        values.push_back({{"prediction", id},
                          {"reading", reading},
                          {"value", value},
                          {"ci_low", end(ci, 0)},
                          {"ci_high", end(ci, 1)},
                          {"span_low", end(span, 0)},
                          {"span_high", end(span, 1)}});
      }
  }
  document.table(envelope_rows);
  if (values.empty()) return;
  // Each prediction in its own unit: a facet per prediction, its x scale its own.
  Json chart = layered_chart("Predictions by reading: value, 95 % interval (thick) and span over rival fits "
                             "(thin)",
                             values);
  chart.erase("layer");
  chart.erase("width");
  chart.erase("height");
  chart["facet"] = {{"row", {{"field", "prediction"}, {"type", "nominal"}, {"title", nullptr}}}};
  chart["resolve"] = {{"scale", {{"x", "independent"}, {"y", "independent"}}}};
  Json span = layer("rule", {{"y", channel("reading", "nominal", "")},
                             {"x", channel("span_low", "quantitative", "")},
                             {"x2", {{"field", "span_high"}}}});
  Json ci = layer("rule", {{"y", channel("reading", "nominal", "")},
                           {"x", channel("ci_low", "quantitative", "")},
                           {"x2", {{"field", "ci_high"}}}});
  ci["mark"]["strokeWidth"] = 4;
  Json point = layer(
      "point", {{"y", channel("reading", "nominal", "")}, {"x", channel("value", "quantitative", "value")}});
  point["mark"]["filled"] = true;
  point["mark"]["color"] = "black";
  chart["spec"] = {{"width", 560}, {"layer", Json::array({span, ci, point})}};
  document.chart(chart);
}

} // namespace

void add_joint_calibration_section(ReportDocument& document, const Json& calibration) {
  document.section("Joint calibration (" + fs::path(calibration.value("spec", "")).filename().string() + ")",
                   "calibration.json");
  document.paragraph(calibration.value("status", std::string("")) + "; " +
                     std::to_string(calibration.value("evaluations", 0)) + " evaluations at " +
                     std::to_string(calibration.value("seeds", 0)) + " seeds.");
  add_parameters(document, calibration);
  std::vector<std::vector<std::string>> fit_rows{
      {"series", "observable", "points", "MAPE before", "MAPE after", "chi-square before", "after"}};
  for (const auto& series : calibration.at("series"))
    fit_rows.push_back({series.at("name").get<std::string>(), series.at("observable").get<std::string>(),
                        std::to_string(series.at("points").size()),
                        significant(100.0 * series.value("mape_before", 0.0), 3) + " %",
                        significant(100.0 * series.value("mape_after", 0.0), 3) + " %",
                        significant(series.value("chi_square_before", 0.0)),
                        significant(series.value("chi_square_after", 0.0))});
  document.table(fit_rows);
  for (const auto& series : calibration.at("series"))
    add_series(document, series);
  if (calibration.contains("model_form")) add_model_form(document, calibration.at("model_form"));
  if (calibration.contains("predictions")) add_predictions(document, calibration);
}

} // namespace sonicsim::report
