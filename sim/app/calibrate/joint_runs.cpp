#include "sim/app/calibrate/joint_runs.hpp"
#include "sim/analysis/figure_context.hpp"

#include "sim/app/calibrate/calibrate_inputs.hpp"
#include "sim/metrics/direct_baseline.hpp"
#include "sim/random/replication_seed.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace sonicsim {
namespace {

// One simulated point: its request and, when the figure needs it, its direct-inference baseline's.
struct PointRequests {
  std::size_t service = 0;
  std::optional<std::size_t> direct;
};

PointRequests add_run(std::vector<SimulationRequest>& requests, const std::string& scenario_path,
                      const std::vector<std::string>& variants, const std::vector<std::string>& overrides,
                      int replication, bool with_direct) {
  SimulationRequest request;
  // From the absolute path the recipe holds, so that a cluster task rebuilds the same scenario (paths it
  // names are echoed as resolved from it).
  const std::string absolute = std::filesystem::absolute(scenario_path).string();
  request.scenario = load_variant_file(absolute, variants, overrides);
  request.scenario.seed = replication_seed(request.scenario.seed, replication);
  request.recipe = ScenarioRecipe{absolute, variants, overrides, request.scenario.seed, std::nullopt};
  PointRequests point{requests.size(), std::nullopt};
  auto baseline = with_direct ? direct_inference_baseline(request.scenario) : std::nullopt;
  requests.push_back(std::move(request));
  if (baseline) {
    SimulationRequest direct;
    direct.scenario = std::move(*baseline);
    direct.recipe = requests.back().recipe;
    direct.recipe.overrides.push_back("workload.inference=direct");
    point.direct = requests.size();
    requests.push_back(std::move(direct));
  }
  return point;
}

// The summaries of a batch, each service run joined with its baseline.
std::vector<RunSummary> run_all(const ExecutionContext& context, std::vector<SimulationRequest>& requests,
                                const std::vector<PointRequests>& points, RunCache* cache = nullptr) {
  const auto outcomes = run_cached(context, requests, cache);
  std::vector<RunSummary> summaries;
  for (const auto& point : points) {
    if (!outcomes[point.service].ok)
      throw std::runtime_error("a calibration run failed: " + outcomes[point.service].error);
    RunSummary summary = outcomes[point.service].summary;
    if (point.direct) {
      if (!outcomes[*point.direct].ok)
        throw std::runtime_error("a direct-inference baseline failed: " + outcomes[*point.direct].error);
      compare_with_direct(summary, outcomes[*point.direct].summary);
    }
    summaries.push_back(std::move(summary));
  }
  return summaries;
}

bool needs_direct(Figure figure) {
  return figure == Figure::direct_events_per_s_per_job || figure == Figure::direct_inference_gain;
}

// A prediction's run at one parameter vector, replication and sweep point (a crossing's jobs `x`; a figure's
// one point, x unused). The overrides in one order, so that a run asked twice has one recipe (RunCache).
void add_prediction_run(const JointSpec& spec, const JointPrediction& prediction,
                        const std::vector<double>& values, double x, int replication, bool with_direct,
                        std::vector<SimulationRequest>& requests, std::vector<PointRequests>& points) {
  std::vector<std::string> overrides = prediction.overrides;
  if (prediction.observable == "crossing_jobs") overrides.push_back("workload.jobs=" + value_text(x, ""));
  for (auto& o : prediction_overrides(spec, prediction, values))
    overrides.push_back(std::move(o));
  points.push_back(
      add_run(requests, prediction.scenario, prediction.variants, overrides, replication, with_direct));
}

// A figure prediction's runs at one parameter vector, a replication each: its value and its warnings read the
// same runs (one recipe each, so the second reader takes them from the cache).
void add_figure_runs(const JointSpec& spec, const JointPrediction& prediction,
                     const std::vector<double>& values, const FigureName& figure,
                     std::vector<SimulationRequest>& requests, std::vector<PointRequests>& points) {
  for (int r = 0; r < prediction.replications; ++r)
    add_prediction_run(spec, prediction, values, 0.0, r, needs_direct(figure.figure), requests, points);
}

// A crossing prediction's curves (a parameter vector and a replication each), simulated in waves along the
// sweep (models::first_falls_in_waves): the points after a curve's first fall below the direct level, the
// largest job counts and the dearest runs, are never simulated; each answer is the whole sweep's.
std::vector<std::vector<std::optional<double>>>
simulate_crossings(const JointSpec& spec, const JointPrediction& prediction, const ExecutionContext& context,
                   const std::vector<std::vector<double>>& values, const FigureName& figure,
                   RunCache* cache) {
  const auto replications = static_cast<std::size_t>(prediction.replications);
  const auto read = [&](const std::vector<std::pair<std::size_t, std::size_t>>& asked) {
    std::vector<SimulationRequest> requests;
    std::vector<PointRequests> points;
    for (const auto& [curve, i] : asked)
      add_prediction_run(spec, prediction, values[curve / replications], prediction.sweep[i],
                         static_cast<int>(curve % replications), true, requests, points);
    const auto summaries = run_all(context, requests, points, cache);
    std::vector<models::CurvePoint> out;
    const std::string where = "prediction " + prediction.id;
    const FigureName direct{Figure::direct_events_per_s_per_job, "", ""};
    for (std::size_t k = 0; k < asked.size(); ++k) {
      const auto& scenario = requests[points[k].service].scenario;
      out.push_back(
          {analysis::named_figure_value(figure, summaries[k], scenario, where),
           prediction.level_scale * analysis::named_figure_value(direct, summaries[k], scenario, where)});
    }
    return out;
  };
  const auto crossings = models::first_falls_in_waves(prediction.sweep, values.size() * replications, read);
  std::vector<std::vector<std::optional<double>>> out(values.size());
  for (std::size_t c = 0; c < crossings.size(); ++c)
    out[c / replications].push_back(crossings[c] ? std::optional<double>(crossings[c]->x) : std::nullopt);
  return out;
}

} // namespace

