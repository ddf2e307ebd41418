// Small builders of Vega-Lite specifications (https://vega.github.io/vega-lite/): every chart has a title,
// axes with their units, tooltips on hover, legends outside the plot (so that they never cover data) and, for
// curves, zoom and pan with the mouse. Pure code.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace sonicsim::report {

using Json = nlohmann::ordered_json;

// A channel: {"field", "type", "title"}; type "quantitative", "nominal" or "ordinal".
Json channel(const std::string& field, const std::string& type, const std::string& title);

// A chart of `values` (an array of row objects) with `title`, its size, and an empty layer list to fill.
Json layered_chart(const std::string& title, Json values, int width = 760, int height = 280);

// A layer drawing `mark` with `encoding`; a point or line layer gets tooltips.
Json layer(const std::string& mark, Json encoding);

// Zoom and pan on the x and y scales (attach to one layer of a chart).
Json zoom_params();

// A tornado chart: one bar per row of `bars` (fields label, rank, low, high) from low to high, ranked by rank
// (1 on top), and a rule at the answer.
Json tornado_chart(const std::string& title, Json bars, const std::string& x_title, double answer);

// A vertical rule at x with a text label above it (a knee, a limit), in its own data.
Json labelled_rule_x(double x, const std::string& label, const std::string& colour);
// A horizontal rule at y with a label at the right end.
Json labelled_rule_y(double y, const std::string& label, const std::string& colour);

// The measured points of a fit, with their bars (fields x, mean, low, high of the chart's data): black open
// diamonds, added last so that no simulated line hides them.
void add_measured_layers(Json& chart, const std::string& x_title, const std::string& y_title);

// Legends to the right of the plot, outside it.
Json legend_outside();

} // namespace sonicsim::report
