// A sweep: the simulated curves with their 95 % bands beside the analytic model (Eq. 1-5 of arXiv:2009.04509)
// and the exact MVA; the knees the fits found (fits.csv) and the network limit drawn and labelled in their
// curves' colours, and the site switch's utilisation when the sweep fills it.
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

// The colour of every curve drawn, by its label: the simulated curve, its band, the two models in fixed
// colours when there is one group; with several groups each label takes the next colour of Vega's
// category10 palette, the band a lighter shade of its simulated curve. Knee and limit labels take their
// curve's colour from here.
using CurveColours = std::vector<std::pair<std::string, std::string>>;

const std::string& colour_of(const CurveColours& colours, const std::string& label) {
  static const std::string grey = "#444444";
  for (const auto& [name, hex] : colours)
    if (name == label) return hex;
  return grey;
}

CurveColours curve_colours(const Json& values, const Json& bands) {
  static const std::vector<std::pair<std::string, std::string>> single{{"simulated", "#1f77b4"},
                                                                       {"simulated 95 % band", "#9ecae1"},
                                                                       {"analytic (Eq. 1-5)", "#ff7f0e"},
                                                                       {"MVA", "#2ca02c"}};
  static const std::vector<std::string> palette{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                                "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  CurveColours out;
  const auto add = [&](const std::string& label) {
    for (const auto& [name, hex] : out)
      if (name == label) return;
    for (const auto& [name, hex] : single)
      if (name == label) {
        out.emplace_back(label, hex);
        return;
      }
    out.emplace_back(label, palette[out.size() % palette.size()]);
  };
  for (const auto& row : values)
    add(row.at("curve").get<std::string>());
  for (const auto& row : bands) {
    // A band in its simulated curve's colour, lighter (drawn at a quarter opacity).
    const std::string label = row.at("curve").get<std::string>();
    const std::string simulated = "simulated" + label.substr(std::string("simulated 95 % band").size());
    bool known = false;
    for (const auto& [name, hex] : out)
      known = known || name == label;
    if (!known)
      out.emplace_back(label, label == "simulated 95 % band" ? "#9ecae1" : colour_of(out, simulated));
  }
  return out;
}

// One figure against the first --vary key, a line per curve (and per value of the other keys), the simulated
// one with its replication band when the sweep was replicated. The models are dashed and drawn first, the
// simulated curve solid with its points on top, so that a model on top of it never hides it.
Json curve_chart(const CsvTable& table, const std::string& title, const std::string& y_title,
                 const std::vector<Curve>& curves, const std::string& band_of,
                 const std::vector<std::string>& groups, double y_scale,
                 CurveColours* colours_out = nullptr) {
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
                        {"curve", group.empty() ? curve.label : curve.label + " (" + group + ")"},
                        {"simulated", curve.label != "MVA" && curve.label != "analytic (Eq. 1-5)"}});
    }
    const std::string low = band_of + "_ci95_low", high = band_of + "_ci95_high";
    if (has_column(table, low) && !row[table.column(low)].empty())
      bands.push_back(
          {{"x", xv},
           {"low", y_scale * std::strtod(row[table.column(low)].c_str(), nullptr)},
           {"high", y_scale * std::strtod(row[table.column(high)].c_str(), nullptr)},
           {"curve", group.empty() ? "simulated 95 % band" : "simulated 95 % band (" + group + ")"}});
  }
  const CurveColours colours = curve_colours(values, bands);
  if (colours_out) *colours_out = colours;
  Json domain = Json::array(), range = Json::array();
  for (const auto& [label, hex] : colours) {
    domain.push_back(label);
    range.push_back(hex);
  }
  Json colour{{"field", "curve"},
              {"type", "nominal"},
              {"title", "curve"},
              {"legend", legend_outside()},
              {"scale", {{"domain", domain}, {"range", range}}}};
  Json chart = layered_chart(title, Json::array());
  if (!bands.empty()) {
    Json band = layer("area", {{"x", channel("x", "quantitative", x_title)},
                               {"y", channel("low", "quantitative", y_title)},
                               {"y2", {{"field", "high"}}},
                               {"color", colour}});
    band["data"] = {{"values", bands}};
    band["mark"]["opacity"] = 0.25;
    chart["layer"].push_back(band);
  }
  Json simulated = Json::array(), models = Json::array();
  for (const auto& v : values)
    (v.at("simulated").get<bool>() ? simulated : models).push_back(v);
  const Json encoding{{"x", channel("x", "quantitative", x_title)},
                      {"y", channel("y", "quantitative", y_title)},
                      {"color", colour}};
  if (!models.empty()) {
    Json model_lines = layer("line", encoding);
    model_lines["data"] = {{"values", models}};
    model_lines["mark"]["strokeDash"] = {6, 3};
    chart["layer"].push_back(model_lines);
  }
  Json lines = layer("line", encoding);
  lines["data"] = {{"values", simulated}};
  lines["mark"]["point"] = true;
  lines["mark"]["strokeWidth"] = 2.5;
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

