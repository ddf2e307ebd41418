// A joint calibration (`calibrate --spec`): the fit's parameters, each series measured against the simulation
// before and after the fit, the model's own error left one series out, and the answers: each prediction's one
// 95 % interval, what it rests on (a tornado chart) and each reading's parts. Drawn from calibration.json.
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
  // A file of predictions made from another's fit (--predict-from) keeps the counts, not the points.
  const auto of = [&form](const char* points) {
    return form.contains(points) ? " of " + std::to_string(form.at(points).size()) : std::string();
  };
  if (form.contains("relative_rms"))
    text += significant(100.0 * form.at("relative_rms").get<double>(), 3) + " % RMS off, " +
            std::to_string(form.value("covered", 0)) + of("held_out") + " inside their intervals";
  if (form.contains("ratio_relative_rms"))
    text += "; their ratios to direct inference " +
            significant(100.0 * form.at("ratio_relative_rms").get<double>(), 3) + " % RMS off, " +
            std::to_string(form.value("ratio_covered", 0)) + of("ratios_to_direct") + " inside";
  if (form.contains("coverage_as_quoted")) {
    const Json& quoted = form.at("coverage_as_quoted");
    text += ". The interval as quoted, each held-out point predicted as an answer is: " +
            std::to_string(quoted.value("covered", 0)) + " of " +
            std::to_string(quoted.value("points_checked", 0)) + " inside";
  }
  document.paragraph(text + ".");
}

// A chart of one panel per prediction (field "prediction"), each with its own scales: predictions in jobs,
// events/s and fractions side by side. The caller sets its "spec" (the layers of one panel).
Json panel_per_prediction(const std::string& title, Json values) {
  Json chart = layered_chart(title, std::move(values));
  chart.erase("layer");
  chart.erase("width");
  chart.erase("height");
  chart["facet"] = {{"row", {{"field", "prediction"}, {"type", "nominal"}, {"title", nullptr}}}};
  chart["resolve"] = {{"scale", {{"x", "independent"}, {"y", "independent"}}}};
  return chart;
}

// The answers: each value with its one 95 % interval and the top three assumptions, then a tornado chart of
// every assumption's swing (the answer at the two ends of its range; an open end is drawn to the value, the
// table says it is open).
void add_answers(ReportDocument& document, const Json& calibration) {
  std::vector<std::vector<std::string>> rows{
      {"prediction", "value", "95 % interval (everything)", "rests most on", "to pin the first"}};
  Json bars = Json::array();
  for (const auto& answer : calibration.at("answers")) {
    const std::string id = answer.at("id").get<std::string>();
    std::string ranked;
    const Json& assumptions = answer.at("assumptions");
    for (std::size_t i = 0; i < assumptions.size() && i < 3; ++i) {
      const Json& a = assumptions[i];
      ranked += (i ? "; " : "") + std::to_string(i + 1) + ". " + a.at("name").get<std::string>() + " (" +
                interval_text(Json::array({a.at("at_low"), a.at("at_high")})) + ")";
    }
    rows.push_back({id, number_or_dash(answer.value("value", Json())), interval_text(answer.at("interval95")),
                    ranked,
                    assumptions.empty() ? std::string() : assumptions[0].value("pinned_by", std::string())});
    if (!answer.value("value", Json()).is_number()) continue;
    const double value = answer.at("value").get<double>();
    for (std::size_t i = 0; i < assumptions.size(); ++i) {
      const Json& a = assumptions[i];
      const auto end = [value](const Json& x) { return x.is_number() ? x.get<double>() : value; };
      // An open end is drawn to the value, and the label says so.
      const std::string open = !a.at("at_low").is_number()    ? " (open below)"
                               : !a.at("at_high").is_number() ? " (open above)"
                                                              : "";
      bars.push_back({{"prediction", id},
                      {"rank", static_cast<int>(i) + 1},
                      {"assumption", std::to_string(i + 1) + ". " + a.at("kind").get<std::string>() + open},
                      {"low", end(a.at("at_low"))},
                      {"high", end(a.at("at_high"))},
                      {"value", value}});
    }
  }
  document.table(rows);
  for (const auto& answer : calibration.at("answers"))
    for (const auto& warning : answer.value("warnings", Json::array()))
      document.paragraph("Warning (" + answer.at("id").get<std::string>() +
                         "): " + warning.get<std::string>());
  if (bars.empty()) return;
  Json chart =
      panel_per_prediction("What each answer rests on: the answer at the two ends of each assumption's "
                           "range, largest swing first",
                           bars);
  Json y = channel("assumption", "nominal", "");
  y["sort"] = {{"field", "rank"}};
  Json x = channel("low", "quantitative", "");
  x["scale"] = {{"zero", false}};
  Json bar = layer("bar", {{"y", y}, {"x", x}, {"x2", {{"field", "high"}}}});
  Json centre = layer("rule", {{"x", channel("value", "quantitative", "value")}});
  centre["mark"]["color"] = "black";
  chart["spec"] = {{"width", 560}, {"layer", Json::array({bar, centre})}};
  document.chart(chart);
}

