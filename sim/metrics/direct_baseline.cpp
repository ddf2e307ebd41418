#include "sim/metrics/direct_baseline.hpp"

namespace sonicsim {

std::optional<Scenario> direct_inference_baseline(const Scenario& scenario) {
  const Workload& workload = scenario.workload;
  if (workload.campaign) return std::nullopt;
  bool served = false;
  for (const Module& module : workload.pipeline) {
    if (module.type != Module::Type::remote_inference) continue;
    if (!module.direct_s) return std::nullopt;
    served = served || module.served();
  }
  if (!served) return std::nullopt; // this run is the baseline already
  Scenario direct = scenario;
  direct.workload.direct_inference = true;
  for (Module& module : direct.workload.pipeline)
    module.run_direct = module.type == Module::Type::remote_inference;
  return direct;
}

void compare_with_direct(RunSummary& service, const RunSummary& direct) {
  if (!(direct.event.mean_s > 0) || !(service.event.mean_s > 0)) return;
  // Both sides by the same figure, completions per second per job in each run's steady-state window: one
  // throughput, the one `run` prints (each run held to the precision rule).
  DirectInferenceComparison& comparison = service.direct_inference.emplace();
  comparison.event_mean_s = direct.event.mean_s;
  comparison.events_per_s_per_job = direct.events_per_s_per_job;
  comparison.service_events_per_s_per_job = service.events_per_s_per_job;
  comparison.gain = comparison.service_events_per_s_per_job / comparison.events_per_s_per_job - 1.0;
}

} // namespace sonicsim
