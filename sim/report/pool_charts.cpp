#include "sim/report/pool_charts.hpp"
#include "sim/metrics/figure_table.hpp"

#include <algorithm>
#include <vector>

namespace sonicsim::report {

std::string readable_key(const std::string& key) {
  if (key == "workload.jobs") return "jobs";
  std::vector<std::string> parts{""};
  for (const char c : key)
    if (c == '.')
      parts.emplace_back();
    else
      parts.back().push_back(c == '_' ? ' ' : c);
  const std::string& last = parts.back();
  if (parts.size() > 1 && parts[parts.size() - 2] == "autoscaler" && (last == "min" || last == "max"))
    return last + " pods";
  return last;
}

Json tradeoff_chart(const std::string& title, const std::vector<TradeoffPoint>& points,
                    std::optional<double> event_ceiling_s, const std::string& ceiling_label) {
  Json values = Json::array();
  for (const auto& p : points) {
    Json row{
        {"device_hours", p.device_hours}, {"event_s", p.event_s}, {"setting", p.label}, {"role", p.role}};
    row["hours_low"] = p.device_hours_low.value_or(p.device_hours);
    row["hours_high"] = p.device_hours_high.value_or(p.device_hours);
    row["event_low"] = p.event_low_s.value_or(p.event_s);
    row["event_high"] = p.event_high_s.value_or(p.event_s);
    values.push_back(row);
  }
  Json chart = layered_chart(title, values);
  // Not from zero, and with room at the edges for the points' labels.
  const Json scale{{"zero", false}, {"padding", 40}};
  Json x_scale = scale;
  x_scale["padding"] = 90; // the labels are to the right of their points
  Json x = channel("device_hours", "quantitative", figure_title(Figure::device_hours));
  Json y = channel("event_s", "quantitative", figure_title(Figure::event_mean_s));
  x["scale"] = x_scale;
  y["scale"] = scale;
  Json colour{{"field", "role"}, {"type", "nominal"}, {"title", "point"}, {"legend", legend_outside()}};
  // A plan's roles in the colours a reader expects (the answer green, a failing setting orange), in the
  // order of the legend; other roles in Vega's palette.
  const std::vector<std::pair<std::string, std::string>> palette{{"reference", "#1f77b4"},
                                                                 {"the answer", "#2ca02c"},
                                                                 {"setting: meets", "#98df8a"},
                                                                 {"setting: undecided", "#bcbd22"},
                                                                 {"setting: fails", "#ff7f0e"}};
  Json domain = Json::array(), range = Json::array();
  for (const auto& [role, hex] : palette)
    if (std::any_of(points.begin(), points.end(), [&role = role](const auto& p) { return p.role == role; })) {
      domain.push_back(role);
      range.push_back(hex);
    }
  if (domain.size() > 1) colour["scale"] = {{"domain", domain}, {"range", range}};
  // The intervals: a vertical bar for the event time, a horizontal one for the device-hours.
  Json event_bars =
      layer("rule", {{"x", x},
                     {"y", channel("event_low", "quantitative", figure_title(Figure::event_mean_s))},
                     {"y2", {{"field", "event_high"}}},
                     {"color", colour}});
  Json hour_bars =
      layer("rule", {{"x", channel("hours_low", "quantitative", figure_title(Figure::device_hours))},
                     {"x2", {{"field", "hours_high"}}},
                     {"y", y},
                     {"color", colour}});
  Json dots = layer("point", {{"x", x}, {"y", y}, {"color", colour}});
  dots["mark"]["filled"] = true;
  dots["mark"]["size"] = 70;
  dots["encoding"]["tooltip"] =
      Json::array({channel("setting", "nominal", "setting"),
                   channel("device_hours", "quantitative", figure_title(Figure::device_hours)),
                   channel("event_s", "quantitative", figure_title(Figure::event_mean_s))});
  dots["params"] = zoom_params();
  Json labels = layer("text", {{"x", x}, {"y", y}, {"text", {{"field", "setting"}}}});
  labels["mark"]["align"] = "left";
  labels["mark"]["dx"] = 7;
  labels["mark"]["dy"] = -7;
  labels["mark"]["fontSize"] = 10;
  chart["layer"] = Json::array({event_bars, hour_bars, dots, labels});
  if (event_ceiling_s) chart["layer"].push_back(labelled_rule_y(*event_ceiling_s, ceiling_label, "#d62728"));
  return chart;
}

} // namespace sonicsim::report
