// The operators' straight line of outbound traffic against running jobs (the 2023 ProtoDUNE talk, "Network
// saturation"), fitted to the campaign intervals the recorder selected (CampaignSummary::fit_jobs, fit_gbps).
// Pure code.
#pragma once

#include "sim/metrics/run_summary.hpp"

namespace sonicsim::analysis {

// The line is "determined" only when the running jobs spanned at least this fraction of their maximum...
constexpr double traffic_fit_min_jobs_span = 0.2;
// ... and the slope's standard error is at most this fraction of the slope: otherwise the slope is set by the
// noise of a narrow cloud of points, and the summary reports the mean traffic per job instead.
constexpr double traffic_fit_max_relative_se = 0.25;

// Fills the fit fields of `campaign` from its fit_jobs and fit_gbps; leaves fit_valid false with fewer than 3
// intervals or when the running jobs were the same in every interval (no line to fit).
void fit_campaign_traffic(CampaignSummary& campaign);

} // namespace sonicsim::analysis
