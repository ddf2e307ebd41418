#include "sim/report/vega_lite.hpp"

#include <algorithm>

namespace sonicsim::report {

Json channel(const std::string& field, const std::string& type, const std::string& title) {
  return Json{{"field", field}, {"type", type}, {"title", title}};
}

Json layered_chart(const std::string& title, Json values, int width, int height) {
  return Json{{"$schema", "https://vega.github.io/schema/vega-lite/v5.json"},
              {"title", title},
              {"width", width},
              {"height", height},
              {"data", {{"values", std::move(values)}}},
              {"layer", Json::array()},
              {"config", {{"legend", {{"orient", "right"}}}}}};
}

Json tornado_chart(const std::string& title, Json bars, const std::string& x_title, double answer) {
  const int rows = static_cast<int>(bars.size());
  Json y = channel("label", "nominal", "");
  y["sort"] = {{"field", "rank"}};
  y["axis"] = {{"labelLimit", 360}};
  Json x = channel("low", "quantitative", x_title);
  x["scale"] = {{"zero", false}};
  Json chart = layered_chart(title, std::move(bars), 560, std::max(80, 28 * rows));
  chart["layer"] = Json::array({layer("bar", {{"y", y}, {"x", x}, {"x2", {{"field", "high"}}}}),
                                labelled_rule_x(answer, "the answer", "black")});
  return chart;
}

Json layer(const std::string& mark, Json encoding) {
  Json out{{"mark", {{"type", mark}}}, {"encoding", std::move(encoding)}};
  if (mark == "line" || mark == "point" || mark == "bar" || mark == "rect" || mark == "circle")
    out["mark"]["tooltip"] = true;
  if (mark == "line") out["mark"]["point"] = true;
  return out;
}

Json zoom_params() {
  return Json::array({{{"name", "zoom"}, {"select", "interval"}, {"bind", "scales"}}});
}

Json labelled_rule_x(double x, const std::string& label, const std::string& colour) {
  const Json data{{"values", Json::array({{{"x", x}, {"label", label}}})}};
  return Json{{"data", data},
              {"layer", Json::array({{{"mark", {{"type", "rule"}, {"color", colour}, {"strokeDash", {4, 3}}}},
                                      {"encoding", {{"x", {{"field", "x"}, {"type", "quantitative"}}}}}},
                                     {{"mark",
                                       {{"type", "text"},
                                        {"color", colour},
                                        {"align", "left"},
                                        {"dx", 4},
                                        {"dy", 4},
                                        {"baseline", "top"}}},
                                      {"encoding",
                                       {{"x", {{"field", "x"}, {"type", "quantitative"}}},
                                        {"y", {{"value", 0}}},
                                        {"text", {{"field", "label"}}}}}}})}};
}

Json labelled_rule_y(double y, const std::string& label, const std::string& colour) {
  const Json data{{"values", Json::array({{{"y", y}, {"label", label}}})}};
  return Json{
      {"data", data},
      {"layer",
       Json::array(
           {{{"mark", {{"type", "rule"}, {"color", colour}, {"strokeDash", {4, 3}}}},
             {"encoding", {{"y", {{"field", "y"}, {"type", "quantitative"}}}}}},
            {{"mark",
              {{"type", "text"}, {"color", colour}, {"align", "right"}, {"dy", -4}, {"baseline", "bottom"}}},
             {"encoding",
              {{"y", {{"field", "y"}, {"type", "quantitative"}}},
               {"x", {{"value", {{"expr", "width"}}}}},
               {"text", {{"field", "label"}}}}}}})}};
}

Json legend_outside() {
  // Below the chart, in as many columns as fit, labels whole: a two-key sweep's groups ("workload.jobs=...;
  // models....=...") are long, and a legend on the right cut them and the chart's width with them.
  return Json{{"orient", "bottom"}, {"direction", "vertical"}, {"labelLimit", 0}, {"titleLimit", 0}};
}

void add_measured_layers(Json& chart, const std::string& x_title, const std::string& y_title) {
  Json bars = layer("rule", {{"x", channel("x", "quantitative", x_title)},
                             {"y", channel("low", "quantitative", y_title)},
                             {"y2", {{"field", "high"}}}});
  bars["mark"]["color"] = "black";
  chart["layer"].push_back(bars);
  Json points = layer("point", {{"x", channel("x", "quantitative", x_title)},
                                {"y", channel("mean", "quantitative", y_title)}});
  points["mark"]["shape"] = "diamond";
  points["mark"]["size"] = 90;
  points["mark"]["color"] = "black";
  points["mark"]["filled"] = false;
  chart["layer"].push_back(points);
}

} // namespace sonicsim::report
