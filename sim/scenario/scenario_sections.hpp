// Internal to the loader: one reader per top-level section of a scenario file. Each expects a document that
// has passed schema::check_document (so maps are maps and keys are known) and checks types, units and ranges.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "sim/scenario/scenario.hpp"
#include "sim/scenario/yaml_cursor.hpp"

namespace sonicsim::detail {

Platform read_platform(const Cursor& c);
std::map<std::string, Model> read_models(const Cursor& c);
// Needs the models to check that each remote_inference module names one and fits its max_batch_size.
Workload read_workload(const Cursor& c, const std::map<std::string, Model>& models);
OutputSettings read_output(const Cursor& c);
// costs: prices as plain numbers (USD per hour), each > 0.
Costs read_costs(const Cursor& c);
// variants: name -> {description, overrides: {key.path: value}}; every key path is checked against the
// schema.
std::vector<Variant> read_variants(const Cursor& c, const std::string& source_name);
// provenance: key path -> exactly one of {measured: SOURCE}, {derived: HOW}, {assumed: WHY}; every key path
// is checked against the schema.
std::vector<Provenance> read_provenance(const Cursor& c);
// workload.campaign; needs the workload's slot count (jobs) to check the scale.
Campaign read_campaign(const Cursor& c, const Workload& workload);
// A list of {from: TIME, VALUE_KEY: ...} with strictly increasing times; read_value reads and checks each
// value.
StepSchedule read_step_schedule(const Cursor& c, const std::string& value_key,
                                const std::function<double(const Cursor&)>& read_value);

// A server group's autoscaler, failures and proxy (scenario_operations.cpp); sets pods from the autoscaler.
void read_group_operations(const Cursor& c, ServerGroup& group);
// A positive duration of at most a day, for intervals and delays of the operations loop.
double read_interval_s(const Cursor& c, const std::string& example, double minimum_s = 1e-3);
// A group whose autoscaler, pods and proxy come from its supersonic_values (scenario_supersonic_group.cpp).
void read_supersonic_group(const Cursor& c, ServerGroup& group);
// workload.preemption: {mean_time, resubmit}.
JobPreemption read_preemption(const Cursor& c);
// workload.client's timeout, retry_on and fallback, on top of the settings read so far.
ClientSettings read_client_operations(const Cursor& c, ClientSettings client);
// The operations keys against the rest of the scenario: a pooled group's models, the fallback group and
// its curves, a timeout where servers fail.
void check_operations(const Cursor& root, Scenario& s);

} // namespace sonicsim::detail
