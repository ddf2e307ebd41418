#include "sim/components/background_traffic.hpp"
#include "sim/kernel/event_calendar.hpp"

#include "sim/random/distribution.hpp"

#include <algorithm>
#include <cmath>

namespace sg4 = simgrid::s4u;

namespace sonicsim {

void send_background(const SitePlatform& site, RunRecorder& recorder, sg4::Host* source, sg4::Link* limiter,
                     double rate_bps, double duration_s) {
  const double start_s = calendar::now_s();
  // Comm::set_rate() is not applied to host-to-host comms in SimGrid 3.32: the rate is the limiter's
  // bandwidth.
  limiter->set_bandwidth(rate_bps / 8.0);
  const double bytes = rate_bps / 8.0 * duration_s;
  sg4::Comm::sendto(source, site.background_sink, static_cast<std::uint64_t>(bytes));
  recorder.record_transfer({site.switch_out_link}, bytes, start_s, calendar::now_s());
}

BackgroundTrafficSource::BackgroundTrafficSource(const SitePlatform& site, RunRecorder& recorder,
                                                 const BackgroundTraffic& traffic, double schedule_start_s)
    : site_(site), recorder_(recorder), traffic_(traffic), schedule_start_s_(schedule_start_s) {}

double BackgroundTrafficSource::rate_bps_at(double t_s) const {
  return traffic_.rate_bps + (traffic_.schedule ? traffic_.schedule->at(schedule_start_s_ + t_s) : 0.0);
}

void BackgroundTrafficSource::operator()() {
  // Chunks of 10 s at the rate in force: short enough that the time series sees the traffic where it happens.
  // A chunk stops at the next step of the schedule, so the rate changes exactly when scheduled.
  constexpr double chunk_s = 10.0;
  while (true) {
    const double now_s = calendar::now_s();
    double next_step_s = now_s + chunk_s;
    if (traffic_.schedule)
      for (const double from_s : traffic_.schedule->from_s)
        if (from_s - schedule_start_s_ > now_s) {
          next_step_s = std::min(next_step_s, from_s - schedule_start_s_);
          break;
        }
    const double rate_bps = rate_bps_at(now_s);
    if (rate_bps > 0) {
      send_background(site_, recorder_, site_.background_source, site_.background_limiter, rate_bps,
                      next_step_s - now_s);
    } else {
      sg4::this_actor::sleep_until(next_step_s);
    }
  }
}

OnOffTrafficSource::OnOffTrafficSource(const SitePlatform& site, RunRecorder& recorder,
                                       const OnOffTraffic& traffic, RandomEngine rng)
    : site_(site), recorder_(recorder), traffic_(traffic), rng_(std::move(rng)) {}

void OnOffTrafficSource::operator()() {
  constexpr double chunk_s = 10.0; // as above: bursts are sent in chunks so the time series places them
  while (true) {
    sg4::this_actor::sleep_for(-traffic_.mean_off_s * std::log1p(-uniform01(rng_)));
    double burst_s = -traffic_.mean_on_s * std::log1p(-uniform01(rng_));
    while (burst_s > 0) {
      const double piece_s = std::min(chunk_s, burst_s);
      send_background(site_, recorder_, site_.on_off_source, site_.on_off_limiter, traffic_.rate_bps,
                      piece_s);
      burst_s -= piece_s;
    }
  }
}

} // namespace sonicsim