// Each reading's value and its interval at its own settings, and its span over the held values and the
// rival fits: what the answers above are made of (one panel per answer, a row per reading).
void add_readings(ReportDocument& document, const Json& calibration) {
  std::vector<std::vector<std::string>> rows{
      {"prediction (each reading)", "value", "at these settings (95 %)", "over held values and rival fits"}};
  // The answer each reading belongs to (its own id when no answer lists it: a file from before answers).
  const auto answer_of = [&calibration](const std::string& reading) {
    for (const auto& answer : calibration.value("answers", Json::array()))
      for (const auto& id : answer.value("readings", Json::array()))
        if (id == reading) return answer.at("id").get<std::string>();
    return reading;
  };
  Json values = Json::array();
  for (const auto& p : calibration.at("predictions")) {
    const std::string id = p.at("id").get<std::string>();
    rows.push_back({id, number_or_dash(p.value("value", Json())),
                    interval_text(p.value("settings_interval", Json())),
                    interval_text(p.value("span", Json()))});
    if (!p.value("value", Json()).is_number()) continue;
    // An open end is drawn at the value: the table says it is open.
    const Json ci = p.value("settings_interval", Json::array({nullptr, nullptr}));
    const Json span = p.value("span", Json::array({nullptr, nullptr}));
    const double value = p.at("value").get<double>();
    const auto end = [value](const Json& ends, std::size_t i) {
      return ends.is_array() && ends.size() == 2 && ends[i].is_number() ? ends[i].get<double>() : value;
    };
    values.push_back({{"prediction", answer_of(id)},
                      {"reading", id},
                      {"value", value},
                      {"ci_low", end(ci, 0)},
                      {"ci_high", end(ci, 1)},
                      {"span_low", end(span, 0)},
                      {"span_high", end(span, 1)}});
  }
  document.table(rows);
  if (values.empty()) return;
  Json chart =
      panel_per_prediction("Each reading: value, interval at its settings (thick) and span over held "
                           "values and rival fits (thin)",
                           values);
  Json x = channel("span_low", "quantitative", "");
  x["scale"] = {{"zero", false}};
  Json span =
      layer("rule", {{"y", channel("reading", "nominal", "")}, {"x", x}, {"x2", {{"field", "span_high"}}}});
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

void add_predictions(ReportDocument& document, const Json& calibration) {
  if (calibration.contains("answers"))
    add_answers(document, calibration);
  else
    document.paragraph(
        "This calibration.json has no answers (a file from before sonicsim gave each prediction "
        "one interval): run the calibration again for them. Its readings as it holds them:");
  add_readings(document, calibration);
}

} // namespace

void add_joint_calibration_section(ReportDocument& document, const Json& calibration) {
  document.section("Joint calibration (" + fs::path(calibration.value("spec", "")).filename().string() + ")",
                   "calibration.json");
  if (calibration.contains("evaluations"))
    document.paragraph(calibration.value("status", std::string("")) + "; " +
                       std::to_string(calibration.value("evaluations", 0)) + " evaluations at " +
                       std::to_string(calibration.value("seeds", 0)) + " seeds.");
  add_parameters(document, calibration);
  if (!calibration.contains("series")) {
    // --predict-from: the fit is the other file's, and its series with it.
    document.paragraph("Predictions made from the fit in " +
                       calibration.value("predicted_from", std::string()) +
                       " (its series and points are there).");
    if (calibration.contains("model_form")) add_model_form(document, calibration.at("model_form"));
    if (calibration.contains("predictions")) add_predictions(document, calibration);
    return;
  }
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
