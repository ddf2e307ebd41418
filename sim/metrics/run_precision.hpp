// The precision rule: a run is long enough when the 95 % batch-means interval of each headline figure is
// within output.precision of its value (JMT stops a simulation by the same test on each measure's confidence
// interval). Pure code; sim/engine/simulation.cpp runs the longer runs it asks for.
#pragma once

#include "sim/metrics/run_summary.hpp"
#include "sim/scenario/scenario.hpp"

#include <map>
#include <optional>
#include <string>

namespace sonicsim {

// Sets `met` from the intervals and the target.
void judge_precision(RunPrecision& precision);

// The events per job of the next, longer run; none when the rule is met, off, does not apply, or the run is
// already at max_extension x the written length. The next length aims at the target with 20 % to spare (a
// half-width shrinks as 1 / sqrt(window)), the window opening where it did (window_start_s: the events that
// grow are the jobs', after a ramp that does not), rounded up to the next rung of a ladder of half-octaves
// from the written length (written x 2^(k/2)), at most 8 times the current one.
std::optional<int> next_events_per_job(const RunPrecision& precision, double max_extension);

// The first headline figure whose 95 % interval lies wholly above or below its bound (output.stop_beyond),
// in words ("module_mean_s 17.9 +- 2.1, above 12"); empty when none does or there are no intervals. Such a
// run has decided what its bounds ask, however wide its interval, and need not be extended.
std::string beyond_bounds(const RunPrecision& precision, const std::map<std::string, FigureBounds>& bounds);

// A warning for a run held on some figures (output.precision_figures, the served modules' time not among
// them) that met them while a server group is past its saturation point and that time is wider than the
// target: the figures then rest on the group's queue, and a queue still filling lifts a rate over a short
// window where no interval shows it (the large-scale CMS run at the AK8 taggers' low end read 2.3 % high at
// 33 events, +-1.9 % stated; docs/model.md "Run length and precision"). The module time is where it shows
// first. Empty when none of that holds. Needs the summary's group usage.
std::string queue_still_filling(const RunSummary& summary);

} // namespace sonicsim
