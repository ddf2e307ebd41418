// A fixed run may end where its steady-state window does (output.stop_at_window_end). The window closes when
// the first job runs out of events (the precision rule has judged the length there,
// sim/components/run_length.hpp); after it the jobs drain one by one at a falling load that no rate measures.
// Simulating that ramp-down cost a third of a large run's time, and it pulls the module and event times low
// (few events per job: by up to 2 %).
#pragma once

#include "sim/components/job_client.hpp"

#include <functional>

namespace sonicsim {

// Whether a run stops so: stops_at_window_end (sim/scenario/scenario.hpp), which the recorder reads too.

// Called when a job of the run has finished: at the first one, if every job has warmed up (a window exists;
// otherwise the whole run is measured and runs to its end), the run is stopped at the end of the rate series'
// time bin that holds the window's end, so that every bin the window reads is the same as in a run to the end
// (its rates identical; the work in flight then, transfers and instances recorded as they end, is left out).
// The jobs still running record their time so far, they and the servers do nothing more, `on_stopped` runs.
void stop_at_window_end(JobContext& context, const std::function<void()>& on_stopped);

} // namespace sonicsim
