#include "sim/analysis/replay_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sonicsim::analysis {
namespace {

int direction(double from, double to) {
  // A replica count moves by whole pods; a mean over a row by fractions: half a pod is a decision.
  if (to - from > 0.5) return 1;
  if (from - to > 0.5) return -1;
  return 0;
}

// Mean |simulated[i + shift] - recorded[i]| over the points both have.
double shifted_error(const std::vector<ReplayPoint>& p, long shift) {
  double total = 0.0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const long j = static_cast<long>(i) + shift;
    if (j < 0 || j >= static_cast<long>(p.size())) continue;
    total += std::fabs(p[static_cast<std::size_t>(j)].simulated - p[i].recorded);
    ++n;
  }
  return n ? total / static_cast<double>(n) : std::numeric_limits<double>::infinity();
}

} // namespace

SeriesComparison compare_replay(const std::vector<ReplayPoint>& all, double step_s, bool count) {
  std::vector<ReplayPoint> points;
  for (const auto& p : all)
    if (!std::isnan(p.recorded) && !std::isnan(p.simulated)) points.push_back(p);
  SeriesComparison c;
  c.points = points.size();
  if (points.empty()) return c;
  double recorded = 0.0, simulated = 0.0, error = 0.0, absolute = 0.0, magnitude = 0.0;
  for (const auto& p : points) {
    recorded += p.recorded;
    simulated += p.simulated;
    error += p.simulated - p.recorded;
    absolute += std::fabs(p.simulated - p.recorded);
    magnitude += std::fabs(p.recorded);
  }
  const double n = static_cast<double>(points.size());
  c.mean_recorded = recorded / n;
  c.mean_simulated = simulated / n;
  c.mean_error = error / n;
  c.mean_absolute_error = absolute / n;
  c.relative_error = magnitude > 0 ? absolute / magnitude : 0.0;
  if (!count || points.size() < 2) return c;
  std::size_t matched = 0;
  for (std::size_t i = 1; i < points.size(); ++i)
    matched += direction(points[i - 1].recorded, points[i].recorded) ==
                       direction(points[i - 1].simulated, points[i].simulated)
                   ? 1
                   : 0;
  c.decision_match_rate = static_cast<double>(matched) / static_cast<double>(points.size() - 1);
  // The shift with the least error; among equals, the smallest in magnitude (a flat series has no lag).
  const long reach = static_cast<long>(points.size() / 4);
  long best = 0;
  double best_error = shifted_error(points, 0);
  for (long k = 1; k <= reach; ++k)
    for (const long shift : {k, -k}) {
      const double e = shifted_error(points, shift);
      if (e < best_error - 1e-12) {
        best_error = e;
        best = shift;
      }
    }
  c.lag_s = static_cast<double>(best) * step_s;
  return c;
}

} // namespace sonicsim::analysis
