// Campaign scale: a large campaign is simulated on a fraction of the site. The shared capacities (site
// switch, WAN), the background traffic, the grid slots, the concurrent-job cap, the server pods and the
// campaign's events are all multiplied by campaign.scale; what one job sees (its NIC, its CPU, the
// per-connection TCP window, the RTT, a pod's GPU and NIC) is unchanged. Each job then meets the same share
// of every shared resource as at full scale, so times per event are those of the full site, and counts and
// rates are divided by the scale when reported (RunRecorder's campaign summary). Pure code.
#pragma once

#include "sim/scenario/scenario.hpp"

namespace sonicsim {

// The scenario the engine runs: unchanged without a campaign or with scale 1.
Scenario scaled_for_simulation(const Scenario& scenario);

} // namespace sonicsim
