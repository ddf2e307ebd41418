#include "sim/scenario/campaign_scale.hpp"

#include <algorithm>
#include <cmath>

namespace sonicsim {
namespace {

// Counts are rounded to the nearest integer but never below 1 (a scaled site still has a slot and a pod).
int scaled_count(int count, double scale) {
  return std::max(1, static_cast<int>(std::lround(count * scale)));
}

} // namespace

Scenario scaled_for_simulation(const Scenario& scenario) {
  if (!scenario.workload.campaign || scenario.workload.campaign->scale == 1.0) return scenario;
  Scenario scaled = scenario;
  Campaign& campaign = *scaled.workload.campaign;
  const double scale = campaign.scale;
  auto& platform = scaled.platform;
  platform.site_switch.bandwidth_bps *= scale;
  platform.wan.bandwidth_bps *= scale;
  auto& background = platform.site_switch.background;
  background.rate_bps *= scale;
  if (background.schedule)
    for (double& rate : background.schedule->value)
      rate *= scale;
  if (background.on_off) background.on_off->rate_bps *= scale;
  scaled.workload.jobs = scaled_count(scaled.workload.jobs, scale);
  // A fallback server per client node follows the scaled nodes.
  const int nodes = (scaled.workload.jobs + platform.jobs_per_node - 1) / platform.jobs_per_node;
  for (auto& group : platform.server_groups)
    group.pods = group.on_client_nodes ? nodes : scaled_count(group.pods, scale);
  // A cap of 0 stays 0 (a pause); an unlimited cap stays unlimited.
  if (campaign.max_concurrent)
    for (double& jobs : campaign.max_concurrent->value)
      if (std::isfinite(jobs) && jobs > 0) jobs = std::max(1.0, std::round(jobs * scale));
  if (campaign.total_events)
    campaign.total_events =
        std::max<std::int64_t>(1, std::llround(static_cast<double>(*campaign.total_events) * scale));
  return scaled;
}

} // namespace sonicsim
