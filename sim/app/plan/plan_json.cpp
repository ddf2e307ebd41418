// plan.json: the same answer and evidence as the text of plan_report.cpp, for programs.
#include "sim/app/plan/plan_report.hpp"
#include "sim/metrics/json_fields.hpp"

#include "sim/execution/state_file.hpp"
#include "sim/metrics/cost_bill_output.hpp"
#include "sim/metrics/scenario_json.hpp"

namespace sonicsim {
namespace {

using planning::Decision;
using planning::Plan;
using planning::PlanRun;

nlohmann::ordered_json interval_json(const ConfidenceInterval& value) {
  return {{"mean", value.mean},
          {"ci95_low", value.low()},
          {"ci95_high", value.high()},
          {"half_width", value.half_width},
          {"replications", value.n}};
}

nlohmann::ordered_json run_json(const PlanRun& run) {
  nlohmann::ordered_json json = {{"role", planning::run_role_name(run.role)}};
  if (run.group_devices.empty()) {
    json["device_type"] = run.layout.device_type;
    json["nic_bps"] = run.layout.nic_bps;
    json["gpus"] = run.layout.gpus();
    json["pods"] = run.layout.pods;
    json["gpus_per_pod"] = run.layout.gpus_per_pod;
  } else {
    json["group_devices"] = run.group_devices;
  }
  json["jobs"] = run.jobs;
  json["replications"] = run.replications.size();
  json["decision"] = decision_text(run.decision);
  json["within_targets"] = run.decision == Decision::yes;
  json["module_mean_s"] = interval_json(run.module_mean_s);
  json["event_mean_s"] = interval_json(run.event_mean_s);
  json["events_per_s"] = interval_json(run.events_per_s);
  json["gpu_utilisation"] = interval_json(run.gpu_utilisation);
  json["bottleneck"] = run.bottleneck.sentence();
  json["bottleneck_utilisation"] = run.bottleneck.utilisation;
  nlohmann::ordered_json checks = nlohmann::ordered_json::array();
  for (const auto& check : run.checks)
    checks.push_back({{"target", check.target.text},
                      {"scope", check.scope},
                      {"value", interval_json(check.value)},
                      {"decision", decision_text(check.decision)},
                      {"by_mean_within_indifference", check.by_mean}});
  json["checks"] = checks;
  nlohmann::ordered_json seeds = nlohmann::ordered_json::array();
  nlohmann::ordered_json stopped = nlohmann::ordered_json::array();
  for (const auto& r : run.replications) {
    seeds.push_back(r.seed);
    stopped.push_back(r.stopped_beyond);
  }
  json["seeds"] = seeds;
  // Per replication: why it stopped short of the precision rule (its figure clearly failing), or "".
  json["stopped_beyond"] = stopped;
  json["wall_clock_s"] = run.wall_clock_s;
  json["error"] = run.error;
  json["too_short"] = run.too_short;
  return json;
}

const char* mode_name(Plan::Mode mode) {
  switch (mode) {
  case Plan::Mode::most_jobs:
    return "most_jobs";
  case Plan::Mode::per_group:
    return "per_group";
  case Plan::Mode::fewest_gpus:
    break;
  }
  return "fewest_gpus";
}

} // namespace

namespace {

// The saturation order: each resource with the jobs at which it is full.
nlohmann::ordered_json limits_json(const std::vector<planning::ResourceLimit>& limits) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& limit : limits)
    out.push_back({{"resource", limit.resource},
                   {"capacity", limit.capacity},
                   {"jobs_at_saturation", limit.jobs_at_saturation},
                   {"network", limit.network},
                   {"kind", resource_kind_name(limit.kind)}});
  return out;
}

} // namespace

