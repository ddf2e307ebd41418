#include "sim/policy/server_resources.hpp"

#include <algorithm>

namespace sonicsim {

Booking DeviceTimeline::run_batch(double now_s, double duration_s, int model) {
  if (last_model_ >= 0 && model != last_model_) {
    duration_s = duration_s * (1.0 + model_switch_slowdown_) + model_switch_s_;
    ++model_switches_;
  }
  last_model_ = model;
  Booking booking;
  booking.start_s = std::max(now_s, busy_until_s_);
  booking.end_s = booking.start_s + duration_s;
  busy_until_s_ = booking.end_s;
  busy_s_ += duration_s;
  return booking;
}

HostCores::HostCores(int cores) : free_at_s_(static_cast<std::size_t>(std::max(1, cores)), 0.0) {}

Booking HostCores::run(double now_s, double duration_s) {
  const auto core = std::min_element(free_at_s_.begin(), free_at_s_.end());
  Booking booking;
  booking.start_s = std::max(now_s, *core);
  booking.end_s = booking.start_s + duration_s;
  *core = booking.end_s;
  return booking;
}

double HostCores::free_at_s() const {
  return *std::min_element(free_at_s_.begin(), free_at_s_.end());
}

} // namespace sonicsim
