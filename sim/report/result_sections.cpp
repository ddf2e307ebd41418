// Plans, comparisons, validations and calibrations: each drawn from the JSON its command wrote.
#include "sim/report/report_sections.hpp"

#include "sim/metrics/figure_table.hpp"
#include "sim/metrics/json_fields.hpp"
#include "sim/report/vega_lite.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace sonicsim::report {

namespace fs = std::filesystem;

void add_compare_section(ReportDocument& document, const fs::path& dir) {
  const Json compare = read_json_file(dir / "compare.json");
  document.section("Comparison at " + std::to_string(compare.at("jobs").get<int>()) + " jobs",
                   "compare.json"); // the file's name, not the machine's path: a page travels
  // compare.json's keys: the figure table's names (titled by the table), and the simulated knee.
  std::vector<std::pair<std::string, std::string>> figures;
  for (const Figure figure : {Figure::module_mean_s, Figure::event_mean_s, Figure::events_per_s,
                              Figure::gpu_utilisation, Figure::cost_usd_per_event})
    figures.emplace_back(spec_of(figure).name, figure_title(figure));
  figures.emplace_back("knee_jobs_simulated", "knee, simulated (jobs)");
  std::vector<std::vector<std::string>> rows{{"column", "bottleneck"}};
  Json values = Json::array();
  for (const auto& column : compare.at("columns")) {
    const std::string name = column.at("name").get<std::string>();
    rows.push_back({name, column.value("bottleneck", "")});
    for (const auto& [key, title] : figures) {
      // compare.json files written before the figure table name two figures module_s and event_s.
      const std::string old_key = key == "module_mean_s"  ? "module_s"
                                  : key == "event_mean_s" ? "event_s"
                                                          : key;
      const std::string present = column.contains(key) ? key : old_key;
      if (column.contains(present) && column.at(present).is_number())
        values.push_back({{"column", name}, {"figure", title}, {"value", column.at(present)}});
    }
  }
  document.table(rows);
  Json chart = layered_chart("Side by side", values);
  chart.erase("layer");
  chart.erase("width");
  chart.erase("height");
  chart["facet"] = {{"field", "figure"}, {"type", "nominal"}, {"title", nullptr}};
  chart["columns"] = 3;
  chart["resolve"] = {{"scale", {{"x", "independent"}}}};
  chart["spec"] = {{"width", 220},
                   {"height", 24 * static_cast<int>(compare.at("columns").size())},
                   {"mark", {{"type", "bar"}, {"tooltip", true}}},
                   {"encoding",
                    {{"y", channel("column", "nominal", "")},
                     {"x", channel("value", "quantitative", "")},
                     {"color", {{"field", "column"}, {"type", "nominal"}, {"legend", nullptr}}}}}};
  document.chart(chart);
}

void add_validate_section(ReportDocument& document, const fs::path& dir) {
  const Json cases = read_json_file(dir / "report.json");
  document.section("Validation against measured data", "report.json");
  std::vector<std::vector<std::string>> rows{
      {"case", "measured", "simulated", "error", "verdict", "tolerance", "source"}};
  Json values = Json::array();
  for (const auto& c : cases) {
    const auto number = [](const Json& v) {
      return v.is_number() ? significant(v.get<double>()) : std::string("-");
    };
    rows.push_back({c.at("id").get<std::string>(), number(c.at("measured")), number(c.at("simulated")),
                    c.at("relative_error").is_number()
                        ? significant(100.0 * c.at("relative_error").get<double>(), 3) + " %"
                        : "-",
                    c.at("verdict").get<std::string>(), c.value("tolerance_reason", ""),
                    c.value("source", "")});
    if (!c.at("measured").is_number() || !c.at("simulated").is_number() ||
        c.at("measured").get<double>() == 0.0)
      continue;
    const double measured = c.at("measured").get<double>();
    const double uncertainty = c.value("measured_uncertainty", 0.0);
    values.push_back({{"case", c.at("id")},
                      {"mean", c.at("simulated").get<double>() / measured},
                      {"low", 1.0 - uncertainty / measured},
                      {"high", 1.0 + uncertainty / measured},
                      {"verdict", c.at("verdict")}});
  }
  document.table(rows);
  Json chart = layered_chart("Simulated / measured per case (the bar: the measurement's own uncertainty)",
                             values, 640, 22 * static_cast<int>(values.size()));
  chart["layer"].push_back(layer("rule", {{"y", channel("case", "nominal", "case")},
                                          {"x", channel("low", "quantitative", "simulated / measured")},
                                          {"x2", {{"field", "high"}}}}));
  Json points = layer(
      "point",
      {{"y", channel("case", "nominal", "case")},
       {"x", channel("mean", "quantitative", "simulated / measured")},
       {"color",
        {{"field", "verdict"}, {"type", "nominal"}, {"title", "verdict"}, {"legend", legend_outside()}}}});
  points["mark"]["filled"] = true;
  points["mark"]["size"] = 70;
  chart["layer"].push_back(points);
  document.chart(chart);
}

