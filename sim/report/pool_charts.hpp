// The charts of pools that change in time (an autoscaled group), shared by the sweep and plan sections: the
// trade-off an operator chooses on (device-hours held against the event time, a point per setting) and the
// names a reader knows for a varied key ("threshold", not
// platform.server_groups.triton.autoscaler.threshold). Pure code.
#pragma once

#include "sim/report/vega_lite.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sonicsim::report {

// A varied key as a reader names it: its last part in words ("startup delay"), "jobs" for workload.jobs, the
// autoscaler's bounds as "min pods" / "max pods".
std::string readable_key(const std::string& key);

// One setting on the trade-off chart; the intervals are 95 % (absent: one replication).
struct TradeoffPoint {
  std::string label; // "threshold 100ms"
  std::string role;  // the legend's: "setting", "reference (static)", "answer", ...
  double device_hours = 0.0, event_s = 0.0;
  std::optional<double> device_hours_low, device_hours_high, event_low_s, event_high_s;
};

// Device-hours (x) against the event time (y), each point labelled, with its intervals as bars; a dashed
// line at `event_ceiling_s` (the most a plan allows), labelled `ceiling_label`, when given.
Json tradeoff_chart(const std::string& title, const std::vector<TradeoffPoint>& points,
                    std::optional<double> event_ceiling_s = std::nullopt,
                    const std::string& ceiling_label = "");

} // namespace sonicsim::report
