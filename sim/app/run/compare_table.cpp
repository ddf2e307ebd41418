#include "sim/app/run/compare_table.hpp"
#include "sim/metrics/json_fields.hpp"

#include "sim/metrics/scenario_json.hpp"
#include "sim/scenario/provenance.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <stdexcept>

namespace sonicsim {

// What follows the table: undecided columns, what the figures are, the variants and their assumptions.
static void print_compare_notes(const CompareTable& table, bool pooled) {
  for (const auto& f : table.figures)
    if (!f.too_short.empty())
      std::printf("\nUNDECIDED %s: too short for output.precision even extended (%s); its figures are not "
                  "evidence",
                  f.name.c_str(), f.too_short.c_str());
  if (!pooled)
    std::printf("\n\nsimulated ratio: low-load event time / GPU-seconds per event at %d jobs; knee = ratio x "
                "GPUs / threads per job\n",
                table.jobs);
  else
    std::printf(
        "\n\ndevice-hours: held by the pools over the run (starting, serving, draining, failed pods); "
        "peak pods: the most held at once\n");
  if (table.replications > 1)
    std::printf(
        "simulated figures: mean +- half-width of the 95 %% interval over %d replications (Student t); "
        "changes are of the means\n",
        table.replications);
  for (const auto& f : table.figures)
    if (!f.no_analysis.empty())
      std::printf("%s: no analytic ratio, knee or network limit (-): %s\n", f.name.c_str(),
                  f.no_analysis.c_str());
  for (const auto& f : table.figures)
    if (!f.description.empty()) std::printf("  %s: %s\n", f.name.c_str(), f.description.c_str());
  for (const auto& f : table.figures)
    if (!f.assumptions.empty())
      std::printf("%s rests on assumed and calibrated values (the scenario's provenance:):\n%s",
                  f.name.c_str(), assumptions_text(f.assumptions, "  ").c_str());
}

namespace {

// How the table prints the figures it shows (the row's title is the figure table's; which figures it shows,
// the table's shown_in).
struct CompareRow {
  Figure figure;
  const char* format;
  bool as_percent;
};
const CompareRow compare_rows[] = {
    {Figure::module_mean_s, "%.2f", false},       {Figure::event_mean_s, "%.1f", false},
    {Figure::events_per_s, "%.3f", false},        {Figure::gpu_utilisation, "%.1f", true},
    {Figure::mean_executed_batch, "%.0f", false}, {Figure::cost_usd_per_event, "%.4f", false},
    {Figure::device_hours, "%.1f", false},        {Figure::peak_pods, "%.1f", false},
};

// A figure without a format of its own (one added to compare by its row in the figure table) prints with four
// significant digits, a fraction as a percentage.
CompareRow row_of(Figure figure) {
  for (const auto& row : compare_rows)
    if (row.figure == figure) return row;
  return {figure, "%.4g", std::string(spec_of(figure).unit) == "fraction"};
}

// A value computed, not simulated: no interval; none where the analysis gave none.
std::optional<ConfidenceInterval> exact(std::optional<double> value) {
  if (!value) return std::nullopt;
  ConfidenceInterval ci;
  ci.mean = *value;
  ci.n = 1;
  return ci;
}

nlohmann::ordered_json mean_or_null(const std::optional<ConfidenceInterval>& ci) {
  return ci ? nlohmann::ordered_json(ci->mean) : nlohmann::ordered_json();
}

} // namespace

void print_compare_table(const CompareTable& table) {
  // A replicated cell holds "mean +- half-width (change)"; a value a column does not define, "-". Row titles
  // (the figure table's, with the unit) take 40 characters.
  const int width = table.replications > 1 ? 26 : 18;
  std::printf("\n%-40s", "");
  for (const auto& column : table.columns)
    std::printf(" %*.*s", width, width, column.c_str());
  std::printf("\n");
  const VariantFigures& base = table.figures.front();
  using Getter = std::function<std::optional<ConfidenceInterval>(const VariantFigures&)>;
  auto row = [&](const std::string& label, const Getter& get, const char* format, double scale = 1.0) {
    std::printf("%-40s", label.c_str());
    const auto base_value = get(base);
    for (const auto& f : table.figures) {
      const auto value = get(f);
      std::string text = "-";
      if (value) {
        char cell[64];
        std::snprintf(cell, sizeof cell, format, scale * value->mean);
        text = cell;
        if (value->has_interval()) {
          std::snprintf(cell, sizeof cell, format, scale * value->half_width);
          text += std::string(" +-") + cell;
        }
        if (&f != &base && base_value && base_value->mean != 0.0) {
          char change[24];
          std::snprintf(change, sizeof change, " (%+.0f%%)", (value->mean / base_value->mean - 1.0) * 100.0);
          text += change;
        }
      }
      std::printf(" %*s", width, text.c_str());
    }
    std::printf("\n");
  };
  auto figure_row = [&](Figure figure, const std::string& at) {
    const CompareRow& shown = row_of(figure);
    // A figure no column defines (a cost without prices) is left out of the table.
    if (std::none_of(table.figures.begin(), table.figures.end(),
                     [&](const VariantFigures& f) { return f.figure(figure).has_value(); }))
      return;
    row(
        figure_title(figure, shown.as_percent) + at,
        [&](const VariantFigures& f) { return f.figure(figure); }, shown.format,
        shown.as_percent ? 100.0 : 1.0);
  };
  const std::string at = " @" + std::to_string(table.jobs);
  row(
      figure_title(Figure::module_mean_s) + " @" + std::to_string(table.reference_jobs) + ", low load",
      [](const VariantFigures& f) { return f.module_low_load_s; }, "%.2f");
  for (const Figure figure : compared_figures)
    figure_row(figure, at);
  // The pooled groups' pods change in time: a knee or a CPU:GPU ratio of their maximum would mislead.
  const bool pooled = std::any_of(table.figures.begin(), table.figures.end(),
                                  [](const VariantFigures& f) { return f.pooled; });
  if (!pooled) {
    row(
        "CPU:GPU ratio, analytic", [](const VariantFigures& f) { return exact(f.ratio_analytic); }, "%.1f");
    row(
        "CPU:GPU ratio, simulated", [](const VariantFigures& f) { return f.ratio_simulated; }, "%.1f");
    row(
        "knee jobs, analytic", [](const VariantFigures& f) { return exact(f.knee_analytic); }, "%.0f");
    row(
        "knee jobs, simulated", [](const VariantFigures& f) { return f.knee_simulated; }, "%.0f");
  }
  row(
      "network limit jobs", [](const VariantFigures& f) { return exact(f.network_limit_jobs); }, "%.0f");
  if (pooled)
    for (const Figure figure : compared_pool_figures)
      figure_row(figure, at);
  std::printf("%-40s", ("bottleneck" + at).c_str());
  for (const auto& f : table.figures)
    std::printf(" %*.*s", width, width, f.bottleneck.c_str());
  std::printf("\n%-40s", "network limited by");
  for (const auto& f : table.figures)
    std::printf(" %*.*s", width, width, f.network_link.c_str());
  print_compare_notes(table, pooled);
}

nlohmann::ordered_json compare_to_json(const CompareTable& table) {
  nlohmann::ordered_json json;
  json["jobs"] = table.jobs;
  json["reference_jobs"] = table.reference_jobs;
  json["replications"] = table.replications;
  json["columns"] = nlohmann::ordered_json::array();
  for (const auto& f : table.figures) {
    // A value the column does not define is null.
    nlohmann::ordered_json column{{"name", f.name},
                                  {"description", f.description},
                                  {"module_low_load_s", mean_or_null(f.module_low_load_s)}};
    for (const Figure figure : compared_figures)
      column[spec_of(figure).name] = mean_or_null(f.figure(figure));
    column["bottleneck"] = f.bottleneck;
    column["too_short"] = f.too_short;
    column["assumptions"] = provenance_to_json(f.assumptions);
    column["ratio_analytic"] = value_or_null(f.ratio_analytic);
    column["ratio_simulated"] = mean_or_null(f.ratio_simulated);
    column["knee_jobs_analytic"] = value_or_null(f.knee_analytic);
    column["knee_jobs_simulated"] = mean_or_null(f.knee_simulated);
    column["network_limit_jobs"] = value_or_null(f.network_limit_jobs);
    if (!f.no_analysis.empty()) column["no_analysis"] = f.no_analysis;
    column["network_link"] = f.network_link;
    if (f.pooled)
      for (const Figure figure : compared_pool_figures)
        column[spec_of(figure).name] = mean_or_null(f.figure(figure));
    // The 95 % intervals, from two replications on, by the names above.
    nlohmann::ordered_json intervals = nlohmann::ordered_json::object();
    auto add = [&intervals](const std::string& name, const std::optional<ConfidenceInterval>& ci) {
      if (ci && ci->has_interval())
        intervals[name] = {
            {"low", ci->low()}, {"high", ci->high()}, {"half_width", ci->half_width}, {"n", ci->n}};
    };
    add("module_low_load_s", f.module_low_load_s);
    for (const auto& [figure, ci] : f.simulated)
      add(spec_of(figure).name, ci);
    add("ratio_simulated", f.ratio_simulated);
    add("knee_jobs_simulated", f.knee_simulated);
    if (!intervals.empty()) column["ci95"] = intervals;
    json["columns"].push_back(column);
  }
  return json;
}

} // namespace sonicsim
