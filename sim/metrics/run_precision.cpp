#include "sim/metrics/run_precision.hpp"

#include "sim/metrics/number_text.hpp"

#include <algorithm>
#include <cmath>

namespace sonicsim {
std::vector<const BatchMeansFigure*> RunPrecision::ruled() const {
  std::vector<const BatchMeansFigure*> named, all;
  for (const auto& figure : intervals.figures) {
    all.push_back(&figure);
    if (std::find(held.begin(), held.end(), figure.figure) != held.end()) named.push_back(&figure);
  }
  return named.empty() ? all : named;
}

void judge_precision(RunPrecision& precision) {
  const auto ruled = precision.ruled();
  precision.met = precision.applies && precision.target_relative > 0 && precision.intervals.problem.empty() &&
                  !ruled.empty();
  for (const BatchMeansFigure* figure : ruled)
    precision.met = precision.met && figure->relative <= precision.target_relative;
}

std::string RunPrecision::shortfall() const {
  if (!intervals.problem.empty()) return intervals.problem;
  const BatchMeansFigure* widest = nullptr;
  for (const BatchMeansFigure* figure : ruled())
    if (!widest || figure->relative > widest->relative) widest = figure;
  if (!widest) return "no figure measured";
  return widest->figure + " +-" + percent_text(widest->relative) + " (target " +
         percent_text(target_relative) + ")";
}

std::string beyond_bounds(const RunPrecision& precision, const std::map<std::string, FigureBounds>& bounds) {
  if (!precision.intervals.problem.empty()) return "";
  for (const auto& figure : precision.intervals.figures) {
    const auto it = bounds.find(figure.figure);
    if (it == bounds.end()) continue;
    const double low = figure.mean - figure.half_width, high = figure.mean + figure.half_width;
    const std::string measured =
        figure.figure + " " + significant(figure.mean, 4) + " +- " + significant(figure.half_width, 2);
    if (it->second.above && low > *it->second.above)
      return measured + ", above " + significant(*it->second.above, 4);
    if (it->second.below && high < *it->second.below)
      return measured + ", below " + significant(*it->second.below, 4);
  }
  return "";
}

std::optional<int> next_events_per_job(const RunPrecision& precision, double max_extension) {
  if (!precision.applies || precision.target_relative <= 0 || precision.met) return std::nullopt;
  const double limit = std::floor(precision.events_per_job_written * max_extension);
  if (precision.events_per_job >= limit) return std::nullopt;
  // How many times longer the window must be: a half-width shrinks as 1 / sqrt(window), with 20 % to spare.
  // With no interval to extrapolate from (the window too short to cut into batches), 4 times: the run is
  // then doubled, the most a check extends (below), whatever the window's share of it.
  double window_factor = 4.0;
  if (precision.intervals.problem.empty()) {
    double widest = 0.0;
    for (const BatchMeansFigure* figure : precision.ruled())
      widest = std::max(widest, figure->relative);
    window_factor = 1.2 * std::pow(widest / precision.target_relative, 2.0);
  }
  double factor = window_factor;
  // The jobs' events, not the window, are what grows: every job keeps its pace, so the next check (the first
  // job running out) comes at about factor x its date, while the window still opens at the last job's
  // warm-up. A window that is a small part of the run (a long ramp of starts and warm-ups) so needs fewer
  // events than its own factor: large-scale CMS at 24 events, its window 1 s after a 4 s ramp, was run to 96
  // events where 48 met the rule. (Jobs that started after 0 run out before factor x the date: the check
  // then finds the window short of the aim, and extends again at no cost, the run going on.)
  const double start_s = precision.window_start_s, end_s = precision.window_end_s;
  if (end_s > 0.0 && start_s >= 0.0) {
    const double window_s = std::max(0.0, end_s - start_s);
    factor = window_s > 0.0 ? (start_s + window_factor * window_s) / end_s : 2.0;
  }
  // At most twice the current length per check: the run goes on from where it is, so a check that finds
  // the window still short costs nothing but the check, while a guess past the need is simulated whole. The
  // 1 / sqrt(window) guess overshoots where a rate's error falls faster, as the window's edges weigh less
  // (ParticleNet AK4 at 165 jobs: events/s +-2.2 % at 48 events, 0.55 % at 135; a jump of 8 x took it to
  // 384 where 135 met 0.67 %). Half-octave steps on a ladder from the written length (written x 2^(k/2), at
  // least one step): an extended run so ends about 1.19 x past the length it needed on average, where whole
  // octaves left it 1.44 x past; and two runs that differ by rounding (the fast path against pure SimGrid, a
  // gradient's two sides) still take the same length unless one of them is exactly at a threshold.
  const double needed = precision.events_per_job * std::clamp(factor, 1.0, 2.0);
  for (int step = 1;; ++step) {
    // written x 2^(step / 2) with whole octaves exact, x sqrt(2) (correctly rounded) on the odd steps.
    const double octaves = std::exp2(static_cast<double>(step / 2));
    const double rung =
        std::floor(precision.events_per_job_written * octaves * (step % 2 == 1 ? std::sqrt(2.0) : 1.0));
    if (rung >= limit) return static_cast<int>(limit);
    if (rung > precision.events_per_job && rung >= needed) return static_cast<int>(rung);
  }
}

std::string queue_still_filling(const RunSummary& summary) {
  const RunPrecision& precision = summary.precision;
  const auto& held = precision.held;
  if (!precision.met || held.empty() || std::find(held.begin(), held.end(), "module_mean_s") != held.end())
    return "";
  const auto& figures = precision.intervals.figures;
  const auto module = std::find_if(figures.begin(), figures.end(),
                                   [](const BatchMeansFigure& f) { return f.figure == "module_mean_s"; });
  if (module == figures.end() || module->relative <= precision.target_relative) return "";
  const auto group = std::find_if(summary.group_usage.begin(), summary.group_usage.end(),
                                  [](const ServerGroupUsage& g) { return g.past_saturation(); });
  if (group == summary.group_usage.end()) return "";
  std::string named;
  for (const auto& figure : held)
    named += (named.empty() ? "" : ", ") + figure;
  return "held on " + named + " (output.precision_figures) while server group " + group->name +
         " is past its saturation point: its queue may still be filling, which lifts a rate over a short " +
         "window where no interval shows it; the served modules' time, not held, is +-" +
         percent_text(module->relative) + " (target " + percent_text(precision.target_relative) +
         "). A run holding every figure (the default) or a longer warm-up checks it (docs/model.md, \"Run " +
         "length and precision\")";
}

} // namespace sonicsim
