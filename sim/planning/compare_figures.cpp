#include "sim/planning/compare_figures.hpp"

#include "sim/analysis/scenario_parameters.hpp"
#include "sim/metrics/figure_table.hpp"
#include "sim/metrics/run_figures.hpp"

#include <map>

namespace sonicsim {

namespace {

// The simulated fields of VariantFigures by their JSON names, so one list drives the means, the intervals,
// the table and compare.json.
struct SimulatedField {
  const char* name;
  double VariantFigures::*field;
};
const SimulatedField simulated_fields[] = {
    {"module_low_load_s", &VariantFigures::module_low_load_s},
    {"module_mean_s", &VariantFigures::module_mean_s},
    {"event_mean_s", &VariantFigures::event_mean_s},
    {"events_per_s", &VariantFigures::events_per_s},
    {"gpu_utilisation", &VariantFigures::gpu_utilisation},
    {"mean_executed_batch", &VariantFigures::mean_executed_batch},
    {"ratio_simulated", &VariantFigures::ratio_simulated},
    {"knee_jobs_simulated", &VariantFigures::knee_simulated},
    {"device_hours", &VariantFigures::device_hours},
    {"peak_pods", &VariantFigures::peak_pods},
};

} // namespace

CompareTable compare_figures(const std::vector<ComparedScenario>& compared, int jobs, int reference_jobs,
                             int replications) {
  CompareTable table;
  table.jobs = jobs;
  table.reference_jobs = reference_jobs;
  table.replications = replications;
  for (const auto& c : compared) {
    VariantFigures f;
    f.name = c.name.empty() ? "base" : c.name;
    for (const auto& variant : c.scenario.variants)
      if (variant.name == c.name) f.description = variant.description;
    f.assumptions = assumptions_in_use(c.scenario);
    const auto parameters = analysis::derive_parameters(c.scenario);
    const int gpus = c.scenario.platform.server_groups.front().devices();
    f.ratio_analytic = c.analysis.ratio;
    f.knee_analytic = c.analysis.jobs_per_gpu() * gpus; // in jobs: the ratio is per CPU thread
    f.network_limit_jobs = c.analysis.network_limit().jobs_at_saturation;
    f.network_link = c.analysis.network_limit().resource;
    Scenario priced = c.scenario;
    priced.workload.jobs = jobs;
    const FigureContext at_jobs{parameters.accelerated_modules, &priced, parameters.inferences};
    const FigureContext low_load{parameters.accelerated_modules, nullptr, parameters.inferences};
    auto value = [](Figure figure, const RunSummary& s, const FigureContext& context) {
      return value_of(figure, s, context).value_or(0.0);
    };
    std::map<std::string, std::vector<double>> values;
    std::vector<double> costs;
    std::vector<Bottleneck> bottlenecks;
    for (std::size_t r = 0; r < c.loaded.size(); ++r) {
      if (!c.loaded[r].ok || !c.reference[r].ok) continue;
      const RunSummary& s = c.loaded[r].summary;
      const RunSummary& low = c.reference[r].summary;
      VariantFigures one;
      one.module_low_load_s = value(Figure::module_mean_s, low, low_load);
      one.module_mean_s = value(Figure::module_mean_s, s, at_jobs);
      one.event_mean_s = value(Figure::event_mean_s, s, at_jobs);
      one.events_per_s = value(Figure::events_per_s, s, at_jobs);
      one.gpu_utilisation = value(Figure::gpu_utilisation, s, at_jobs);
      one.mean_executed_batch = value(Figure::mean_executed_batch, s, at_jobs);
      one.ratio_simulated = cpu_gpu_ratio(value(Figure::event_mean_s, low, low_load),
                                          value(Figure::gpu_s_per_event, s, at_jobs));
      one.knee_simulated = one.ratio_simulated * gpus / c.analysis.threads;
      one.device_hours = value(Figure::device_hours, s, at_jobs);
      one.peak_pods = value(Figure::peak_pods, s, at_jobs);
      f.pooled = f.pooled || value_of(Figure::device_hours, s, at_jobs).has_value();
      for (const auto& field : simulated_fields)
        values[field.name].push_back(one.*field.field);
      if (const auto cost = value_of(Figure::cost_usd_per_event, s, at_jobs)) costs.push_back(*cost);
      bottlenecks.push_back(s.bottleneck);
      for (const RunSummary* run : {&s, &low})
        if (run->precision.too_short())
          f.too_short = (run == &low ? "low-load run of replication " : "replication ") + std::to_string(r) +
                        ": " + run->precision.shortfall();
      ++f.replications;
    }
    if (f.replications > 0) {
      for (const auto& field : simulated_fields) {
        // The operations' figures only where the column has a pool: other columns write what they did.
        const bool operations_field =
            field.field == &VariantFigures::device_hours || field.field == &VariantFigures::peak_pods;
        if (operations_field && !f.pooled) continue;
        const ConfidenceInterval ci = aggregate(values[field.name]);
        f.*field.field = ci.mean;
        if (ci.has_interval()) f.intervals[field.name] = ci;
      }
      if (static_cast<int>(costs.size()) == f.replications) {
        const ConfidenceInterval ci = aggregate(costs);
        f.cost_usd_per_event = ci.mean;
        if (ci.has_interval()) f.intervals["cost_usd_per_event"] = ci;
      }
      f.bottleneck = vote_bottleneck(bottlenecks).bottleneck.sentence();
    }
    table.columns.push_back(f.name);
    table.figures.push_back(f);
  }
  return table;
}

} // namespace sonicsim
