// Planning an autoscaled pool: which autoscaler settings (threshold, min, max, start-up delay) keep the event
// time within a tolerance of a static deployment at the fewest device-hours. Each setting and the static
// reference run the same replications' seeds (common random numbers), so each replication gives a paired
// ratio of event times; a setting meets the target only when the 95 % upper bound of its mean ratio does.
// Pure code: the summaries' figures in, the verdicts and the answer out (sim/app/plan/plan_autoscaler.cpp
// runs the simulations).
#pragma once

#include "sim/metrics/confidence_interval.hpp"
#include "sim/scenario/operations.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sonicsim::planning {

struct AutoscalerSetting {
  double threshold = 0.0; // in the metric's unit (seconds for queue time)
  int min_pods = 1;
  int max_pods = 1;
  double startup_delay_s = 0.0;
};

// One replication's figures of a run.
// A replication's figures; each is none where the run does not define it (no event completed, no prices).
struct PooledFigures {
  std::optional<double> event_mean_s;
  std::optional<double> device_hours;
  std::optional<double> cost_usd_per_event;
};

struct AutoscalerOption {
  AutoscalerSetting setting;
  ConfidenceInterval event_ratio; // event time / the reference's, paired by replication
  ConfidenceInterval event_mean_s;
  ConfidenceInterval device_hours;
  ConfidenceInterval cost_usd_per_event; // n = 0 without prices
  enum class Verdict { meets, fails, undecided } verdict = Verdict::undecided;
};

struct AutoscalerPlan {
  double tolerance = 0.05;
  ConfidenceInterval reference_event_mean_s, reference_device_hours;
  std::vector<AutoscalerOption> options; // by mean device-hours, fewest first
  std::optional<std::size_t> answer;     // into options: the fewest device-hours among those that meet
  std::string reason;                    // why there is no answer, or what could change it
};

// `reference` and each of `runs[s]` hold one PooledFigures per replication, in the same seed order.
AutoscalerPlan decide_autoscaler_plan(double tolerance, const std::vector<PooledFigures>& reference,
                                      const std::vector<AutoscalerSetting>& settings,
                                      const std::vector<std::vector<PooledFigures>>& runs);

const char* verdict_name(AutoscalerOption::Verdict verdict);

} // namespace sonicsim::planning
