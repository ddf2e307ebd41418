// A run: its headline figures, where the time goes (event and module distributions), what is busy (every
// resource's utilisation, the bottleneck marked), the time series, and a campaign's traffic fit and
// histogram.
#include "sim/metrics/figure_table.hpp"
#include "sim/report/report_sections.hpp"
#include "sim/report/vega_lite.hpp"
#include "sim/sweep/sweep_csv.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace sonicsim::report {
namespace {

namespace fs = std::filesystem;

void headline(ReportDocument& document, const Json& summary) {
  const Json& r = summary.at("results");
  std::vector<std::vector<std::string>> rows{{"figure", "mean", "p50", "p95"}};
  const auto time_row = [&](const std::string& name, const Json& stats) {
    rows.push_back({name + " (s)", significant(stats.at("mean_s")), significant(stats.at("p50_s")),
                    significant(stats.at("p95_s"))});
  };
  for (const auto& [name, stats] : r.at("modules").items())
    time_row(name, stats);
  time_row("event", r.at("event"));
  document.table(rows);
  const Json& window = r.at("window");
  document.paragraph("Steady-state window " + significant(window.at("start_s")) + " s to " +
                     significant(window.at("end_s")) + " s of simulated time (" +
                     (window.at("steady_state").get<bool>() ? "steady" : "NOT steady") +
                     "); bottleneck: " + r.at("bottleneck").at("resource").get<std::string>() + " at " +
                     significant(100.0 * r.at("bottleneck").at("utilisation").get<double>(), 3) + " %.");
  std::vector<std::string> warnings;
  for (const auto& warning : r.at("warnings"))
    warnings.push_back("warning: " + warning.get<std::string>());
  document.bullets(warnings);
}

// Event and module times, from events.csv (outside the warm-up; at most 20,000 rows, evenly spaced, so that a
// campaign's millions of events still draw in a second).
void distributions(ReportDocument& document, const CsvTable& events) {
  const std::size_t warmup = events.column("warmup");
  std::vector<std::size_t> time_columns;
  for (std::size_t c = 0; c < events.header.size(); ++c)
    if (events.header[c].size() > 2 && events.header[c].compare(events.header[c].size() - 2, 2, "_s") == 0 &&
        events.header[c] != "start_s" && events.header[c] != "end_s")
      time_columns.push_back(c);
  const std::size_t stride = std::max<std::size_t>(1, events.rows.size() / 20000);
  Json values = Json::array();
  for (std::size_t i = 0; i < events.rows.size(); i += stride) {
    if (events.rows[i][warmup] == "1") continue;
    for (const std::size_t c : time_columns) {
      const std::string name =
          events.header[c] == "event_s" ? "event" : events.header[c].substr(0, events.header[c].size() - 2);
      values.push_back({{"what", name}, {"time_s", std::strtod(events.rows[i][c].c_str(), nullptr)}});
    }
  }
  // One histogram per time, each with its own bins (a 10 s module and a 120 s event share no scale).
  for (const std::size_t c : time_columns) {
    const std::string name =
        events.header[c] == "event_s" ? "event" : events.header[c].substr(0, events.header[c].size() - 2);
    Json rows = Json::array();
    for (const auto& row : values)
      if (row.at("what") == name) rows.push_back(row);
    Json chart =
        layered_chart((name == "event" ? std::string("Time per event") : "Time in " + name + " per event") +
                          " (events.csv, warm-up left out)",
                      rows, 700, 160);
    chart["layer"].push_back(layer(
        "bar",
        {{"x",
          {{"field", "time_s"}, {"type", "quantitative"}, {"bin", {{"maxbins", 50}}}, {"title", "time (s)"}}},
         {"y", {{"aggregate", "count"}, {"type", "quantitative"}, {"title", "events"}}}}));
    document.chart(chart);
  }
}

// Every resource with a utilisation: devices, host cores and NICs of each server group, and each link.
void utilisation(ReportDocument& document, const Json& summary) {
  const Json& r = summary.at("results");
  const Json& b = r.at("bottleneck");
  const std::string bottleneck = b.at("resource").get<std::string>();
  // The busiest shared resource, by its kind and group (summary.json's bottleneck.kind, .group, .busiest):
  // a group's devices, host cores or pod NICs, or a link by its name. Written before the kind was: none.
  const std::string kind = b.value("kind", "");
  const int busiest_group = b.contains("group") ? b.at("group").get<int>() : -1;
  const std::string busiest = b.value("busiest", "");
  const auto role = [](bool marked) { return marked ? "bottleneck" : "other"; };
  Json values = Json::array();
  int g = 0;
  for (const auto& group : r.at("server").at("groups")) {
    const std::string name = group.at("name").get<std::string>();
    const bool this_group = busiest_group == g++;
    values.push_back({{"resource", name + " devices"},
                      {"utilisation", 100.0 * group.at("device_utilisation").get<double>()},
                      {"role", role(this_group && (kind == "device_pool" || kind == "instances"))}});
    values.push_back({{"resource", name + " host cores"},
                      {"utilisation", 100.0 * group.at("host_utilisation").get<double>()},
                      {"role", role(this_group && kind == "host_cores")}});
    values.push_back({{"resource", name + " pod NIC in"},
                      {"utilisation", 100.0 * group.at("nic_in_utilisation").get<double>()},
                      {"role", role(this_group && kind == "pod_nics")}});
  }
  for (const auto& link : r.at("network").at("links"))
    values.push_back({{"resource", link.at("name").get<std::string>()},
                      {"utilisation", 100.0 * link.at("utilisation").get<double>()},
                      {"role", role(link.at("name").get<std::string>() == busiest)}});
  Json chart = layered_chart("Utilisation in the steady-state window (the bottleneck: " + bottleneck + ")",
                             values, 640, std::max<int>(120, 18 * static_cast<int>(values.size())));
  chart["layer"].push_back(layer(
      "bar", {{"y", channel("resource", "nominal", "resource")},
              {"x",
               {{"field", "utilisation"},
                {"type", "quantitative"},
                {"title", "utilisation (%)"},
                {"scale", {{"domain", {0, 100}}}}}},
              {"color",
               {{"field", "role"},
                {"type", "nominal"},
                {"title", "resource"},
                {"scale", {{"domain", {"other", "bottleneck"}}, {"range", {"#8aa8c8", "#d9534f"}}}}}}}));
  document.chart(chart);
}

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

// The panel of a pool's column of timeseries.csv: its pods serving, its pods held, its autoscaler's metric,
// its threshold (one panel each, in the column's unit).
std::string pool_series(const std::string& column) {
  // "_replicas_": files written before pods had one name.
  for (const std::string part : {"_pods_", "_replicas_", "_autoscaler_"}) {
    const auto at = column.find(part);
    if (at == std::string::npos) continue;
    const std::string group = column.substr(0, at), rest = column.substr(at + part.size());
    return part == "_autoscaler_" ? group + " autoscaler: " + rest : group + " pods (" + rest + ")";
  }
  return column;
}

void time_series(ReportDocument& document, const fs::path& dir, const std::optional<CsvTable>& events) {
  if (!fs::exists(dir / "timeseries.csv")) return;
  const CsvTable table = read_csv_file((dir / "timeseries.csv").string());
  const auto time = table.numbers("time_s");
  const double interval_s = time.size() > 1 ? time[1] - time[0] : 1.0;
  const auto inferences = table.numbers("nv_inference_count"),
             executions = table.numbers("nv_inference_exec_count"),
             queue_us = table.numbers("nv_inference_queue_duration_us"),
             gpu = table.numbers("nv_gpu_utilization"), jobs = table.numbers("jobs_running");
  // Events completed per interval, from events.csv (every event, warm-up included).
  std::vector<double> completed(time.size(), 0.0);
  if (events)
    for (const double end_s : events->numbers("end_s")) {
      const auto bin = static_cast<std::size_t>(std::max(0.0, end_s / interval_s));
      if (bin < completed.size()) completed[bin] += 1.0;
    }
  Json load = Json::array(), links = Json::array();
  for (std::size_t i = 0; i < time.size(); ++i) {
    const double minutes = time[i] / 60.0;
    if (events)
      load.push_back(
          {{"t_min", minutes}, {"series", "events completed per s"}, {"value", completed[i] / interval_s}});
    load.push_back({{"t_min", minutes}, {"series", "jobs running"}, {"value", jobs[i]}});
    load.push_back({{"t_min", minutes},
                    {"series", figure_title(Figure::gpu_utilisation, true)},
                    {"value", 100.0 * gpu[i]}});
    load.push_back({{"t_min", minutes},
                    {"series", "inferences/s (thousands)"},
                    {"value", inferences[i] / interval_s / 1e3}});
    load.push_back({{"t_min", minutes},
                    {"series", "queue time per batch (ms)"},
                    {"value", executions[i] > 0 ? queue_us[i] / executions[i] / 1e3 : 0.0}});
    for (std::size_t c = 6; c < table.header.size(); ++c) {
      const std::string& name = table.header[c];
      const std::string& cell = table.rows[i][c];
      if (ends_with(name, "_gbps")) {
        links.push_back({{"t_min", minutes},
                         {"link", name.substr(0, name.size() - 5)},
                         {"gbps", std::strtod(cell.c_str(), nullptr)}});
      } else if (!cell.empty()) {
        // A pool's pods, and its autoscaler's metric against the threshold (an empty cell: no poll).
        load.push_back({{"t_min", minutes},
                        {"series", pool_series(name)},
                        {"value", std::strtod(cell.c_str(), nullptr)}});
      }
    }
  }
  Json chart =
      layered_chart("Over simulated time (timeseries.csv; Triton's names in metrics.om with --openmetrics)",
                    load, 340, 150);
  chart.erase("layer");
  chart.erase("width");
  chart.erase("height");
  chart["facet"] = {{"field", "series"}, {"type", "nominal"}, {"title", nullptr}};
  chart["columns"] = 2;
  chart["resolve"] = {{"scale", {{"y", "independent"}}}};
  chart["spec"] = {{"width", 340},
                   {"height", 150},
                   {"params", zoom_params()},
                   {"mark", {{"type", "line"}, {"tooltip", true}}},
                   {"encoding",
                    {{"x", channel("t_min", "quantitative", "simulated time (min)")},
                     {"y", channel("value", "quantitative", "")}}}};
  document.chart(chart);
  if (links.empty()) return;
  Json traffic = layered_chart("Traffic on the shared links", links);
  Json line = layer(
      "line",
      {{"x", channel("t_min", "quantitative", "simulated time (min)")},
       {"y", channel("gbps", "quantitative", "traffic (Gb/s)")},
       {"color", {{"field", "link"}, {"type", "nominal"}, {"title", "link"}, {"legend", legend_outside()}}}});
  line["mark"]["point"] = false;
  line["params"] = zoom_params();
  traffic["layer"].push_back(line);
  document.chart(traffic);
}

// A campaign: outbound traffic against running jobs with its fitted line, and the event-time histogram with
// its peaks.
void campaign(ReportDocument& document, const fs::path& dir, const Json& summary) {
  const Json& c = summary.at("results").at("campaign");
  const double scale = c.at("scale").get<double>();
  document.paragraph(
      "Campaign simulated at " + significant(scale, 3) +
      " of the site; figures below are at full scale (the simulated counts divided by the scale).");
  if (fs::exists(dir / "campaign.csv")) {
    const CsvTable table = read_csv_file((dir / "campaign.csv").string());
    const auto jobs = table.numbers("jobs_running"), gbps = table.numbers("site_switch_out_gbps");
    Json values = Json::array();
    for (std::size_t i = 0; i < jobs.size(); ++i)
      values.push_back({{"jobs", jobs[i]}, {"gbps", gbps[i]}});
    Json chart =
        layered_chart("Site switch outbound traffic against running jobs (campaign.csv, full scale)", values);
    Json points = layer("point", {{"x", channel("jobs", "quantitative", "running jobs")},
                                  {"y", channel("gbps", "quantitative", "outbound (Gb/s)")}});
    points["params"] = zoom_params();
    chart["layer"].push_back(points);
    const Json& fit = c.at("outbound_vs_running_jobs");
    if (fit.value("valid", false)) {
      const double lo = *std::min_element(jobs.begin(), jobs.end()),
                   hi = *std::max_element(jobs.begin(), jobs.end());
      const double slope = fit.at("slope_gbps_per_job").get<double>(),
                   intercept = fit.at("intercept_gbps").get<double>();
      Json line = layer("line", {{"x", {{"field", "jobs"}, {"type", "quantitative"}}},
                                 {"y", {{"field", "gbps"}, {"type", "quantitative"}}}});
      line["data"] = {{"values", Json::array({{{"jobs", lo}, {"gbps", intercept + slope * lo}},
                                              {{"jobs", hi}, {"gbps", intercept + slope * hi}}})}};
      line["mark"] = {{"type", "line"}, {"color", "#d9534f"}};
      chart["layer"].push_back(line);
      document.paragraph("Fitted line: " + significant(slope) + " Gb/s per job, intercept " +
                         significant(intercept) + " Gb/s (" +
                         (fit.value("determined", false)
                              ? "determined"
                              : "NOT determined by the data: too narrow a range of jobs") +
                         ").");
    }
    document.chart(chart);
  }
  const Json& histogram = c.at("event_time_histogram");
  const double bin_s = histogram.at("bin_s").get<double>();
  Json values = Json::array();
  const auto& counts = histogram.at("counts");
  for (std::size_t i = 0; i < counts.size(); ++i)
    values.push_back({{"t_s", (static_cast<double>(i) + 0.5) * bin_s}, {"events", counts[i].get<double>()}});
  Json chart = layered_chart("Time per event, campaign histogram (its peaks marked)", values);
  Json bars = layer("bar", {{"x", channel("t_s", "quantitative", "time per event (s)")},
                            {"y", channel("events", "quantitative", "events")}});
  chart["layer"].push_back(bars);
  for (const auto& peak : histogram.at("peaks"))
    chart["layer"].push_back(
        labelled_rule_x(peak.at("position_s").get<double>(),
                        "peak " + significant(peak.at("position_s").get<double>(), 3) + " s", "#d9534f"));
  document.chart(chart);
}

} // namespace

