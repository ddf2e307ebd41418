#include "sim/components/run_length.hpp"

#include "sim/metrics/run_precision.hpp"

namespace sonicsim {

RunLength::RunLength(const Scenario& scenario, const RunRecorder& recorder)
    : scenario_(scenario), recorder_(recorder), events_per_job_(scenario.workload.events_per_job) {}

int RunLength::events_per_job(int job_events, double now_s) {
  // A job that ran out of an earlier, shorter length just takes the current one; only running out of the
  // current length calls for a judgement.
  if (judged_ || job_events < events_per_job_) return events_per_job_;
  // A run whose jobs can be preempted keeps the workload as written: its completed, failed and abandoned
  // events add up to jobs x events_per_job, which a longer run would change under the jobs abandoned.
  if (scenario_.workload.preemption) {
    judged_ = true;
    return events_per_job_;
  }
  RunPrecision precision = recorder_.precision_so_far(now_s);
  precision.events_per_job = events_per_job_;
  const auto next = next_events_per_job(precision, scenario_.output.max_extension);
  // A figure already beyond a bound the caller gave (a plan's target, on its failing side): the run has
  // decided what it was run for, and a longer run would only say so more precisely.
  if (precision.applies && precision.target_relative > 0 && !precision.met)
    stopped_beyond_ = beyond_bounds(precision, scenario_.output.stop_beyond);
  if (next && *next > events_per_job_ && stopped_beyond_.empty()) {
    events_per_job_ = *next;
    ++extensions_;
  } else {
    judged_ = true;
  }
  return events_per_job_;
}

} // namespace sonicsim
