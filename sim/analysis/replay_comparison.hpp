// A recorded series against the simulated one at the recorded times (`sonicsim replay`): how far apart they
// are over time and, for a replica count, whether the simulated autoscaler took the recorded decisions and
// how late. Pure code, unit-tested on series computed by hand.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sonicsim::analysis {

struct ReplayPoint {
  double t_s = 0.0; // since the recording's first sample
  double recorded = 0.0, simulated = 0.0;
};

struct SeriesComparison {
  std::size_t points = 0;
  double mean_recorded = 0.0, mean_simulated = 0.0;
  double mean_error = 0.0;          // simulated - recorded, averaged: the bias
  double mean_absolute_error = 0.0; // in the series' unit
  double relative_error = 0.0;      // mean |error| / mean |recorded|; 0 when the recording is all 0
  // A count (replicas): the fraction of steps whose change (up, down or none) the simulation matches, and
  // the shift of the simulated series (in s, positive when the simulation acts later) that brings it closest
  // to the recording, searched up to a quarter of the recording.
  std::optional<double> decision_match_rate;
  std::optional<double> lag_s;
};

// `points` at the recording's samples, `step_s` apart (the query's step); `count` asks for the decision
// match rate and the lag. Points with a NaN recorded value are left out.
SeriesComparison compare_replay(const std::vector<ReplayPoint>& points, double step_s, bool count);

} // namespace sonicsim::analysis