// `run --sensitivity`'s sensitivity.json: each ranged value's ends as a table and a tornado chart (the time
// per event at the two ends of each range, largest swing on top, the answer as a rule).
void sensitivity(ReportDocument& document, const Json& ranked) {
  document.paragraph(
      "What the answer rests on, ranked (run --sensitivity): each value at the two ends of its "
      "range, the same seed; the run's own 95 % interval of the time per event is +- " +
      significant(ranked.at("event_mean_s_half_width")) + " s.");
  std::vector<std::vector<std::string>> rows{{"value (kind)", "range", "event time (s) at low, high",
                                              "events/s per job at low, high", "range from"}};
  Json bars = Json::array();
  int rank = 0;
  for (const auto& v : ranked.at("values")) {
    const Json& at = v.at("at");
    const auto pair = [](const Json& ends) { return significant(ends[0]) + ", " + significant(ends[1]); };
    rows.push_back({v.at("key").get<std::string>() + " (" + v.at("kind").get<std::string>() + ")",
                    v.at("low").get<std::string>() + " .. " + v.at("high").get<std::string>(),
                    pair(at.at("event_mean_s")), pair(at.at("events_per_s_per_job")),
                    v.at("why_range").get<std::string>()});
    const double a = at.at("event_mean_s")[0].get<double>(), b = at.at("event_mean_s")[1].get<double>();
    bars.push_back({{"label", std::to_string(++rank) + ". " + v.at("key").get<std::string>()},
                    {"rank", rank},
                    {"low", std::min(a, b)},
                    {"high", std::max(a, b)}});
  }
  document.table(rows);
  document.chart(tornado_chart("The time per event at the two ends of each range, largest swing first", bars,
                               "time per event (s)", ranked.at("answer").at("event_mean_s").get<double>()));
}

void add_run_section(ReportDocument& document, const fs::path& dir) {
  const Json summary = read_json_file(dir / "summary.json");
  document.section("Run of " + summary.at("scenario").value("name", std::string("a scenario")),
                   "summary.json");
  headline(document, summary);
  std::optional<CsvTable> events;
  if (fs::exists(dir / "events.csv")) events = read_csv_file((dir / "events.csv").string());
  if (events) distributions(document, *events);
  utilisation(document, summary);
  time_series(document, dir, events);
  if (summary.at("results").contains("campaign")) campaign(document, dir, summary);
  if (fs::exists(dir / "sensitivity.json")) sensitivity(document, read_json_file(dir / "sensitivity.json"));
}

} // namespace sonicsim::report