namespace {

// Each device type x NIC option searched, with its answer and why it was (not) chosen.
nlohmann::ordered_json options_json(const Plan& plan) {
  nlohmann::ordered_json options = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < plan.options.size(); ++k) {
    const auto& o = plan.options[k];
    options.push_back({{"device_type", o.device_type},
                       {"nic_bps", o.nic_bps},
                       {"found", o.found},
                       {"gpus", o.found ? o.layout.gpus() : 0},
                       {"gpus_low", o.low ? o.low->gpus() : (o.found ? o.layout.gpus() : 0)},
                       {"gpus_high", o.high ? o.high->gpus() : (o.found ? o.layout.gpus() : 0)},
                       {"jobs", o.jobs},
                       {"cost_usd_per_event", o.cost_usd_per_event ? interval_json(*o.cost_usd_per_event)
                                                                   : nlohmann::ordered_json()},
                       {"chosen", plan.found && k == plan.chosen},
                       {"at_least_jobs", o.at_least_jobs},
                       {"at_most_gpus", o.at_most_gpus},
                       {"left_unsized", o.left_unsized},
                       {"at_least_gpus", o.at_least_gpus},
                       {"reason", o.reason},
                       {"assumptions", provenance_to_json(o.assumptions)}});
    // Only on an option left unsized with prices (plan.json holds no null figure).
    if (o.cost_at_least_usd_per_event)
      options.back()["cost_at_least_usd_per_event"] = *o.cost_at_least_usd_per_event;
  }
  return options;
}

// A multi-group plan's answer: each group's devices, the saturation order, the cost.
void add_groups_answer(const Plan& plan, nlohmann::ordered_json& json) {
  nlohmann::ordered_json groups = nlohmann::ordered_json::array();
  for (const auto& g : plan.groups)
    groups.push_back({{"group", g.group},
                      {"device_type", g.device_type},
                      {"modules", g.modules},
                      {"devices", g.devices},
                      {"devices_low", g.devices_low},
                      {"devices_per_pod", g.devices_per_pod},
                      {"scenario_devices", g.start_devices}});
  json["groups"] = groups;
  nlohmann::ordered_json shared = nlohmann::ordered_json::array();
  for (const auto& s : shared_modules(plan.groups))
    shared.push_back({{"module", s.module}, {"groups", s.groups}, {"note", shared_module_text(s)}});
  json["shared_modules"] = shared;
  json["saturation"] = {{"order", limits_json(plan.station_saturation)}};
  json["cost_per_event"] =
      plan.cost_usd_per_event ? interval_json(*plan.cost_usd_per_event) : nlohmann::ordered_json();
  json["cost_bill"] = plan.bill ? cost_bill_to_json(*plan.bill) : nlohmann::ordered_json();
}

// A one-group plan's answer: the layout and the jobs, the simulated ratio beside the analytic one, what
// saturates first and the network's headroom, the cost.
void add_layout_answer(const Plan& plan, nlohmann::ordered_json& json) {
  const auto& a = plan.analysis;
  json["plan"] = {{"device_type", plan.layout.device_type},
                  {"nic_bps", plan.layout.nic_bps},
                  {"gpus", plan.layout.gpus()},
                  {"gpus_low", plan.layout_low ? plan.layout_low->gpus() : plan.layout.gpus()},
                  {"gpus_high", plan.layout_high ? plan.layout_high->gpus() : plan.layout.gpus()},
                  {"pods", plan.layout.pods},
                  {"gpus_per_pod", plan.layout.gpus_per_pod},
                  {"jobs", plan.jobs},
                  {"jobs_low", plan.mode == Plan::Mode::most_jobs ? plan.jobs_low : plan.jobs},
                  {"jobs_high", plan.mode == Plan::Mode::most_jobs ? plan.jobs_high : plan.jobs},
                  {"jobs_per_gpu", static_cast<double>(plan.jobs) / plan.layout.gpus()}};
  json["ratio"] = {{"analytic", a.ratio}, {"simulated", interval_json(plan.ratio_simulated)}};
  json["knee_sizing"] = interval_json(plan.knee_sizing);
  const nlohmann::ordered_json limits = limits_json(a.limits);
  const auto& chosen = plan.options[plan.chosen];
  json["saturation"] = {
      {"first", a.first().resource},
      {"first_at_jobs", a.first().jobs_at_saturation},
      {"order", limits},
      {"simulated_bottleneck_of_failing_neighbour",
       plan.first_failing ? plan.first_failing->bottleneck.sentence() : ""},
      {"nic_decided_layout", chosen.analytic_layout_fast_nic &&
                                 chosen.analytic_layout_fast_nic->gpus() < chosen.analytic_layout.gpus()},
      {"analytic_gpus_with_fast_nic",
       chosen.analytic_layout_fast_nic ? chosen.analytic_layout_fast_nic->gpus() : 0}};
  const auto& network = a.network_limit();
  json["network"] = {{"limit", network.resource},
                     {"limit_jobs", network.jobs_at_saturation},
                     {"headroom", network.jobs_at_saturation / plan.jobs - 1.0}};
  json["cost_per_event"] =
      plan.cost_usd_per_event ? interval_json(*plan.cost_usd_per_event) : nlohmann::ordered_json();
  json["cost_bill"] = plan.bill ? cost_bill_to_json(*plan.bill) : nlohmann::ordered_json();
}

} // namespace

