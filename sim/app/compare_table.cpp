#include "sim/app/compare_table.hpp"

#include "sim/metrics/scenario_json.hpp"
#include "sim/scenario/provenance.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>

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
    if (!f.description.empty()) std::printf("  %s: %s\n", f.name.c_str(), f.description.c_str());
  for (const auto& f : table.figures)
    if (!f.assumptions.empty())
      std::printf("%s rests on assumed and calibrated values (the scenario's provenance:):\n%s",
                  f.name.c_str(), assumptions_text(f.assumptions, "  ").c_str());
}

void print_compare_table(const CompareTable& table) {
  // A replicated cell holds "mean +- half-width (change)".
  const int width = table.replications > 1 ? 26 : 18;
  std::printf("\n%-34s", "");
  for (const auto& column : table.columns)
    std::printf(" %*.*s", width, width, column.c_str());
  std::printf("\n");
  const VariantFigures& base = table.figures.front();
  auto row = [&](const std::string& label, const std::function<double(const VariantFigures&)>& get,
                 const char* format, const char* interval = nullptr, double scale = 1.0) {
    std::printf("%-34s", label.c_str());
    for (const auto& f : table.figures) {
      char cell[64];
      std::snprintf(cell, sizeof cell, format, get(f));
      std::string text = cell;
      if (interval && f.intervals.count(interval)) {
        std::snprintf(cell, sizeof cell, format, scale * f.intervals.at(interval).half_width);
        text += std::string(" +-") + cell;
      }
      if (&f != &base && get(base) != 0.0) {
        char change[24];
        std::snprintf(change, sizeof change, " (%+.0f%%)", (get(f) / get(base) - 1.0) * 100.0);
        text += change;
      }
      std::printf(" %*s", width, text.c_str());
    }
    std::printf("\n");
  };
  const std::string at = " @" + std::to_string(table.jobs);
  row(
      "module s, low load (" + std::to_string(table.reference_jobs) + " jobs)",
      [](const VariantFigures& f) { return f.module_low_load_s; }, "%.2f", "module_low_load_s");
  row(
      "module s" + at, [](const VariantFigures& f) { return f.module_mean_s; }, "%.2f", "module_mean_s");
  row(
      "event s" + at, [](const VariantFigures& f) { return f.event_mean_s; }, "%.1f", "event_mean_s");
  row(
      "events/s" + at, [](const VariantFigures& f) { return f.events_per_s; }, "%.3f", "events_per_s");
  row(
      "GPU utilisation %" + at, [](const VariantFigures& f) { return 100.0 * f.gpu_utilisation; }, "%.1f",
      "gpu_utilisation", 100.0);
  row(
      "mean executed batch" + at, [](const VariantFigures& f) { return f.mean_executed_batch; }, "%.0f",
      "mean_executed_batch");
  // The pooled groups' pods change in time: a knee or a CPU:GPU ratio of their maximum would mislead.
  const bool pooled = std::any_of(table.figures.begin(), table.figures.end(),
                                  [](const VariantFigures& f) { return f.pooled; });
  if (!pooled) {
    row(
        "CPU:GPU ratio, analytic", [](const VariantFigures& f) { return f.ratio_analytic; }, "%.1f");
    row(
        "CPU:GPU ratio, simulated", [](const VariantFigures& f) { return f.ratio_simulated; }, "%.1f",
        "ratio_simulated");
    row(
        "knee jobs, analytic", [](const VariantFigures& f) { return f.knee_analytic; }, "%.0f");
    row(
        "knee jobs, simulated", [](const VariantFigures& f) { return f.knee_simulated; }, "%.0f",
        "knee_jobs_simulated");
  }
  row(
      "network limit jobs", [](const VariantFigures& f) { return f.network_limit_jobs; }, "%.0f");
  if (base.cost_usd_per_event)
    row(
        "cost per event, USD" + at,
        [](const VariantFigures& f) { return f.cost_usd_per_event.value_or(0.0); }, "%.4f",
        "cost_usd_per_event");
  if (pooled) {
    row(
        "device-hours held" + at, [](const VariantFigures& f) { return f.device_hours; }, "%.1f",
        "device_hours");
    row(
        "peak pods held" + at, [](const VariantFigures& f) { return f.peak_pods; }, "%.1f", "peak_pods");
  }
  std::printf("%-34s", ("bottleneck" + at).c_str());
  for (const auto& f : table.figures)
    std::printf(" %*.*s", width, width, f.bottleneck.c_str());
  std::printf("\n%-34s", "network limited by");
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
    nlohmann::ordered_json column{{"name", f.name},
                                  {"description", f.description},
                                  {"module_low_load_s", f.module_low_load_s},
                                  {"module_mean_s", f.module_mean_s},
                                  {"event_mean_s", f.event_mean_s},
                                  {"events_per_s", f.events_per_s},
                                  {"gpu_utilisation", f.gpu_utilisation},
                                  {"mean_executed_batch", f.mean_executed_batch},
                                  {"bottleneck", f.bottleneck},
                                  {"too_short", f.too_short},
                                  {"assumptions", provenance_to_json(f.assumptions)},
                                  {"ratio_analytic", f.ratio_analytic},
                                  {"ratio_simulated", f.ratio_simulated},
                                  {"knee_jobs_analytic", f.knee_analytic},
                                  {"knee_jobs_simulated", f.knee_simulated},
                                  {"network_limit_jobs", f.network_limit_jobs},
                                  {"network_link", f.network_link}};
    if (f.pooled) {
      column["device_hours"] = f.device_hours;
      column["peak_pods"] = f.peak_pods;
    }
    column["cost_usd_per_event"] = f.cost_usd_per_event ? nlohmann::ordered_json(*f.cost_usd_per_event)
                                                        : nlohmann::ordered_json(nullptr);
    if (!f.intervals.empty()) {
      auto& intervals = column["ci95"] = nlohmann::ordered_json::object();
      for (const auto& [name, ci] : f.intervals)
        intervals[name] = {
            {"low", ci.low()}, {"high", ci.high()}, {"half_width", ci.half_width}, {"n", ci.n}};
    }
    json["columns"].push_back(column);
  }
  return json;
}

} // namespace sonicsim
