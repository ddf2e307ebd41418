// What a plan must achieve, as users state it (`--target`, repeatable; all must hold), in the spirit of
// Triton Model Analyzer's constraints. A target names any figure of the figure table
// (sim/metrics/figure_table.hpp), with <= for a figure that is better lower and >= for one better higher:
//   module_mean_s<=1.10x     the accelerated module(s) at most 1.10 x their time at low load (the default,
//                            from --tolerance); any figure takes a factor of its low-load value
//   events_per_s_per_job>=0.95x  each job at least 95 % as fast as at low load
//   module_mean_s<=15s       the accelerated module(s), absolute
//   event_mean_s<=130s       the mean time per event
//   event_p95_s<=200s        the 95th percentile of the time per event
//   events_per_s>=2.2        events per second, all jobs together
//   cost_usd_per_event<=0.002  US dollars per event (needs the scenario's prices)
//   gpu_utilisation<=0.8     headroom on the GPUs
// The names from before the figure table (module_time, event_time, event_time_p95, throughput,
// cost_per_event) are still read, with a notice. A candidate meets a target when the side of its 95 %
// confidence interval that matters meets it (the upper bound for <=, the lower bound for >=), fails it when
// the other side does not, and is undecided otherwise. Pure code.
#pragma once

#include "sim/metrics/confidence_interval.hpp"
#include "sim/metrics/figure_table.hpp"
#include "sim/planning/confident_search.hpp"

#include <string>
#include <vector>

namespace sonicsim::planning {

struct PlanTarget {
  FigureName figure{Figure::module_mean_s, "", ""};
  bool at_most = true;   // <=; false: >=
  double limit = 1.10;   // in the figure's unit, or a factor of the reference (relative)
  bool relative = false; // a factor of the figure's value at low load (the reference run)
  std::string text;      // as the user wrote it (or as the default reads)
};

// Parses one --target; InputError saying what is expected.
PlanTarget parse_plan_target(const std::string& text);
// The default target: module_mean_s<=(1 + tolerance)x.
PlanTarget relative_module_target(double tolerance);

// The unit a target's values are written in on the terminal ("s", "x ref", "events/s", "USD").
std::string target_unit(const PlanTarget& target);

// The decision on one target from a replicated value: by the confidence bound on the right side, and by the
// mean once the interval straddles the limit but is narrower than the indifference zone (half-width at most
// `indifference` x the limit): a candidate that close to the limit is at it for every practical purpose, and
// more replications would only decide noise (the indifference-zone idea of ranking-and-selection procedures,
// Bechhofer 1954; Kim and Nelson, "Selecting the best system", 2006). `by_mean` says when that happened.
Decision decide(const PlanTarget& target, const ConfidenceInterval& value, double indifference = 0.0,
                bool* by_mean = nullptr);

// Whether more devices can only help this target (false for cost per event, which grows with devices once
// the jobs are served, and for batch sizes): the search runs on the monotone targets and checks the others at
// the answer.
bool monotone_in_devices(const PlanTarget& target);

} // namespace sonicsim::planning
