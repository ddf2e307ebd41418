#include "sim/app/validate/validation_batch.hpp"

#include "sim/execution/scenario_recipe.hpp"
#include "sim/metrics/direct_baseline.hpp"
#include "sim/metrics/number_text.hpp"
#include "sim/random/replication_seed.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "sim/validation/observables.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>

namespace fs = std::filesystem;

namespace sonicsim {
namespace {

// Loads a case's scenario with its overrides; an error in an override the case file wrote is reported at
// that line of the case file (not as a --set argument the user never typed).
Scenario load_run(const ValidationCase& c, const RunSpec& run) {
  try {
    // The absolute path, as the recipe holds it: paths the scenario names (perf_analyzer files) are echoed
    // resolved from it, so a cluster task rebuilding it from the recipe gets the same fingerprint.
    Scenario scenario =
        load_variant_file(fs::absolute(run.scenario_path).string(), run.variants, run.overrides);
    scenario.seed = replication_seed(scenario.seed, run.replication);
    return scenario;
  } catch (const ScenarioError& error) {
    for (std::size_t i = 0; i < run.override_positions.size() && i < run.overrides.size(); ++i)
      if (error.file == "--set " + run.overrides[i])
        throw ScenarioError(c.file, run.override_positions[i].first, run.override_positions[i].second,
                            error.key_path,
                            error.message + " (in the case's override " + run.overrides[i] + ")");
    if (error.file.rfind("--set ", 0) == 0)
      throw ScenarioError(c.file, 0, 0, error.key_path,
                          error.message + " (in " + error.file.substr(6) + ", which the case's sweep sets)");
    throw;
  }
}

// A run as one case holds it, before the cases' runs are shared.
struct HeldRun {
  std::size_t case_index = 0;
  RunSpec run;
  Scenario scenario;
  double written_precision = 0.0;    // the scenario's own output.precision
  std::optional<std::string> figure; // the figure the case reads, when the rule is held on it alone
  std::string share_key;
};

// What decides a run apart from how precisely it is held: the resolved scenario (its seed, overrides in any
// order, the figures the rule holds), with the precision rule on or off. A run as written (precision 0, a
// fixed length) is never merged with one the rule extends.
std::string share_key(Scenario scenario) {
  scenario.output.precision_relative = scenario.output.precision_relative > 0 ? 1.0 : 0.0;
  return scenario_fingerprint(scenario);
}

std::vector<HeldRun> held_runs(const std::vector<ValidationCase>& cases) {
  std::vector<HeldRun> held;
  for (std::size_t k = 0; k < cases.size(); ++k)
    for (RunSpec run : runs_for(cases[k])) {
      HeldRun h;
      h.case_index = k;
      // The scenario is read once: the overrides added below set the same fields on it.
      h.scenario = load_run(cases[k], run);
      h.written_precision = h.scenario.output.precision_relative;
      // Held to the precision its tolerance needs (case_run_precision), on the figure it reads
      // (case_precision_figure), unless the case's scenario names its own.
      h.scenario.output.precision_relative = case_run_precision(cases[k], run, h.written_precision);
      const auto figure = case_precision_figure(cases[k]);
      if (figure && h.scenario.output.precision_figures.empty() && h.scenario.output.precision_relative > 0) {
        h.figure = figure;
        h.scenario.output.precision_figures = {*figure};
      }
      h.share_key = share_key(h.scenario);
      h.run = std::move(run);
      held.push_back(std::move(h));
    }
  return held;
}

} // namespace

ValidationBatch plan_batch(const std::vector<ValidationCase>& cases) {
  std::vector<HeldRun> held = held_runs(cases);
  // Cases that read one run at different precisions share it at the strictest: its intervals are then
  // within what each case needs, and the longer run costs less than the shorter one and it from the same
  // start (docs/validation.md). A case so reads a run longer than its own precision asked, never a shorter
  // one.
  std::map<std::string, double> strictest;
  for (const auto& h : held) {
    const auto [it, fresh] = strictest.emplace(h.share_key, h.scenario.output.precision_relative);
    if (!fresh) it->second = std::min(it->second, h.scenario.output.precision_relative);
  }
  ValidationBatch batch;
  batch.runs_of_case.resize(cases.size());
  std::map<std::string, std::size_t> run_index;
  for (auto& h : held) {
    if (!run_index.count(h.share_key)) {
      const double precision = strictest.at(h.share_key);
      // The overrides go into the run's recipe, so a cluster task rebuilding it gets the same scenario.
      if (precision != h.written_precision)
        h.run.overrides.push_back("output.precision=" + exact_number_text(precision));
      if (h.figure) h.run.overrides.push_back("output.precision_figures=[" + *h.figure + "]");
      h.scenario.output.precision_relative = precision;
      SimulationRequest request;
      request.scenario = std::move(h.scenario);
      request.recipe = ScenarioRecipe{fs::absolute(h.run.scenario_path).string(), h.run.variants,
                                      h.run.overrides, request.scenario.seed, std::nullopt};
      auto baseline = direct_inference_baseline(request.scenario);
      batch.requests.push_back(std::move(request));
      run_index[h.share_key] = batch.runs.size();
      batch.runs.push_back(h.run);
      if (baseline) {
        SimulationRequest direct;
        direct.scenario = std::move(*baseline);
        direct.recipe = batch.requests.back().recipe;
        direct.recipe.overrides.push_back("workload.inference=direct");
        batch.baseline_of[batch.runs.size() - 1] = batch.requests.size();
        batch.requests.push_back(std::move(direct));
        batch.runs.push_back(h.run); // the baseline's slot: never a case's run
      }
    }
    batch.runs_of_case[h.case_index].push_back(run_index.at(h.share_key));
  }
  return batch;
}

} // namespace sonicsim