std::vector<SeriesPointRun> simulate_series_runs(const JointSpec& spec, const ExecutionContext& context,
                                                 const std::vector<double>& values, int replication,
                                                 RunCache* cache) {
  std::vector<SimulationRequest> requests;
  std::vector<PointRequests> points;
  std::vector<SeriesPointRun> runs;
  for (const auto& series : spec.series)
    for (const auto& point : series.points) {
      std::vector<std::string> overrides = series.overrides;
      overrides.push_back(series.x_key + "=" + value_text(point.x, ""));
      for (auto& o : parameter_overrides(spec, {series.name}, values))
        overrides.push_back(std::move(o));
      points.push_back(add_run(requests, series.scenario, series.variants, overrides, replication,
                               needs_direct(series.observable.figure)));
      runs.push_back({&series, &point, {}, {}, 0.0});
    }
  auto summaries = run_all(context, requests, points, cache);
  for (std::size_t k = 0; k < summaries.size(); ++k) {
    auto& run = runs[k];
    run.scenario = requests[points[k].service].scenario;
    run.value = analysis::named_figure_value(run.series->observable, summaries[k], run.scenario,
                                             spec.file + ": series " + run.series->name);
    run.summary = std::move(summaries[k]);
  }
  return runs;
}

std::vector<double> simulate_series(const JointSpec& spec, const ExecutionContext& context,
                                    const std::vector<double>& values, int replication, RunCache* cache) {
  std::vector<double> predicted;
  for (const auto& run : simulate_series_runs(spec, context, values, replication, cache))
    predicted.push_back(run.value);
  return predicted;
}

std::vector<std::vector<std::optional<double>>>
simulate_prediction(const JointSpec& spec, const JointPrediction& prediction, const ExecutionContext& context,
                    const std::vector<std::vector<double>>& values, RunCache* cache) {
  const bool crossing = prediction.observable == "crossing_jobs";
  const FigureName figure = parse_figure_name(crossing ? prediction.figure : prediction.observable, "figure");
  if (crossing) return simulate_crossings(spec, prediction, context, values, figure, cache);
  std::vector<SimulationRequest> requests;
  std::vector<PointRequests> points;
  for (const auto& v : values)
    add_figure_runs(spec, prediction, v, figure, requests, points);
  const auto summaries = run_all(context, requests, points, cache);
  std::vector<std::vector<std::optional<double>>> out(values.size());
  std::size_t k = 0;
  for (std::size_t v = 0; v < values.size(); ++v)
    for (int r = 0; r < prediction.replications; ++r, ++k)
      out[v].push_back(analysis::named_figure_value(
          figure, summaries[k], requests[points[k].service].scenario, "prediction " + prediction.id));
  return out;
}

std::vector<std::string> prediction_warnings(const JointSpec& spec, const JointPrediction& prediction,
                                             const ExecutionContext& context,
                                             const std::vector<double>& values, RunCache* cache) {
  if (prediction.observable == "crossing_jobs") return {};
  const FigureName figure = parse_figure_name(prediction.observable, "figure");
  std::vector<SimulationRequest> requests;
  std::vector<PointRequests> points;
  // The same runs as the prediction's value at these values: taken from `cache`, never simulated twice.
  add_figure_runs(spec, prediction, values, figure, requests, points);
  const auto summaries = run_all(context, requests, points, cache);
  // Per group, in the layout's order: in how many runs it was past saturation, and the longest wait.
  std::vector<std::pair<std::string, std::pair<int, double>>> past;
  for (const auto& summary : summaries)
    for (const auto& group : summary.group_usage) {
      if (!group.past_saturation()) continue;
      auto at = std::find_if(past.begin(), past.end(), [&](const auto& p) { return p.first == group.name; });
      if (at == past.end()) at = past.insert(past.end(), {group.name, {0, 0.0}});
      ++at->second.first;
      at->second.second = std::max(at->second.second, group.mean_queue_wait_s / group.mean_batch_s);
    }
  std::vector<std::string> warnings;
  for (const auto& [name, seen] : past)
    warnings.push_back("server group " + name + " is past its own saturation point in " +
                       std::to_string(seen.first) + " of " + std::to_string(summaries.size()) +
                       " runs (a request waits up to " + std::to_string(std::lround(seen.second)) +
                       " of its batches' time in its queue): the value rests on that queue");
  return warnings;
}

JointSimulator joint_simulator(const ExecutionContext& context, RunCache* prediction_cache,
                               RunCache* series_cache) {
  return {
      [&context, series_cache](const JointSpec& spec, const std::vector<double>& values, int replication) {
        return simulate_series(spec, context, values, replication, series_cache);
      },
      [&context, prediction_cache](const JointSpec& spec, const JointPrediction& prediction,
                                   const std::vector<std::vector<double>>& values) {
        return simulate_prediction(spec, prediction, context, values, prediction_cache);
      },
      [&context, prediction_cache](const JointSpec& spec, const JointPrediction& prediction,
                                   const std::vector<double>& values) {
        return prediction_warnings(spec, prediction, context, values, prediction_cache);
      }};
}

} // namespace sonicsim
