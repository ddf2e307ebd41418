// A validation's crossing cases read their sweeps in waves: a crossing_jobs case's value is where each
// replication first falls below its level, so the points past that fall (the largest job counts, the dearest
// runs) cannot change it and are not run. The crossings are the ones the whole sweeps give (the same runs);
// a validation on a cluster submits every point at once instead. Pure code: the runs are a callback.
#pragma once

#include "sim/validation/observables.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace sonicsim {

// The runs (indices into the validation's distinct runs; runs_of_case[k]: case k's, in evaluate's order)
// that only crossing cases need past each sweep's first two points: run in waves, after the others.
std::vector<bool> wave_runs(const std::vector<ValidationCase>& cases,
                            const std::vector<std::vector<std::size_t>>& runs_of_case, std::size_t runs);

// Runs these runs into the summaries (each once; a run's direct-inference baseline is the caller's).
using RunSome = std::function<void(const std::vector<std::size_t>& runs)>;

// Each case's replications' crossings (empty for a case that is not crossing_jobs), the sweeps of every
// crossing case read in the same waves (models::first_falls_in_waves): `run` is called once per wave with
// the points not `ran` yet, and must run them into `summaries` and mark them in `ran`.
std::vector<std::vector<std::optional<double>>> crossings_in_waves(
    const std::vector<ValidationCase>& cases, const std::vector<std::vector<std::size_t>>& runs_of_case,
    const std::vector<RunSummary>& summaries, const std::vector<bool>& ran, const RunSome& run);

} // namespace sonicsim
