#include "models/network_limit.hpp"

#include <limits>
#include <stdexcept>
#include <string>

namespace sonicsim::models {

namespace {

// "value > 0" rather than "!(value <= 0)" so that NaN is rejected too.
void require_positive(double value, const char* name) {
  if (!(value > 0.0)) throw std::invalid_argument(std::string("network limit: ") + name + " must be > 0");
}

} // namespace

double per_job_traffic_bps(double bits_per_event, double event_time_s) {
  if (!(bits_per_event >= 0.0)) throw std::invalid_argument("network limit: bits_per_event must be >= 0");
  require_positive(event_time_s, "event_time_s");
  return bits_per_event / event_time_s;
}

double jobs_filling_link(double free_bps, double per_job_bps) {
  if (!(free_bps > 0.0)) return 0.0;
  return per_job_bps > 0.0 ? free_bps / per_job_bps : std::numeric_limits<double>::infinity();
}

double network_limited_jobs(double switch_bandwidth_bps, double bits_per_event, double event_time_s,
                            double background_bps) {
  require_positive(switch_bandwidth_bps, "switch_bandwidth_bps");
  require_positive(bits_per_event, "bits_per_event");
  if (!(background_bps >= 0.0)) throw std::invalid_argument("network limit: background_bps must be >= 0");
  if (background_bps >= switch_bandwidth_bps)
    throw std::invalid_argument("network limit: background_bps (" + std::to_string(background_bps) +
                                ") already fills the switch (" + std::to_string(switch_bandwidth_bps) + ")");
  return jobs_filling_link(switch_bandwidth_bps - background_bps,
                           per_job_traffic_bps(bits_per_event, event_time_s));
}

double outbound_traffic_bps(double running_jobs, double bits_per_event, double event_time_s,
                            double background_bps) {
  if (!(running_jobs >= 0.0)) throw std::invalid_argument("network limit: running_jobs must be >= 0");
  if (!(background_bps >= 0.0)) throw std::invalid_argument("network limit: background_bps must be >= 0");
  return background_bps + running_jobs * per_job_traffic_bps(bits_per_event, event_time_s);
}

} // namespace sonicsim::models
