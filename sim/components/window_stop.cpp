#include "sim/components/window_stop.hpp"

#include "sim/components/inference_server.hpp"
#include "sim/kernel/event_calendar.hpp"

namespace sonicsim {

void stop_at_window_end(JobContext& context, const std::function<void()>& on_stopped) {
  if (context.stop_scheduled || !stops_at_window_end(context.scenario) || !context.recorder.all_jobs_ready())
    return;
  context.stop_scheduled = true;
  calendar::at(context.recorder.bin_end_after(calendar::now_s()), [&context, on_stopped]() {
    if (context.jobs_done) return; // every job ended before the bin did: the run ended as it would anyway
    for (const auto& job : context.jobs)
      job->record_stopped_interval();
    context.stopped = true;
    context.stopped_at_s = calendar::now_s();
    for (const auto& server : context.servers.owned)
      server->stop();
    if (on_stopped) on_stopped();
  });
}

} // namespace sonicsim