nlohmann::ordered_json plan_to_json(const Plan& plan) {
  nlohmann::ordered_json json;
  json["mode"] = mode_name(plan.mode);
  json["scenario"] = plan.scenario;
  json["variant"] = plan.variant;
  json["seed"] = plan.seed;
  json["requested"] = plan.requested;
  nlohmann::ordered_json targets = nlohmann::ordered_json::array();
  for (const auto& t : plan.targets)
    targets.push_back(t.text);
  json["targets"] = targets;
  json["default_target"] = plan.default_target;
  json["module_share_of_event"] = plan.reference.event_mean_s.mean > 0
                                      ? plan.reference.module_mean_s.mean / plan.reference.event_mean_s.mean
                                      : 0.0;
  json["replications"] = {
      {"first", plan.replications}, {"most", plan.max_replications}, {"indifference", plan.indifference}};
  json["run_precision"] = {{"relative", plan.run_precision}, {"scenario", plan.scenario_precision}};
  json["searched"] = plan.searched;
  json["held_fixed"] = plan.held_fixed;
  json["assumptions"] = provenance_to_json(plan.assumptions);
  json["max_gpus_per_pod"] = plan.max_gpus_per_pod;
  json["layout_rule"] = plan.layout_rule;
  json["analytic"] = {{"module_low_load_s", plan.analytic_module_low_load_s},
                      {"gpus", plan.analytic_layout.gpus()},
                      {"pods", plan.analytic_layout.pods},
                      {"jobs", plan.analytic_jobs},
                      {"estimate_basis", plan.estimate_basis},
                      {"job_step", plan.job_step},
                      {"job_ceiling", plan.job_ceiling}};
  json["reference"] = run_json(plan.reference);
  json["runs"] = nlohmann::ordered_json::array();
  for (const auto& run : plan.runs)
    json["runs"].push_back(run_json(run));
  json["simulations"] = plan.simulations;
  json["batches"] = plan.batches;
  json["options"] = options_json(plan);
  json["found"] = plan.found;
  json["impossible"] = plan.impossible;
  json["budget_exhausted"] = plan.budget_exhausted;
  if (!plan.found) {
    json["reason"] = plan.not_found_reason;
    // A most-jobs search stopped by its ceiling: a lower bound, not an answer.
    if (plan.at_least_jobs > 0) json["at_least_jobs"] = plan.at_least_jobs;
    if (plan.at_most_gpus > 0) json["at_most_gpus"] = plan.at_most_gpus;
    return json;
  }
  if (plan.answer_run) json["answer_run"] = run_json(*plan.answer_run);
  if (plan.mode == Plan::Mode::per_group)
    add_groups_answer(plan, json);
  else
    add_layout_answer(plan, json);
  return json;
}

void write_plan_json(const std::filesystem::path& path, const Plan& plan) {
  write_file_atomically(path, json_text(plan_to_json(plan), 1) + "\n");
}

} // namespace sonicsim
