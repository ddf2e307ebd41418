// The short human summary `sonicsim run` prints.
#pragma once

#include "sim/metrics/replicated_figures.hpp"
#include "sim/metrics/run_recorder.hpp"
#include "sim/scenario/scenario.hpp"

#include <iosfwd>

namespace sonicsim {

// The campaign lines of a run summary: running jobs and traffic, the traffic line, the histogram peaks.
void print_campaign_lines(std::ostream& out, const CampaignSummary& campaign);

// `verbose`: also how the engine timed the flows (how many went through SimGrid's solver, the links left out
// of its routes).
void print_run_summary(std::ostream& out, const Scenario& scenario, const RunSummary& summary,
                       bool verbose = false);

// The same figures over replications: each as mean +- the half-width of its 95 % interval.
void print_replicated_summary(std::ostream& out, const Scenario& scenario, const ReplicatedRun& run);

} // namespace sonicsim