// The knees of fits.csv that the fit found (a finite interval inside the swept jobs: CurveFit::knee_found),
// each in its curve's colour with its value, and the network limit the analytic model predicts (the jobs at
// which the tightest link is full) when the sweep reaches it.
void add_knees_and_limit(Json& chart, const fs::path& dir, const CsvTable& table,
                         const CurveColours& colours) {
  int labels = 0;
  const auto place = [&](Json rule) {
    // Each label on a line of its own: a two-key sweep has a knee per series and group.
    rule["layer"][1]["mark"]["dy"] = 4 + 14 * labels++;
    chart["layer"].push_back(rule);
  };
  if (fs::exists(dir / "fits.csv")) {
    const CsvTable fits = read_csv_file((dir / "fits.csv").string());
    const bool has_found = has_column(fits, "knee_found");
    for (const auto& row : fits.rows) {
      if (!has_found || row[fits.column("knee_found")] != "true") continue;
      const double knee = std::strtod(row[fits.column("knee_jobs")].c_str(), nullptr);
      const std::string series = row[fits.column("series")];
      const std::string curve = series == "simulated"  ? "simulated"
                                : series == "analytic" ? "analytic (Eq. 1-5)"
                                                       : "MVA";
      // fits.csv names a group "key=value;key=value", the chart "key value, key value".
      std::string group = row[fits.column("group")], readable;
      if (group != "all") {
        std::size_t at = 0;
        while (at <= group.size()) {
          const auto next = std::min(group.find(';', at), group.size());
          const std::string pair = group.substr(at, next - at);
          const auto eq = pair.find('=');
          readable +=
              (readable.empty() ? "" : ", ") + readable_key(pair.substr(0, eq)) + " " + pair.substr(eq + 1);
          at = next + 1;
        }
      }
      const std::string label = readable.empty() ? curve : curve + " (" + readable + ")";
      place(labelled_rule_x(knee, label + " knee " + significant(knee, 3) + " jobs",
                            colour_of(colours, label)));
    }
  }
  // The network limit: the same for every point of a jobs sweep of one group; drawn once per value.
  if (!has_column(table, "network_limit_jobs")) return;
  double most_jobs = 0.0;
  for (const auto& row : table.rows)
    most_jobs = std::max(most_jobs, std::strtod(row[table.column("workload.jobs")].c_str(), nullptr));
  std::vector<double> drawn;
  for (const auto& row : table.rows) {
    const auto limit = cell(table, row, "network_limit_jobs");
    if (!limit || !(*limit > 0.0) || *limit > most_jobs) continue;
    if (std::find(drawn.begin(), drawn.end(), *limit) != drawn.end()) continue;
    drawn.push_back(*limit);
    place(labelled_rule_x(*limit, "network limit (analytic) " + significant(*limit, 3) + " jobs", "#d62728"));
  }
}

// Whether the sweep shows the site switch filling: it reaches the analytic network limit, or the switch is
// at least half busy at some point.
bool shows_switch_filling(const CsvTable& table) {
  if (!has_column(table, "switch_utilisation")) return false;
  double most_jobs = 0.0, busiest = 0.0, limit = 0.0;
  for (const auto& row : table.rows) {
    busiest = std::max(busiest, cell(table, row, "switch_utilisation").value_or(0.0));
    if (has_column(table, "workload.jobs")) // the jobs by name, whichever axis they are
      most_jobs = std::max(most_jobs, std::strtod(row[table.column("workload.jobs")].c_str(), nullptr));
    limit = std::max(limit, cell(table, row, "network_limit_jobs").value_or(0.0));
  }
  return busiest >= 0.5 || (limit > 0.0 && limit <= most_jobs);
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
  CurveColours colours;
  Json module = curve_chart(
      table, "Time in the accelerated module", figure_title(Figure::module_mean_s),
      {{"simulated", "module_mean_s"}, {"analytic (Eq. 1-5)", "analytic_module_s"}, {"MVA", "mva_module_s"}},
      "module_mean_s", groups, 1.0, &colours);
  if (table.header.at(1) == "workload.jobs") add_knees_and_limit(module, dir, table, colours);
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
  if (shows_switch_filling(table))
    document.chart(curve_chart(table, "Site switch utilisation (outbound)",
                               figure_title(Figure::switch_utilisation, true),
                               {{"simulated", "switch_utilisation"}}, "", groups, 100.0));
  if (pooled) {
    std::vector<std::string> keys{table.header.at(1)};
    keys.insert(keys.end(), groups.begin(), groups.end());
    add_pool_charts(document, table, keys);
  }
}

} // namespace sonicsim::report
