#include "sim/components/window_stop.hpp"

#include "sim/components/inference_server.hpp"
#include "sim/kernel/event_calendar.hpp"

namespace sonicsim {

bool stops_at_window_end(const Scenario& scenario) {
  const Workload& workload = scenario.workload;
  return scenario.output.stop_at_window_end && !workload.campaign && !workload.preemption;
}

bool stop_at_window_end(JobContext& context) {
  if (context.stopped || !stops_at_window_end(context.scenario) || !context.recorder.all_jobs_ready())
    return false;
  for (const auto& job : context.jobs)
    job->record_stopped_interval();
  context.stopped = true;
  context.stopped_at_s = calendar::now_s();
  for (const auto& server : context.servers.owned)
    server->stop();
  return true;
}

} // namespace sonicsim
