// Traffic of other users through the site's outbound switch. It is a real flow in SimGrid's sharing model,
// capped at the configured rate: it takes exactly that rate while the switch has room and its max-min share
// when the switch is saturated.
#pragma once

#include "sim/metrics/run_recorder.hpp"
#include "sim/platform/site_platform.hpp"

namespace sonicsim {

class BackgroundTrafficSource {
public:
  BackgroundTrafficSource(const SitePlatform& site, RunRecorder& recorder, double rate_bps);
  void operator()();

private:
  const SitePlatform& site_;
  RunRecorder& recorder_;
  double rate_bps_;
};

} // namespace sonicsim
