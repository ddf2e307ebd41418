#include "sim/execution/local_pool.hpp"
#include "sim/metrics/json_fields.hpp"

#include "sim/engine/simulation.hpp"
#include "sim/execution/process_pool.hpp"
#include "sim/execution/progress.hpp"
#include "sim/execution/scenario_recipe.hpp"
#include "sim/metrics/summary_json.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace sonicsim {

namespace {

// With SONICSIM_RUN_LOG=FILE, a line per simulation run here is appended to FILE (tab-separated: the resolved
// scenario's fingerprint, its name, jobs, events per job as written, seed, CPU seconds, wall seconds, events
// per job as run after the precision rule, 0 for a run that failed): where a command's CPU time goes, by
// scenario and size, how much of it the rule's extensions are, and whether it runs one simulation twice
// (docs/speed_and_reliability.md).
void log_run(const Scenario& scenario, const ChildResult& child, int events_per_job_run) {
  const char* path = std::getenv("SONICSIM_RUN_LOG");
  if (!path || !*path) return;
  FILE* file = std::fopen(path, "a");
  if (!file) return; // a diagnostic only: the command goes on
  std::fprintf(file, "%s\t%s\t%d\t%d\t%llu\t%.3f\t%.3f\t%d\n", scenario_fingerprint(scenario).c_str(),
               scenario.name.c_str(), scenario.workload.jobs, scenario.workload.events_per_job,
               static_cast<unsigned long long>(scenario.seed), child.cpu_s, child.wall_clock_s,
               events_per_job_run);
  std::fclose(file);
}

// The order to start a batch's simulations in: the largest first (jobs x events per job, the requests they
// send), ties in request order. The cores stay busy to the end: a sweep to 1,000 jobs started in its own
// order ran its dearest points last, one core idle while the other finished them. Outcomes keep request
// order.
std::vector<std::size_t> longest_first(const std::vector<SimulationRequest>& requests) {
  std::vector<std::size_t> order(requests.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    order[k] = k;
  const auto size = [&](std::size_t k) {
    const Workload& w = requests[k].scenario.workload;
    return static_cast<double>(w.jobs) * static_cast<double>(w.events_per_job);
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return size(a) > size(b); });
  return order;
}

// The batch, counted in `progress` after the `done_before` simulations it had finished.
std::vector<SimulationOutcome> run_counted(const std::vector<SimulationRequest>& requests, int parallel,
                                           Progress& progress, std::size_t done_before,
                                           const OnOutcome& on_outcome) {
  std::vector<SimulationOutcome> outcomes(requests.size());
  std::size_t done = 0;
  const auto running = [&] { return std::min(requests.size() - done, static_cast<std::size_t>(parallel)); };
  if (!requests.empty()) progress.update(done_before, running());
  const std::vector<std::size_t> order = longest_first(requests);
  run_in_child_processes(
      requests.size(), parallel,
      [&](std::size_t started) {
        const SimulationRequest& request = requests[order[started]];
        return json_text(run_summary_to_json(run_simulation(request.scenario, request.here).summary));
      },
      [&](std::size_t started, const ChildResult& child) {
        const std::size_t k = order[started];
        SimulationOutcome& outcome = outcomes[k];
        outcome.wall_clock_s = child.wall_clock_s;
        outcome.ok = child.ok;
        if (child.ok)
          outcome.summary = run_summary_from_json(nlohmann::ordered_json::parse(child.output));
        else
          outcome.error = child.output;
        log_run(requests[k].scenario, child, child.ok ? outcome.summary.precision.events_per_job : 0);
        ++done;
        if (on_outcome) on_outcome(k, outcome);
        progress.update(done_before + done, running());
      });
  return outcomes;
}

} // namespace

std::vector<SimulationOutcome> run_here(const std::vector<SimulationRequest>& requests, int parallel,
                                        Progress& command_progress, const OnOutcome& on_outcome) {
  const std::size_t done_before = command_progress.total();
  command_progress.add(requests.size());
  return run_counted(requests, parallel, command_progress, done_before, on_outcome);
}

std::vector<SimulationOutcome> run_here(const std::vector<SimulationRequest>& requests, int parallel,
                                        const std::string& label, bool quiet, const OnOutcome& on_outcome) {
  Progress progress(label, requests.size(), "simulations", quiet);
  auto outcomes = run_counted(requests, parallel, progress, 0, on_outcome);
  if (!requests.empty()) progress.finish();
  return outcomes;
}

} // namespace sonicsim
