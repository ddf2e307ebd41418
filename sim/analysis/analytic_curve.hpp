// The analytic predictions at given job counts: the piecewise SONIC model (arXiv:2009.04509 Eq. 4) and exact
// MVA of the closed network, for the accelerated module and for the whole event, side by side.
#pragma once

#include "sim/analysis/scenario_parameters.hpp"

#include <vector>

namespace sonicsim::analysis {

struct AnalyticPoint {
  int jobs = 0;
  double sonic_module_s = 0.0; // t_module (preprocess + transmit + travel + GPU with queueing), Eq. 4
  double sonic_event_s = 0.0;  // t_SONIC, Eq. 4
  bool saturated = false;      // beyond the knee (Eq. 3)
  double mva_module_s = 0.0;   // MVA cycle time minus the CPU time outside the module
  double mva_event_s = 0.0;    // MVA cycle time n / X(n)
  double mva_events_per_s = 0.0;
  double mva_gpu_utilisation = 0.0;
};

// One point per entry of `jobs` (each >= 1), in the same order; a job of T threads is T customers. MVA is
// solved once up to the largest count.
std::vector<AnalyticPoint> analytic_curve(const ScenarioParameters& parameters, const std::vector<int>& jobs);

} // namespace sonicsim::analysis
