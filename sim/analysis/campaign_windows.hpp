// A campaign split into time windows (run --campaign-windows N): the measured span of the campaign (from its
// warm-up to the end of its window) cut into N equal windows, each simulated on its own, starting empty one
// warm-up before its window (the slots, the cap and the background are read at campaign time, so the state
// at the window's start is rebuilt from the schedule), then merged: histograms added, traffic intervals
// pooled and fitted again, means weighted by each window's measured time. The windows run at once (here or as
// a Slurm job array); what one window's jobs would have carried over into the next is rebuilt by its warm-up.
// Pure code.
#pragma once

#include "sim/metrics/run_summary.hpp"
#include "sim/scenario/scenario.hpp"

#include <vector>

namespace sonicsim::analysis {

struct CampaignWindow {
  Scenario scenario;      // start, window and seed of this window
  double measured_from_s; // campaign time at which its measurement starts
  double measured_s;      // its measured span
};

// The N windows of a campaign with a window (campaign.window) and a warm-up. Window k has the seed
// replication_seed(seed, k) (window 0 the scenario's own), and every window reads the random slot share
// from the scenario's seed, so all see one grid. The events budget (total_events) is not split: windows cut
// time. Throws std::invalid_argument when the scenario is not a campaign with a window.
std::vector<CampaignWindow> split_campaign(const Scenario& scenario, int windows);

// The campaign figures of the windows together, as one run over the whole measured span would report them:
// events and histogram counts added, running jobs and traffic averaged over time, the traffic line fitted to
// the pooled intervals, the peaks found on the summed histogram.
CampaignSummary merge_campaign_windows(const std::vector<CampaignSummary>& windows,
                                       const std::vector<double>& measured_s);

} // namespace sonicsim::analysis
