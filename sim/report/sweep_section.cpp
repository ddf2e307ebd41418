// A sweep: the simulated curves with their 95 % bands beside the analytic model (Eq. 1-5 of arXiv:2009.04509)
// and the exact MVA, knees drawn and labelled with their values (fits.csv).
#include "sim/metrics/figure_table.hpp"
#include "sim/report/pool_charts.hpp"
#include "sim/report/report_sections.hpp"
#include "sim/report/vega_lite.hpp"
#include "sim/sweep/sweep_csv.hpp"

#include <algorithm>
#include <cmath>

namespace sonicsim::report {
namespace {

namespace fs = std::filesystem;

struct Curve {
  std::string label;  // "simulated", "analytic (Eq. 1-5)", "MVA"
  std::string column; // in sweep.csv
};

bool has_column(const CsvTable& table, const std::string& name) {
  return std::find(table.header.begin(), table.header.end(), name) != table.header.end();
}

// One figure against the first --vary key, a line per curve (and per value of the other keys), the simulated
// one with its replication band when the sweep was replicated.
Json curve_chart(const CsvTable& table, const std::string& title, const std::string& y_title,
                 const std::vector<Curve>& curves, const std::string& band_of,
                 const std::vector<std::string>& groups, double y_scale) {
  const std::string x = table.header.at(1);
  // A varied value written with its unit ("5ms") is drawn as its number, the unit in the axis title.
  std::string unit;
  if (!table.rows.empty()) {
    const std::string& first = table.rows.front()[table.column(x)];
    char* end = nullptr;
    std::strtod(first.c_str(), &end);
    unit = end;
  }
  // The key as a reader names it, the full path kept for the jobs' axis only where it is the usual one.
  const std::string x_title = x == "workload.jobs" ? "jobs (workload.jobs)"
                              : unit.empty()       ? readable_key(x)
                                                   : readable_key(x) + " (" + unit + ")";
  Json values = Json::array(), bands = Json::array();
  for (const auto& row : table.rows) {
    std::string group;
    for (const auto& g : groups)
      group += (group.empty() ? "" : ", ") + readable_key(g) + " " + row[table.column(g)];
    const double xv = std::strtod(row[table.column(x)].c_str(), nullptr);
    for (const auto& curve : curves) {
      if (!has_column(table, curve.column) || row[table.column(curve.column)].empty()) continue;
      values.push_back({{"x", xv},
                        {"y", y_scale * std::strtod(row[table.column(curve.column)].c_str(), nullptr)},
                        {"curve", group.empty() ? curve.label : curve.label + " (" + group + ")"}});
    }
    const std::string low = band_of + "_ci95_low", high = band_of + "_ci95_high";
    if (has_column(table, low) && !row[table.column(low)].empty())
      bands.push_back(
          {{"x", xv},
           {"low", y_scale * std::strtod(row[table.column(low)].c_str(), nullptr)},
           {"high", y_scale * std::strtod(row[table.column(high)].c_str(), nullptr)},
           {"curve", group.empty() ? "simulated 95 % band" : "simulated 95 % band (" + group + ")"}});
  }
  Json chart = layered_chart(title, values);
  if (!bands.empty()) {
    Json band = layer("area", {{"x", channel("x", "quantitative", x_title)},
                               {"y", channel("low", "quantitative", y_title)},
                               {"y2", {{"field", "high"}}},
                               {"color", {{"field", "curve"}, {"type", "nominal"}, {"title", "curve"}}}});
    band["data"] = {{"values", bands}};
    band["mark"]["opacity"] = 0.25;
    chart["layer"].push_back(band);
  }
  Json colour{{"field", "curve"}, {"type", "nominal"}, {"title", "curve"}, {"legend", legend_outside()}};
  // One colour per curve, the band in a lighter shade of the simulated one (and the knees of fits.csv in the
  // same colours); with several groups the palette is Vega's own.
  // Only the curves drawn are in the legend: a pooled sweep has no fixed-pool models.
  if (groups.empty() && curves.front().label == "simulated") {
    const std::vector<std::pair<std::string, std::string>> palette{{"simulated", "#1f77b4"},
                                                                   {"simulated 95 % band", "#9ecae1"},
                                                                   {"analytic (Eq. 1-5)", "#ff7f0e"},
                                                                   {"MVA", "#2ca02c"}};
    Json domain = Json::array(), range = Json::array();
    for (const auto& [label, hex] : palette) {
      const auto drawn = [&label = label](const Json& rows) {
        return std::any_of(rows.begin(), rows.end(), [&](const Json& r) { return r.at("curve") == label; });
      };
      if (!drawn(values) && !drawn(bands)) continue;
      domain.push_back(label);
      range.push_back(hex);
    }
    colour["scale"] = {{"domain", domain}, {"range", range}};
  }
  for (auto& existing : chart["layer"])
    existing["encoding"]["color"] = colour;
  Json lines = layer("line", {{"x", channel("x", "quantitative", x_title)},
                              {"y", channel("y", "quantitative", y_title)},
                              {"color", colour}});
  lines["params"] = zoom_params();
  chart["layer"].push_back(lines);
  return chart;
}

// The label of a row's setting: every varied key and its value ("threshold 100ms, max pods 40").
std::string setting_label(const CsvTable& table, const std::vector<std::string>& row,
                          const std::vector<std::string>& keys) {
  std::string label;
  for (const auto& key : keys)
    label += (label.empty() ? "" : ", ") + readable_key(key) + " " + row[table.column(key)];
  return label;
}

std::optional<double> cell(const CsvTable& table, const std::vector<std::string>& row,
                           const std::string& column) {
  if (!has_column(table, column) || row[table.column(column)].empty()) return std::nullopt;
  return std::strtod(row[table.column(column)].c_str(), nullptr);
}

// A sweep of an autoscaled pool: what each setting costs in device-hours against its event time, and the
// pods it held (peak and mean) against the first varied key.
void add_pool_charts(ReportDocument& document, const CsvTable& table, const std::vector<std::string>& keys) {
  std::vector<TradeoffPoint> points;
  for (const auto& row : table.rows) {
    const auto hours = cell(table, row, "device_hours"), event = cell(table, row, "event_mean_s");
    if (!hours || !event) continue;
    TradeoffPoint p;
    p.label = setting_label(table, row, keys);
    p.role = "setting (simulated)";
    p.device_hours = *hours;
    p.event_s = *event;
    p.event_low_s = cell(table, row, "event_mean_s_ci95_low");
    p.event_high_s = cell(table, row, "event_mean_s_ci95_high");
    points.push_back(p);
  }
  document.paragraph(
      "The pool changes in time: the fixed-pool models (Eq. 1-5, MVA) do not apply and are not "
      "drawn. Each setting's cost is the device-hours its pods held (starting, serving, "
      "draining or failed), against the time per event it gave.");
  if (!points.empty())
    document.chart(tradeoff_chart("Device-hours against event time, a point per setting", points));
  document.chart(curve_chart(table, "Pods held", "pods",
                             {{"peak", "peak_pods"}, {"mean over the run", "mean_held_pods"}}, "",
                             std::vector<std::string>(keys.begin() + 1, keys.end()), 1.0));
}

} // namespace

void add_sweep_section(ReportDocument& document, const fs::path& dir,
                       const std::vector<MeasuredSeries>& measured) {
  const CsvTable table = read_csv_file((dir / "sweep.csv").string());
  const std::string& key = table.header.at(1);
  document.section("Sweep over " + (readable_key(key) == key ? key : readable_key(key) + " (" + key + ")"),
                   "sweep.csv");
  std::vector<std::string> groups;
  for (std::size_t c = 2; c < table.header.size() && table.header[c] != "jobs"; ++c)
    groups.push_back(table.header[c]);
  const bool replicated = has_column(table, "module_mean_s_ci95_low");
  const bool pooled = has_column(table, "device_hours");
  document.paragraph(std::to_string(table.rows.size()) + " points" +
                     (replicated ? ", each the mean of its replications with a 95 % Student-t band" : "") +
                     (pooled ? "."
                             : ". Beside the simulation: the latency model of arXiv:2009.04509 (Eq. 1-5) "
                               "and the exact mean value analysis of the closed network, with the "
                               "scenario's own parameters."));
  Json module = curve_chart(
      table, "Time in the accelerated module", figure_title(Figure::module_mean_s),
      {{"simulated", "module_mean_s"}, {"analytic (Eq. 1-5)", "analytic_module_s"}, {"MVA", "mva_module_s"}},
      "module_mean_s", groups, 1.0);
  // The knees of fits.csv, each labelled with its value.
  if (fs::exists(dir / "fits.csv") && table.header.at(1) == "workload.jobs") {
    const CsvTable fits = read_csv_file((dir / "fits.csv").string());
    const std::vector<std::string> colours{"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"};
    for (std::size_t i = 0; i < fits.rows.size(); ++i) {
      const double knee = std::strtod(fits.rows[i][fits.column("knee_jobs")].c_str(), nullptr);
      if (!std::isfinite(knee) || knee <= 0.0) continue;
      const std::string& group = fits.rows[i][fits.column("group")];
      module["layer"].push_back(labelled_rule_x(knee,
                                                fits.rows[i][fits.column("series")] + " knee " +
                                                    significant(knee, 3) + " jobs" +
                                                    (group == "all" ? "" : " (" + group + ")"),
                                                colours[i % colours.size()]));
      // Each label on a line of its own: a two-key sweep has a knee per series and group.
      module["layer"].back()["layer"][1]["mark"]["dy"] = 4 + 14 * static_cast<int>(i);
    }
  }
  for (const auto& series : measured) {
    Json points = Json::array();
    for (const auto& p : series.points)
      points.push_back(
          {{"x", p.x}, {"y", p.y}, {"low", p.y - p.sd}, {"high", p.y + p.sd}, {"measured", series.label}});
    const Json x_channel = channel("x", "quantitative", "");
    Json bars = layer(
        "rule", {{"x", x_channel}, {"y", channel("low", "quantitative", "")}, {"y2", {{"field", "high"}}}});
    bars["data"] = {{"values", points}};
    bars["mark"]["color"] = "#444";
    module["layer"].push_back(bars);
    Json dots = layer("point", {{"x", x_channel},
                                {"y", channel("y", "quantitative", "")},
                                {"shape",
                                 {{"field", "measured"},
                                  {"type", "nominal"},
                                  {"title", "measured (+- 1 sd)"},
                                  {"legend", legend_outside()}}}});
    dots["data"] = {{"values", points}};
    dots["mark"]["color"] = "#444";
    dots["mark"]["size"] = 50;
    module["layer"].push_back(dots);
  }
  document.chart(module);
  document.chart(curve_chart(
      table, "Time per event", figure_title(Figure::event_mean_s),
      {{"simulated", "event_mean_s"}, {"analytic (Eq. 1-5)", "analytic_event_s"}, {"MVA", "mva_event_s"}},
      "event_mean_s", groups, 1.0));
  document.chart(curve_chart(table, "Throughput of all jobs", figure_title(Figure::events_per_s),
                             {{"simulated", "events_per_s"}, {"MVA", "mva_events_per_s"}}, "events_per_s",
                             groups, 1.0));
  document.chart(curve_chart(table, "GPU utilisation", figure_title(Figure::gpu_utilisation, true),
                             {{"simulated", "gpu_utilisation"}, {"MVA", "mva_gpu_utilisation"}},
                             "gpu_utilisation", groups, 100.0));
  if (pooled) {
    std::vector<std::string> keys{table.header.at(1)};
    keys.insert(keys.end(), groups.begin(), groups.end());
    add_pool_charts(document, table, keys);
  }
}

} // namespace sonicsim::report
