// Figures a plan or a comparison reads from a simulated run: the accelerated module's time, the GPU time per
// event, the CPU:GPU ratio and the cost per event. Pure code.
#pragma once

#include "sim/metrics/run_summary.hpp"
#include "sim/scenario/scenario.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

// GPU-seconds per event: busy GPU-seconds per inference measured at the server in the run's window, times the
// scenario's mean inferences per event. Measured per inference (not per completed event) because both the
// busy time and the inferences are counted at the server over the same window.
double gpu_seconds_per_event(const RunSummary& summary, double inferences_per_event);

// The CPU:GPU ratio of arXiv:2009.04509: unsaturated event time / GPU-seconds per event.
double cpu_gpu_ratio(double unsaturated_event_s, double gpu_s_per_event);

// Names of the price keys the scenario lacks for a cost ("costs.device_hour.A100", "costs.cpu_hour"): one
// per device type its groups use, and the job slot's.
std::vector<std::string> missing_prices(const Scenario& scenario);

struct CostPerEvent {
  double device_hours = 0.0; // per event, every group's devices
  double cpu_hours = 0.0;    // per event
  double usd = 0.0;          // per event
};
// Devices (at their type's price) and job slots held for the time one event takes at the given rate: hours
// per event = devices / (events/s x 3600). None when a price is missing or the rate is not positive.
std::optional<CostPerEvent> cost_per_event(const Scenario& scenario, double events_per_s);

} // namespace sonicsim
