#include "sim/planning/compare_figures.hpp"

#include "sim/analysis/scenario_parameters.hpp"
#include "sim/metrics/figure_table.hpp"
#include "sim/metrics/run_figures.hpp"

#include <algorithm>
#include <map>

namespace sonicsim {

const std::vector<Figure> compared_figures = figures_shown_in(in_compare);
const std::vector<Figure> compared_pool_figures = figures_shown_in(in_compare_pool);

std::optional<ConfidenceInterval> VariantFigures::figure(Figure figure) const {
  const auto it = simulated.find(figure);
  if (it == simulated.end()) return std::nullopt;
  return it->second;
}

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
    if (c.analysis) {
      f.ratio_analytic = c.analysis->ratio;
      f.knee_analytic = c.analysis->jobs_per_gpu() * gpus; // in jobs: the ratio is per CPU thread
      f.network_limit_jobs = c.analysis->network_limit().jobs_at_saturation;
      f.network_link = c.analysis->network_limit().resource;
    }
    f.no_analysis = c.no_analysis;
    Scenario priced = c.scenario;
    priced.workload.jobs = jobs;
    const FigureContext at_jobs{parameters.accelerated_modules, &priced, parameters.inferences};
    const FigureContext low_load{parameters.accelerated_modules, nullptr, parameters.inferences};
    std::map<Figure, std::vector<std::optional<double>>> values;
    std::vector<std::optional<double>> low_load_module, ratios, knees;
    std::vector<Bottleneck> bottlenecks;
    for (std::size_t r = 0; r < c.loaded.size(); ++r) {
      if (!c.loaded[r].ok || !c.reference[r].ok) continue;
      const RunSummary& s = c.loaded[r].summary;
      const RunSummary& low = c.reference[r].summary;
      for (const Figure figure : compared_figures)
        values[figure].push_back(value_of(figure, s, at_jobs));
      for (const Figure figure : compared_pool_figures)
        values[figure].push_back(value_of(figure, s, at_jobs));
      f.pooled = f.pooled || value_of(Figure::device_hours, s, at_jobs).has_value();
      low_load_module.push_back(value_of(Figure::module_mean_s, low, low_load));
      const auto low_event_s = value_of(Figure::event_mean_s, low, low_load);
      const auto gpu_s = value_of(Figure::gpu_s_per_event, s, at_jobs);
      const auto ratio = cpu_gpu_ratio(low_event_s, gpu_s);
      ratios.push_back(ratio);
      // The knee as ratio x GPUs sizes one group's devices: none without the analysis that says so.
      knees.push_back(ratio && c.analysis ? std::optional<double>(*ratio * gpus / c.analysis->threads)
                                          : std::nullopt);
      bottlenecks.push_back(s.bottleneck);
      for (const RunSummary* run : {&s, &low})
        if (run->precision.too_short())
          f.too_short = (run == &low ? "low-load run of replication " : "replication ") + std::to_string(r) +
                        ": " + run->precision.shortfall();
      ++f.replications;
    }
    if (f.replications > 0) {
      for (const auto& [figure, list] : values) {
        // The pool's figures only where the column has a pool.
        const bool pool_figure = std::find(compared_pool_figures.begin(), compared_pool_figures.end(),
                                           figure) != compared_pool_figures.end();
        if (pool_figure && !f.pooled) continue;
        if (const auto ci = aggregate_defined(list)) f.simulated[figure] = *ci;
      }
      f.module_low_load_s = aggregate_defined(low_load_module);
      f.ratio_simulated = aggregate_defined(ratios);
      f.knee_simulated = aggregate_defined(knees);
      f.bottleneck = vote_bottleneck(bottlenecks).bottleneck.sentence();
    }
    table.columns.push_back(f.name);
    table.figures.push_back(f);
  }
  return table;
}

} // namespace sonicsim
