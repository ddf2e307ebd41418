#include "sim/metrics/summary_json.hpp"

#include <cmath>
#include <limits>

namespace sonicsim {
namespace {

using json = nlohmann::ordered_json;

// A figure JSON writes as null when it is not a number (a fit's standard error with too few points).
double number_or_nan(const json& value) {
  return value.is_null() ? std::numeric_limits<double>::quiet_NaN() : value.get<double>();
}

} // namespace

CampaignSummary campaign_summary_from_json(const nlohmann::ordered_json& in) {
  CampaignSummary c;
  c.scale = in.at("scale").get<double>();
  c.mean_running_jobs = in.at("mean_running_jobs").get<double>();
  c.mean_outbound_gbps = in.at("mean_outbound_gbps").get<double>();
  c.events_completed_full_scale = in.at("events_completed_full_scale").get<double>();
  const auto& fit = in.at("outbound_vs_running_jobs");
  c.fit_valid = fit.at("valid").get<bool>();
  c.fit_determined = fit.at("determined").get<bool>();
  c.slope_gbps_per_job = fit.at("slope_gbps_per_job").get<double>();
  c.intercept_gbps = fit.at("intercept_gbps").get<double>();
  c.slope_se_gbps_per_job = number_or_nan(fit.at("slope_se_gbps_per_job"));
  c.intercept_se_gbps = number_or_nan(fit.at("intercept_se_gbps"));
  c.fit_residual_lag1 = fit.value("residual_lag1", 0.0);
  c.fit_r_squared = fit.at("r_squared").get<double>();
  c.fit_intervals = fit.at("intervals").get<std::uint64_t>();
  c.fit_jobs_min = fit.at("running_jobs_min").get<double>();
  c.fit_jobs_max = fit.at("running_jobs_max").get<double>();
  c.fit_mean_jobs = fit.at("running_jobs_mean").get<double>();
  c.fit_mean_gbps = fit.at("outbound_gbps_mean").get<double>();
  c.saturated_intervals = fit.at("saturated_intervals_left_out").get<std::uint64_t>();
  c.transient_intervals = fit.at("transient_intervals_left_out").get<std::uint64_t>();
  c.fit_jobs = fit.at("fitted_intervals").at("running_jobs").get<std::vector<double>>();
  c.fit_gbps = fit.at("fitted_intervals").at("outbound_gbps").get<std::vector<double>>();
  const auto& histogram = in.at("event_time_histogram");
  c.histogram_bin_s = histogram.at("bin_s").get<double>();
  c.event_time_counts = histogram.at("counts").get<std::vector<double>>();
  for (const auto& peak : histogram.at("peaks"))
    c.event_time_peaks.push_back(
        {peak.at("position_s").get<double>(), peak.at("height_fraction").get<double>()});
  return c;
}

nlohmann::ordered_json campaign_summary_to_json(const CampaignSummary& c) {
  json peaks = json::array();
  for (const auto& peak : c.event_time_peaks)
    peaks.push_back({{"position_s", peak.position_s}, {"height_fraction", peak.height_fraction}});
  using json = nlohmann::ordered_json;
  return json{
      {"scale", c.scale},
      {"mean_running_jobs", c.mean_running_jobs},
      {"mean_outbound_gbps", c.mean_outbound_gbps},
      {"events_completed_full_scale", c.events_completed_full_scale},
      {"outbound_vs_running_jobs",
       {{"valid", c.fit_valid},
        {"determined", c.fit_determined},
        {"slope_gbps_per_job", c.slope_gbps_per_job},
        {"intercept_gbps", c.intercept_gbps},
        {"slope_se_gbps_per_job", c.slope_se_gbps_per_job},
        {"intercept_se_gbps", c.intercept_se_gbps},
        {"residual_lag1", c.fit_residual_lag1},
        {"r_squared", c.fit_r_squared},
        {"intervals", c.fit_intervals},
        {"running_jobs_min", c.fit_jobs_min},
        {"running_jobs_max", c.fit_jobs_max},
        {"running_jobs_mean", c.fit_mean_jobs},
        {"outbound_gbps_mean", c.fit_mean_gbps},
        {"saturated_intervals_left_out", c.saturated_intervals},
        {"transient_intervals_left_out", c.transient_intervals},
        {"fitted_intervals", {{"running_jobs", c.fit_jobs}, {"outbound_gbps", c.fit_gbps}}}}},
      {"event_time_histogram",
       {{"bin_s", c.histogram_bin_s},
        {"peak_rule",
         "Gaussian smoothing (sigma 3 bins); peaks: local maxima >= 10 % of the highest, separated by a "
         "valley < 80 % of the lower peak and more than 3 standard errors below it (Poisson counts)"},
        {"peaks", peaks},
        {"counts", c.event_time_counts}}}};
}

} // namespace sonicsim