void add_calibrate_section(ReportDocument& document, const fs::path& dir) {
  const Json calibration = read_json_file(dir / "calibration.json");
  // A joint calibration (calibrate --spec) lists its series, or names the fit its predictions were made from
  // (--predict-from); a single-series one names its series.
  if ((calibration.contains("series") && calibration.at("series").is_array()) ||
      calibration.contains("predicted_from"))
    return add_joint_calibration_section(document, calibration);
  document.section("Calibration on series '" + calibration.at("series").get<std::string>() + "'",
                   "calibration.json");
  std::vector<std::vector<std::string>> rows{{"parameter", "value", "95 % half-width", "adopted"}};
  for (const auto& p : calibration.at("parameters"))
    rows.push_back({p.at("key").get<std::string>(),
                    significant(p.at("value").get<double>()) + p.at("unit").get<std::string>(),
                    p.contains("ci95_half_width")
                        ? significant(p.at("ci95_half_width").get<double>()) + p.at("unit").get<std::string>()
                        : "not identifiable",
                    significant(p.at("adopted").get<double>()) + p.at("unit").get<std::string>()});
  document.table(rows);
  Json measured = Json::array(), predicted = Json::array(), residuals = Json::array();
  double lowest_sd = -2.0, highest_sd = 2.0;
  for (const auto& point : calibration.at("fit").at("points")) {
    const double x = point.at("x").get<double>(), y = point.at("measured").get<double>(),
                 sd = point.at("sd").get<double>();
    measured.push_back(
        {{"x", x}, {"mean", y}, {"low", y - sd}, {"high", y + sd}, {"series", "measured (+- 1 sd)"}});
    predicted.push_back({{"x", x}, {"y", point.at("before")}, {"series", "before the fit"}});
    predicted.push_back({{"x", x}, {"y", point.at("after")}, {"series", "after the fit"}});
    const double residual = (point.at("after").get<double>() - y) / sd;
    residuals.push_back({{"x", x}, {"residual_sd", residual}});
    lowest_sd = std::min(lowest_sd, std::floor(residual - 0.25)); // a margin: no bar ends on the frame
    highest_sd = std::max(highest_sd, std::ceil(residual + 0.25));
  }
  // The x axis named for what it holds: the data's column and the key it sets.
  const std::string x_title = calibration.contains("x_column")
                                  ? calibration.at("x_column").get<std::string>() + " (sets " +
                                        calibration.value("x_key", std::string("workload.jobs")) + ")"
                                  : "x";
  const std::string observable = calibration.at("observable").get<std::string>();
  Json chart = layered_chart("Fit: " + observable + " measured and simulated", measured);
  Json lines = layer(
      "line",
      {{"x", channel("x", "quantitative", x_title)},
       {"y", channel("y", "quantitative", observable)},
       {"color",
        {{"field", "series"}, {"type", "nominal"}, {"title", "simulated"}, {"legend", legend_outside()}}}});
  lines["data"] = {{"values", predicted}};
  lines["params"] = zoom_params();
  chart["layer"].push_back(lines);
  add_measured_layers(chart, x_title, observable);
  document.chart(chart);
  Json residual_chart =
      layered_chart("Residuals after the fit, in measured standard deviations", residuals, 760, 180);
  Json residual_bars = layer("bar", {{"x", channel("x", "ordinal", x_title)},
                                     {"y", channel("residual_sd", "quantitative", "residual (sd)")}});
  // Every bar whole: the scale covers the largest residual, and at least +-2 sd.
  residual_bars["encoding"]["y"]["scale"] = {{"domain", {lowest_sd, highest_sd}}};
  residual_chart["layer"].push_back(residual_bars);
  document.chart(residual_chart);
  if (calibration.contains("holdout")) {
    const Json& h = calibration.at("holdout");
    document.paragraph("Held-out series '" + h.at("series").get<std::string>() + "' (" +
                       fs::path(h.at("scenario").get<std::string>()).filename().string() +
                       "), predicted, not fitted: MAPE " +
                       significant(100.0 * h.at("uncalibrated").value("mape", 0.0), 3) + " % uncalibrated, " +
                       significant(100.0 * h.at("calibrated").value("mape", 0.0), 3) + " % calibrated.");
  }
}

Json read_json_file(const fs::path& path) {
  // Read and parsed once; a file that is not whole JSON is named, with where it stops being JSON.
  return parse_result_json<Json>(read_result_text(path), path.string());
}

const char* result_kind_name(ResultKind kind) {
  switch (kind) {
  case ResultKind::run:
    return "run";
  case ResultKind::sweep:
    return "sweep";
  case ResultKind::plan:
    return "plan";
  case ResultKind::autoscaler_plan:
    return "autoscaler plan";
  case ResultKind::compare:
    return "compare";
  case ResultKind::validate:
    return "validate";
  case ResultKind::calibrate:
    return "calibrate";
  case ResultKind::replay:
    return "replay";
  }
  return "?";
}

const char* result_kind_file(ResultKind kind) {
  switch (kind) {
  case ResultKind::run:
    return "summary.json";
  case ResultKind::sweep:
    return "sweep.csv";
  case ResultKind::plan:
    return "plan.json";
  case ResultKind::autoscaler_plan:
    return "plan_autoscaler.json";
  case ResultKind::compare:
    return "compare.json";
  case ResultKind::validate:
    return "report.json";
  case ResultKind::calibrate:
    return "calibration.json";
  case ResultKind::replay:
    return "replay.json";
  }
  return "?";
}

std::vector<ResultKind> result_kinds(const fs::path& dir) {
  std::vector<ResultKind> kinds;
  // A replay first: its directory holds its run too, which the comparison is about.
  for (const auto kind :
       {ResultKind::replay, ResultKind::run, ResultKind::sweep, ResultKind::plan, ResultKind::autoscaler_plan,
        ResultKind::compare, ResultKind::validate, ResultKind::calibrate})
    if (fs::exists(dir / result_kind_file(kind))) kinds.push_back(kind);
  return kinds;
}

} // namespace sonicsim::report
