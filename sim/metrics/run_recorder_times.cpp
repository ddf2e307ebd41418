// The module and event times a run reports: of every measured event, and of those ending inside the
// steady-state window; and where a run that stops at its window's end stops (output.stop_at_window_end,
// sim/components/window_stop.hpp).
#include "sim/metrics/run_recorder.hpp"

#include <algorithm>
#include <cmath>

namespace sonicsim {

void RunRecorder::TimeHistograms::add(const EventRecord& record) {
  event.add(record.end_s - record.start_s);
  for (std::size_t m = 0; m < record.module_s.size(); ++m)
    modules[m].add(record.module_s[m]);
}

// A fixed run's window opens when the last job has warmed up and closes when the first job runs out of events
// (summarize).
bool RunRecorder::in_window(double end_s) const {
  const auto window_end_s = this->window_end_s();
  return jobs_ready_ >= scenario_.workload.jobs && end_s >= latest_ready_so_far_s_ &&
         (!window_end_s || end_s <= *window_end_s);
}

std::optional<double> RunRecorder::window_end_s() const {
  if (first_ran_out_s_ && earliest_job_end_s_) return std::min(*first_ran_out_s_, *earliest_job_end_s_);
  return first_ran_out_s_ ? first_ran_out_s_ : earliest_job_end_s_;
}

double RunRecorder::bin_end_after(double time_s) const {
  const double width_s = events_done_.bin_width_s();
  return std::max(time_s, std::ceil(time_s / width_s) * width_s);
}

} // namespace sonicsim
