// A fixed run ends where its steady-state window does. The window closes when the first job runs out of
// events (the precision rule has judged the length there, sim/components/run_length.hpp); after it the jobs
// drain one by one at a falling load that no figure measures. Simulating that ramp-down cost about a third of
// a large run's time and pulls its module and event times low (few events per job: by up to 2 %).
#pragma once

#include "sim/components/job_client.hpp"

namespace sonicsim {

// Whether this run stops at its window's end: output.stop_at_window_end, in a fixed run (not a campaign,
// whose window is its own), not one with preemption (its events add up to jobs x events_per_job as written).
bool stops_at_window_end(const Scenario& scenario);

// Called when a job of the run has finished: at the first one, if every job has warmed up (a window exists;
// otherwise the whole run is measured and runs to its end), the run stops now. The jobs still running record
// their intervals so far, they and the servers do nothing more, and the run's end is now. True if it stopped.
bool stop_at_window_end(JobContext& context);

} // namespace sonicsim
