// `sonicsim replay`'s result in the report: each recorded series against the simulated one over the day
// (replay.csv), and the comparison's figures (replay.json).
#include "sim/report/report_sections.hpp"
#include "sim/report/vega_lite.hpp"
#include "sim/sweep/sweep_csv.hpp"

#include <map>
#include <string>
#include <vector>

namespace sonicsim::report {

namespace fs = std::filesystem;

void add_replay_section(ReportDocument& document, const fs::path& dir) {
  const Json replay = read_json_file(dir / "replay.json");
  document.section("A recorded day replayed: scenario " + replay.at("scenario").get<std::string>() +
                       ", group " + replay.at("group").get<std::string>(),
                   (dir / "replay.json").string());
  document.paragraph(
      "The recorded clients (" + replay.at("clients_file").get<std::string>() +
      ") drive the campaign; every series is compared at the recorded times, " +
      significant(replay.at("step_s").get<double>()) +
      " s apart. Bias: simulated - recorded; match: the steps whose change the simulation took "
      "too; lag: the shift that best fits (positive: the simulation acts later).");
  std::vector<std::vector<std::string>> rows{
      {"series", "points", "recorded", "simulated", "bias", "mean |error|", "relative", "match", "lag (s)"}};
  for (const auto& s : replay.at("series")) {
    const auto optional = [&s](const char* key, double scale, const std::string& unit) {
      return s.contains(key) ? significant(scale * s.at(key).get<double>()) + unit : std::string("-");
    };
    rows.push_back(
        {s.at("name").get<std::string>() + " (" + s.at("unit").get<std::string>() + ")",
         std::to_string(s.at("points").get<std::size_t>()), significant(s.at("mean_recorded").get<double>()),
         significant(s.at("mean_simulated").get<double>()), significant(s.at("mean_error").get<double>()),
         significant(s.at("mean_absolute_error").get<double>()),
         significant(100.0 * s.at("relative_error").get<double>()) + " %",
         optional("decision_match_rate", 100.0, " %"), optional("lag_s", 1.0, "")});
  }
  document.table(rows);
  std::vector<std::string> assumptions;
  for (const auto& a : replay.at("assumptions"))
    assumptions.push_back(a.get<std::string>());
  document.bullets(assumptions);
  // One chart per series: the recorded and the simulated values over the day, in hours.
  const CsvTable table = read_csv_file((dir / "replay.csv").string());
  const std::size_t name = table.column("series");
  const auto t = table.numbers("t_s"), recorded = table.numbers("recorded"),
             simulated = table.numbers("simulated");
  std::map<std::string, Json> values;
  std::vector<std::string> order;
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const std::string& series = table.rows[r][name];
    if (!values.count(series)) {
      values[series] = Json::array();
      order.push_back(series);
    }
    values[series].push_back({{"t_h", t[r] / 3600.0}, {"value", recorded[r]}, {"source", "recorded"}});
    values[series].push_back({{"t_h", t[r] / 3600.0}, {"value", simulated[r]}, {"source", "simulated"}});
  }
  for (const auto& series : order) {
    Json chart = layered_chart(series + ": recorded and simulated", values[series], 700, 200);
    Json line = layer(
        "line",
        {{"x", channel("t_h", "quantitative", "time since the replay's start (h)")},
         {"y", channel("value", "quantitative", series)},
         {"color",
          {{"field", "source"}, {"type", "nominal"}, {"title", "series"}, {"legend", legend_outside()}}}});
    line["params"] = zoom_params();
    chart["layer"].push_back(line);
    document.chart(chart);
  }
}

} // namespace sonicsim::report
