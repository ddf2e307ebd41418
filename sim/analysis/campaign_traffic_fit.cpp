#include "sim/analysis/campaign_traffic_fit.hpp"

#include "models/fits.hpp"
#include "sim/metrics/batch_means.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace sonicsim::analysis {

void fit_campaign_traffic(CampaignSummary& campaign) {
  const auto& jobs = campaign.fit_jobs;
  const auto& gbps = campaign.fit_gbps;
  if (jobs.size() < 3) return;
  // Running jobs that never changed but for rounding (a constant cap, means over equal intervals) have no
  // line through them: a fit would be rounding noise with no standard error.
  const auto [low, high] = std::minmax_element(jobs.begin(), jobs.end());
  if (*high - *low <= 1e-9 * std::max(1.0, std::fabs(*high))) return;
  try {
    const models::LinearFit fit = models::fit_line(jobs, gbps);
    if (!std::isfinite(fit.slope_se) || !std::isfinite(fit.intercept_se)) return; // too few points to judge
    campaign.fit_valid = true;
    campaign.slope_gbps_per_job = fit.slope;
    campaign.intercept_gbps = fit.intercept;
    // Consecutive intervals are not independent (a minute's traffic is much like the last one's): the
    // least-squares errors assume they are. As batch means do for a mean, the errors are widened by
    // sqrt((1 + r) / (1 - r)), r the lag-1 autocorrelation of the residuals in time order.
    std::vector<double> residuals;
    for (std::size_t i = 0; i < jobs.size(); ++i)
      residuals.push_back(gbps[i] - (fit.intercept + fit.slope * jobs[i]));
    campaign.fit_residual_lag1 = lag1_autocorrelation(residuals);
    const double r = std::clamp(campaign.fit_residual_lag1, 0.0, 0.95);
    const double widening = std::sqrt((1.0 + r) / (1.0 - r));
    campaign.slope_se_gbps_per_job = fit.slope_se * widening;
    campaign.intercept_se_gbps = fit.intercept_se * widening;
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
        campaign.slope_se_gbps_per_job <= traffic_fit_max_relative_se * std::abs(fit.slope);
  } catch (const std::invalid_argument&) {
    // Running jobs were the same in every interval: no line to fit.
  }
}

} // namespace sonicsim::analysis
