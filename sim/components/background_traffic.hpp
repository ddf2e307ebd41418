// Traffic of other users through the site's outbound switch. Each source is a real flow in SimGrid's sharing
// model, capped at its configured rate: it takes exactly that rate while the switch has room and its max-min
// share when the switch is saturated.
#pragma once

#include "sim/metrics/run_recorder.hpp"
#include "sim/platform/site_platform.hpp"

#include "sim/random/random_engine.hpp"
#include <random>

namespace sonicsim {

// A constant rate plus a piecewise-constant schedule (either may be absent).
class BackgroundTrafficSource {
public:
  // The schedule is read at schedule_start_s + the simulated time (a time window of a campaign).
  BackgroundTrafficSource(const SitePlatform& site, RunRecorder& recorder, const BackgroundTraffic& traffic,
                          double schedule_start_s = 0.0);
  void operator()();

private:
  double rate_bps_at(double t_s) const;
  const SitePlatform& site_;
  RunRecorder& recorder_;
  const BackgroundTraffic& traffic_;
  double schedule_start_s_ = 0.0;
};

// Bursts at a fixed rate separated by silences, both of exponentially distributed length.
class OnOffTrafficSource {
public:
  OnOffTrafficSource(const SitePlatform& site, RunRecorder& recorder, const OnOffTraffic& traffic,
                     RandomEngine rng);
  void operator()();

private:
  const SitePlatform& site_;
  RunRecorder& recorder_;
  OnOffTraffic traffic_;
  RandomEngine rng_;
};

// Sends rate_bps x duration_s from `source` through its limiter link and the switch, and accounts the bytes.
void send_background(const SitePlatform& site, RunRecorder& recorder, simgrid::s4u::Host* source,
                     simgrid::s4u::Link* limiter, double rate_bps, double duration_s);

} // namespace sonicsim
