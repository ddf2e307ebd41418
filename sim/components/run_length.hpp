// How many events each job of a fixed run processes: workload.events_per_job, extended by the precision rule
// (sim/metrics/run_precision.hpp). When the first job runs out of events, the figures measured so far over
// the steady-state window are judged; if their intervals are too wide, every job gets more events, and the
// next job to run out judges again. The answer depends on simulated state only, so a run stays
// deterministic, and a run precise enough at the first check is the same run as without the rule.
#pragma once

#include "sim/metrics/run_recorder.hpp"
#include "sim/scenario/scenario.hpp"

namespace sonicsim {

class RunLength {
public:
  RunLength(const Scenario& scenario, const RunRecorder& recorder);

  // The events per job, asked by a job that has run out of its `job_events` at simulated time now_s.
  int events_per_job(int job_events, double now_s);

  int extensions() const { return extensions_; }
  // The run was not extended because a figure lay beyond a bound of output.stop_beyond: which (or empty).
  const std::string& stopped_beyond() const { return stopped_beyond_; }
  int current() const { return events_per_job_; }

private:
  const Scenario& scenario_;
  const RunRecorder& recorder_;
  int events_per_job_;
  int extensions_ = 0;
  std::string stopped_beyond_;
  bool judged_ = false; // the current length was judged (and kept)
};

} // namespace sonicsim
