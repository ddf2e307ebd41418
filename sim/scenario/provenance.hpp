// Provenance of scenario values (provenance: in a scenario): measured (with its source), derived (and how),
// or assumed (and why). An answer is only as good as what it rests on: run, plan, compare and analytic list
// the assumed values the scenario they simulated uses, on the terminal and in their JSON.
#pragma once

#include "sim/scenario/scenario.hpp"

#include <string>
#include <vector>

namespace sonicsim {

// "measured", "derived", "assumed", "calibrated"
const char* provenance_kind_name(Provenance::Kind kind);

// The assumed and calibrated values this scenario uses (what its answers rest on beyond measurements): an
// entry under models.M only when a remote_inference module calls M, and under models.M.throughput.TYPE (or
// any device type's entry) only when a server group of M uses TYPE. workload.pipeline.NAME.inferences only
// when that module calls a server. A variant or --set that moves a group to an assumed device's curve brings
// that assumption in.
std::vector<Provenance> assumptions_in_use(const Scenario& scenario);

// The values this scenario uses (as assumptions_in_use decides) whose provenance gives a range (range: {low,
// high, why}): what `run --sensitivity` moves, of any kind (a measurement's range is its uncertainty).
std::vector<Provenance> ranged_in_use(const Scenario& scenario);

// A what-if variant's values are assumptions of the what-if: each path it overrides becomes an assumed entry
// ("variant 'fp16': its description"), replacing a measurement or derivation the scenario's provenance
// gave for that path or a part of it (the measured curve a variant doubles is no longer the measured curve);
// an assumption or calibration written for it stays beside. Applied in the order the variants were, after
// the scenario is read.
void add_variant_assumptions(Scenario& scenario, const Variant& variant);

// "KEY: WHY" per line, each starting with `indent`; nothing when there is none.
std::string assumptions_text(const std::vector<Provenance>& assumptions, const std::string& indent);

} // namespace sonicsim
