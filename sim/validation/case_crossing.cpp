#include "sim/validation/case_crossing.hpp"

#include "sim/metrics/confidence_interval.hpp"
#include "sim/scenario/input_error.hpp"
#include "sim/validation/dataset_points.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace sonicsim {

std::optional<models::CurvePoint> crossing_point(const ValidationCase& c, const RunSummary& summary) {
  const auto y = compared_figure(c, summary);
  if (!y) return std::nullopt;
  if (c.reference) return models::CurvePoint{*y, *c.reference};
  if (!summary.direct_inference)
    throw InputError(c.file + ": reference: direct needs the direct-inference run beside each point; "
                              "the scenario has no remote inference to compare");
  return models::CurvePoint{*y, summary.direct_inference->events_per_s_per_job};
}

std::optional<double> simulated_crossing(const ValidationCase& c, const std::vector<RunSummary>& summaries) {
  std::vector<double> ys, levels;
  for (const auto& summary : summaries) {
    const auto point = crossing_point(c, summary);
    if (!point) return std::nullopt; // a point without the figure: no crossing can be read off the sweep
    ys.push_back(point->y);
    levels.push_back(point->level);
  }
  const auto crossing = models::first_fall_below(c.sweep_values, ys, levels);
  return crossing ? std::optional<double>(crossing->x) : std::nullopt;
}

std::optional<double> crossing_rate_precision(const ValidationCase& c) {
  if (c.predicted || !c.dataset || !c.minimum || !c.maximum) return std::nullopt;
  std::vector<double> xs, ys, levels;
  for (const auto& point : read_dataset(*c.dataset)) {
    xs.push_back(point.x);
    ys.push_back(point.y);
    levels.push_back(point.reference);
  }
  const auto measured = models::first_fall_below(xs, ys, levels);
  if (!measured) return std::nullopt;
  const auto at = [&](double x) {
    return static_cast<std::size_t>(std::find(xs.begin(), xs.end(), x) - xs.begin());
  };
  const std::size_t lower = at(measured->lower_x), upper = at(measured->upper_x);
  // y - level falls from d0 >= 0 to d1 < 0 between the bracketing points: its slope per job.
  const double fall = (ys[lower] - levels[lower]) - (ys[upper] - levels[upper]);
  const double slope_per_job = fall / (measured->upper_x - measured->lower_x);
  const double level = 0.5 * (levels[lower] + levels[upper]);
  const double jobs = std::min(c.measured - *c.minimum, *c.maximum - c.measured) / 2.5;
  if (!(jobs > 0.0) || !(slope_per_job > 0.0) || !(level > 0.0)) return std::nullopt;
  return jobs * slope_per_job / (std::sqrt(2.0) * level);
}

CaseOutcome crossing_outcome(const ValidationCase& c, const std::vector<std::optional<double>>& each) {
  CaseOutcome outcome;
  std::vector<double> crossings;
  for (const auto& crossing : each)
    if (crossing) crossings.push_back(*crossing);
  const std::size_t missing = each.size() - crossings.size();
  if (missing > 0) { // no value: the case fails
    outcome.detail = std::to_string(missing) + " of " + std::to_string(each.size()) +
                     " replications do not cross within the sweep (" +
                     case_value_text(c.sweep_values.front()) + " to " +
                     case_value_text(c.sweep_values.back()) + " jobs)";
    return outcome;
  }
  const ConfidenceInterval interval = confidence_interval_95(crossings);
  outcome.simulated = interval.mean;
  outcome.simulated_half_width = interval.half_width;
  if (c.dataset) {
    std::vector<double> xs, ys, levels, se;
    for (const auto& point : read_dataset(*c.dataset)) {
      xs.push_back(point.x);
      ys.push_back(point.y);
      levels.push_back(point.reference);
      se.push_back(point.sd);
    }
    const auto measured = models::first_fall_below(xs, ys, levels, se);
    if (!measured) throw InputError(c.file + ": the dataset's points never fall below their reference");
    outcome.measured = measured->x;
    outcome.measured_uncertainty = measured->se;
    outcome.detail = "measured between " + case_value_text(measured->lower_x) + " and " +
                     case_value_text(measured->upper_x) + " jobs";
  }
  outcome.detail += std::string(outcome.detail.empty() ? "" : "; ") + "simulated over " +
                    std::to_string(crossings.size()) + " replication(s)";
  return outcome;
}

} // namespace sonicsim
