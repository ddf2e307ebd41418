#include "sim/actors/run_length.hpp"

#include "sim/metrics/run_precision.hpp"

namespace sonicsim {

RunLength::RunLength(const Scenario& scenario, const RunRecorder& recorder)
    : scenario_(scenario), recorder_(recorder), events_per_job_(scenario.workload.events_per_job) {}

int RunLength::events_per_job(int job_events, double now_s) {
  // A job that ran out of an earlier, shorter length just takes the current one; only running out of the
  // current length calls for a judgement.
  if (judged_ || job_events < events_per_job_) return events_per_job_;
  RunPrecision precision = recorder_.precision_so_far(now_s);
  precision.events_per_job = events_per_job_;
  const auto next = next_events_per_job(precision, scenario_.output.max_extension);
  if (next && *next > events_per_job_) {
    events_per_job_ = *next;
    ++extensions_;
  } else {
    judged_ = true;
  }
  return events_per_job_;
}

} // namespace sonicsim
