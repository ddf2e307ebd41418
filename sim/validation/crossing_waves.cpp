#include "sim/validation/crossing_waves.hpp"

#include "models/crossing.hpp"
#include "sim/validation/case_crossing.hpp"

#include <algorithm>
#include <limits>
#include <set>

namespace sonicsim {
namespace {

bool is_crossing(const ValidationCase& c) {
  return c.observable == "crossing_jobs";
}

// The run of a case's point: replication r, sweep index i.
std::size_t run_of(const ValidationCase& c, const std::vector<std::size_t>& runs, std::size_t replication,
                   std::size_t point) {
  return runs[replication * c.sweep_values.size() + point];
}

} // namespace

std::vector<bool> wave_runs(const std::vector<ValidationCase>& cases,
                            const std::vector<std::vector<std::size_t>>& runs_of_case, std::size_t runs) {
  std::vector<bool> needed_now(runs, false), in_waves(runs, false);
  for (std::size_t k = 0; k < cases.size(); ++k)
    for (std::size_t j = 0; j < runs_of_case[k].size(); ++j) {
      const std::size_t point = is_crossing(cases[k]) ? j % cases[k].sweep_values.size() : 0;
      (point >= 2 ? in_waves : needed_now)[runs_of_case[k][j]] = true;
    }
  std::vector<bool> deferred(runs, false);
  for (std::size_t i = 0; i < runs; ++i)
    deferred[i] = in_waves[i] && !needed_now[i];
  return deferred;
}

std::vector<std::vector<std::optional<double>>> crossings_in_waves(
    const std::vector<ValidationCase>& cases, const std::vector<std::vector<std::size_t>>& runs_of_case,
    const std::vector<RunSummary>& summaries, const std::vector<bool>& ran, const RunSome& run) {
  // One curve per crossing case and replication: (case, replication).
  std::vector<std::pair<std::size_t, std::size_t>> curves;
  std::vector<std::vector<double>> xs;
  for (std::size_t k = 0; k < cases.size(); ++k)
    if (is_crossing(cases[k]))
      for (int r = 0; r < cases[k].replications; ++r) {
        curves.emplace_back(k, static_cast<std::size_t>(r));
        xs.push_back(cases[k].sweep_values);
      }
  // A curve with a point lacking the figure has no crossing (as its whole sweep would say): such a point
  // reads as not fallen, so that the curve is read on (a point past a fall is not run, so not seen).
  std::set<std::size_t> lacking;
  const auto read = [&](const std::vector<std::pair<std::size_t, std::size_t>>& asked) {
    std::vector<std::size_t> wanted;
    for (const auto& [curve, point] : asked) {
      const auto [k, r] = curves[curve];
      const std::size_t index = run_of(cases[k], runs_of_case[k], r, point);
      if (!ran[index] && std::find(wanted.begin(), wanted.end(), index) == wanted.end())
        wanted.push_back(index);
    }
    if (!wanted.empty()) run(wanted);
    std::vector<models::CurvePoint> points;
    for (const auto& [curve, point] : asked) {
      const auto [k, r] = curves[curve];
      const auto value = crossing_point(cases[k], summaries[run_of(cases[k], runs_of_case[k], r, point)]);
      if (!value) lacking.insert(curve);
      points.push_back(value ? *value : models::CurvePoint{std::numeric_limits<double>::infinity(), 0.0});
    }
    return points;
  };
  const auto crossings = models::first_falls_in_waves(xs, read);
  std::vector<std::vector<std::optional<double>>> out(cases.size());
  for (std::size_t curve = 0; curve < curves.size(); ++curve) {
    const bool has = crossings[curve] && !lacking.count(curve);
    out[curves[curve].first].push_back(has ? std::optional<double>(crossings[curve]->x) : std::nullopt);
  }
  return out;
}

} // namespace sonicsim
