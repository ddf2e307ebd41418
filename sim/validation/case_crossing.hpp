// A crossing case (observable crossing_jobs): where each replication's sweep first falls below its level, and
// the case's value from those crossings. Pure code over run summaries.
#pragma once

#include "models/crossing.hpp"
#include "sim/validation/observables.hpp"

#include <optional>
#include <vector>

namespace sonicsim {

// One point of a crossing case's curve: the compared figure and its level (the case's `reference`, or the
// run's own direct-inference level); none when the run does not define the figure. Throws InputError for a
// case with no reference whose run has no direct-inference baseline.
std::optional<models::CurvePoint> crossing_point(const ValidationCase& c, const RunSummary& summary);

// Where one replication's whole sweep first falls below its level; none when it does not, or a point lacks
// the figure (no crossing can be read off the sweep).
std::optional<double> simulated_crossing(const ValidationCase& c, const std::vector<RunSummary>& summaries);

// The precision a measured crossing's rate needs (relative 95 % half-width): the tolerance's nearer side in
// jobs, over 2.5 (as case_run_precision reads a relative tolerance), times the measured curve's slope where
// it crosses, shared by the point and its level (each to 1 / sqrt 2 of it) and taken relative to the level.
// None for a prediction, a case without a dataset or without both bounds, or a dataset that does not cross.
std::optional<double> crossing_rate_precision(const ValidationCase& c);

// The case's outcome from its replications' crossings (none: that replication does not cross): their mean
// with its 95 % Student-t interval, beside the dataset's own crossing when the case has one.
CaseOutcome crossing_outcome(const ValidationCase& c, const std::vector<std::optional<double>>& crossings);

} // namespace sonicsim
