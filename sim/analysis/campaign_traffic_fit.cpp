#include "sim/analysis/campaign_traffic_fit.hpp"

#include "models/fits.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace sonicsim::analysis {

void fit_campaign_traffic(CampaignSummary& campaign) {
  const auto& jobs = campaign.fit_jobs;
  const auto& gbps = campaign.fit_gbps;
  if (jobs.size() < 3) return;
  try {
    const models::LinearFit fit = models::fit_line(jobs, gbps);
    campaign.fit_valid = true;
    campaign.slope_gbps_per_job = fit.slope;
    campaign.intercept_gbps = fit.intercept;
    campaign.slope_se_gbps_per_job = fit.slope_se;
    campaign.intercept_se_gbps = fit.intercept_se;
    campaign.fit_r_squared = fit.r_squared;
    campaign.fit_intervals = fit.points;
    campaign.fit_jobs_min = *std::min_element(jobs.begin(), jobs.end());
    campaign.fit_jobs_max = *std::max_element(jobs.begin(), jobs.end());
    campaign.fit_mean_jobs =
        std::accumulate(jobs.begin(), jobs.end(), 0.0) / static_cast<double>(jobs.size());
    campaign.fit_mean_gbps =
        std::accumulate(gbps.begin(), gbps.end(), 0.0) / static_cast<double>(gbps.size());
    campaign.fit_determined =
        campaign.fit_jobs_max - campaign.fit_jobs_min >= traffic_fit_min_jobs_span * campaign.fit_jobs_max &&
        fit.slope_se <= traffic_fit_max_relative_se * std::abs(fit.slope);
  } catch (const std::invalid_argument&) {
    // Running jobs were the same in every interval: no line to fit.
  }
}

} // namespace sonicsim::analysis
