#include "sim/app/plan_report.hpp"
#include "sim/execution/state_file.hpp"

#include "sim/app/sweep_point_files.hpp"
#include "sim/metrics/number_text.hpp"
#include "sim/metrics/run_recorder.hpp"

#include <cstdio>

namespace sonicsim {
namespace {

using planning::Decision;
using planning::Plan;
using planning::PlanRun;

const char* decision_text(Decision decision) {
  switch (decision) {
  case Decision::yes:
    return "meets";
  case Decision::no:
    return "fails";
  case Decision::undecided:
    break;
  }
  return "undecided";
}

std::string layout_text(const planning::PodLayout& layout, const std::string& type) {
  return std::to_string(layout.gpus()) + " " + (layout.device_type.empty() ? type : layout.device_type) +
         " = " + std::to_string(layout.pods) + " pod(s) x " + std::to_string(layout.gpus_per_pod) +
         (layout.nic_bps > 0.0 ? ", pod NIC " + gbps_text(layout.nic_bps) : "");
}

std::string interval_text(const ConfidenceInterval& value, int digits = 4) {
  if (!value.has_interval()) return significant(value.mean, digits);
  return significant(value.mean, digits) + " (" + significant(value.low(), digits) + "-" +
         significant(value.high(), digits) + ")";
}

std::string devices_text(const PlanRun& run) {
  if (run.group_devices.empty())
    return std::to_string(run.layout.gpus()) + " " + run.layout.device_type + " " +
           std::to_string(run.layout.pods) + "x" + std::to_string(run.layout.gpus_per_pod);
  std::string out;
  for (const auto& [group, devices] : run.group_devices)
    out += (out.empty() ? "" : " ") + std::to_string(devices);
  return out;
}

void print_run(const PlanRun& run) {
  std::string checks;
  for (const auto& check : run.checks)
    checks += (checks.empty() ? "" : "; ") + check.target.text +
              (check.scope.empty() ? "" : "[" + check.scope + "]") + " " + interval_text(check.value) + " " +
              decision_text(check.decision) +
              (check.by_mean ? " (by the mean, within the indifference zone)" : "");
  std::printf("  %-9s %-16s %6d %4zu %-9s %9.4g %9.4g %6.1f  %s\n", planning::run_role_name(run.role),
              devices_text(run).c_str(), run.jobs, run.replications.size(),
              run.role == planning::RunRole::reference ? "ref" : decision_text(run.decision),
              run.module_mean_s.mean, run.event_mean_s.mean, 100.0 * run.gpu_utilisation.mean,
              run.bottleneck.sentence().c_str());
  std::printf("            %s\n", checks.c_str());
  if (!run.error.empty()) std::printf("            (%s)\n", run.error.c_str());
}

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
  for (const auto& r : run.replications)
    seeds.push_back(r.seed);
  json["seeds"] = seeds;
  json["wall_clock_s"] = run.wall_clock_s;
  json["error"] = run.error;
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

void print_groups(const Plan& plan) {
  std::printf("\nplan: devices per group for %d jobs%s\n", plan.jobs,
              plan.budget_exhausted ? " (replications ran out: some counts are ranges)" : "");
  for (const auto& g : plan.groups) {
    std::string modules;
    for (const auto& m : g.modules)
      modules += (modules.empty() ? "" : ", ") + m;
    if (g.devices_low != g.devices)
      std::printf("  %-14s %d-%d x %s (the scenario has %d), for %s\n", g.group.c_str(), g.devices_low,
                  g.devices, g.device_type.c_str(), g.start_devices, modules.c_str());
    else
      std::printf("  %-14s %d x %s (the scenario has %d), for %s\n", g.group.c_str(), g.devices,
                  g.device_type.c_str(), g.start_devices, modules.c_str());
  }
}

} // namespace

namespace {

// What was asked, the targets, the replication rule, what was searched and the analytic bracket.
void print_plan_question(const Plan& plan) {
  std::string asked;
  switch (plan.mode) {
  case Plan::Mode::fewest_gpus:
    asked = "the fewest GPUs for " + std::to_string(plan.requested) + " jobs";
    break;
  case Plan::Mode::most_jobs:
    asked = "the most jobs " + std::to_string(plan.requested) + " GPUs serve";
    break;
  case Plan::Mode::per_group:
    asked = "the devices of every server group for " + std::to_string(plan.requested) + " jobs";
    break;
  }
  std::printf("plan for %s%s: %s\n", plan.scenario.c_str(),
              plan.variant.empty() ? "" : (" (variant " + plan.variant + ")").c_str(), asked.c_str());
  std::string targets;
  for (const auto& t : plan.targets)
    targets += (targets.empty() ? "" : ", ") + t.text;
  std::printf("targets: %s (all must hold; met when the 95 %% confidence bound on the right side meets it)\n",
              targets.c_str());
  std::printf(
      "replications: %d per candidate, up to %d while undecided; seeds derived from seed %llu, the same "
      "for every candidate (common random numbers); an interval narrower than %.3g %% of its limit is "
      "decided by its mean (indifference zone)\n",
      plan.replications, plan.max_replications, static_cast<unsigned long long>(plan.seed),
      plan.indifference * 100.0);
  for (const auto& s : plan.searched)
    std::printf("searched: %s\n", s.c_str());
  for (const auto& s : plan.held_fixed)
    std::printf("held fixed: %s\n", s.c_str());
  if (!plan.layout_rule.empty()) std::printf("layout rule: %s\n", plan.layout_rule.c_str());
  if (plan.mode == Plan::Mode::fewest_gpus && plan.analytic_layout.gpus() > 0)
    std::printf("analytic bracket (MVA, module %.4g s with one job): %s\n", plan.analytic_module_low_load_s,
                layout_text(plan.analytic_layout, "").c_str());
  if (plan.mode == Plan::Mode::most_jobs)
    std::printf("analytic bracket (MVA, module %.4g s with one job): %d jobs on %s (search grid: %d jobs)\n",
                plan.analytic_module_low_load_s, plan.analytic_jobs,
                layout_text(plan.analytic_layout, "").c_str(), plan.job_step);
}

// The confirming simulations and, when several were searched, each device type x NIC option.
void print_plan_evidence(const Plan& plan) {
  std::printf(
      "\nconfirming simulations (%d simulations in %d batch(es)); means, 95 %% intervals in brackets:\n",
      plan.simulations, plan.batches);
  std::printf("  %-9s %-16s %6s %4s %-9s %9s %9s %6s  %s\n", "run", "devices", "jobs", "reps", "verdict",
              "module s", "event s", "GPU %", "bottleneck");
  for (const auto& reference : plan.references)
    print_run(reference);
  for (const auto& run : plan.runs)
    print_run(run);

  if (plan.options.size() > 1) {
    std::printf("\noptions searched (device type x pod NIC):\n");
    for (std::size_t k = 0; k < plan.options.size(); ++k) {
      const auto& o = plan.options[k];
      std::string answer = o.found
                               ? (plan.mode == Plan::Mode::most_jobs ? std::to_string(o.jobs) + " jobs"
                                                                     : layout_text(o.layout, o.device_type))
                               : "none";
      std::printf("  %-6s NIC %-10s -> %-36s cost/event %-22s %s\n", o.device_type.c_str(),
                  gbps_text(o.nic_bps).c_str(), answer.c_str(),
                  o.cost_usd_per_event ? interval_text(*o.cost_usd_per_event).c_str() : "-",
                  k == plan.chosen ? "chosen" : o.reason.c_str());
    }
  }
}

// The answer, its range when the intervals do not decide, each target's check and the failing neighbour.
void print_plan_answer(const Plan& plan) {
  if (plan.mode == Plan::Mode::per_group) {
    print_groups(plan);
  } else {
    const bool fewest = plan.mode == Plan::Mode::fewest_gpus;
    if (fewest)
      std::printf("\nplan: %s for %d jobs (%.1f jobs per GPU)\n", layout_text(plan.layout, "").c_str(),
                  plan.jobs, static_cast<double>(plan.jobs) / plan.layout.gpus());
    else
      std::printf("\nplan: %s serve %d jobs (%.1f jobs per GPU)\n", layout_text(plan.layout, "").c_str(),
                  plan.jobs, static_cast<double>(plan.jobs) / plan.layout.gpus());
    if (fewest && (plan.layout_low || plan.layout_high))
      std::printf(
          "  range: %d to %d GPUs: the 95 %% intervals alone do not separate the layouts in between from "
          "the targets (%s); the answer is read by the mean inside the %.3g %% indifference zone or is the "
          "smallest confirmed\n",
          (plan.layout_low ? *plan.layout_low : plan.layout).gpus(),
          (plan.layout_high ? *plan.layout_high : plan.layout).gpus(),
          plan.budget_exhausted ? "replications ran out" : "within the zone", plan.indifference * 100.0);
    if (!fewest && (plan.jobs_low != plan.jobs || plan.jobs_high != plan.jobs))
      std::printf(
          "  range: %d to %d jobs: the 95 %% intervals alone do not separate the job counts in between "
          "from the targets (%s, budget %d replications, indifference zone %.3g %%)\n",
          plan.jobs_low, plan.jobs_high, plan.budget_exhausted ? "replications ran out" : "within the zone",
          plan.max_replications, plan.indifference * 100.0);
  }
  if (plan.answer_run)
    for (const auto& check : plan.answer_run->checks)
      std::printf("  %s%s: %s %s %s%s\n", check.target.text.c_str(),
                  check.scope.empty() ? "" : (" [" + check.scope + "]").c_str(),
                  interval_text(check.value).c_str(), planning::target_unit(check.target).c_str(),
                  decision_text(check.decision),
                  check.by_mean ? " (by the mean, within the indifference zone)" : "");
  if (plan.first_failing)
    std::printf("  the neighbour %s at %d jobs %s, limited by %s at %.0f %%\n",
                devices_text(*plan.first_failing).c_str(), plan.first_failing->jobs,
                decision_text(plan.first_failing->decision), plan.first_failing->bottleneck.busiest.c_str(),
                plan.first_failing->bottleneck.utilisation * 100.0);
}

// The capacity around the answer: CPU:GPU ratio, knee, saturation order, the NIC's part and the network
// limit.
void print_plan_capacity(const Plan& plan) {
  if (plan.mode != Plan::Mode::per_group) {
    const auto& a = plan.analysis;
    std::printf("CPU:GPU ratio (t_ideal / t_GPU): %.1f:1 analytic, %s:1 simulated\n", a.ratio,
                interval_text(plan.ratio_simulated, 3).c_str());
    if (plan.mode == Plan::Mode::fewest_gpus)
      std::printf("knee sizing (jobs / simulated ratio, every GPU busy): %s GPUs; the plan's %d keep the "
                  "targets, which the knee does not\n",
                  interval_text(plan.knee_sizing, 3).c_str(), plan.layout.gpus());
    else
      std::printf("knee (simulated ratio x GPUs, every GPU busy): %s jobs, against %.0f from the MVA\n",
                  interval_text(plan.knee_sizing, 4).c_str(), a.ratio * plan.layout.gpus());
    std::printf("saturation order on this layout (jobs at which each shared resource is full):\n");
    for (const auto& limit : a.limits)
      std::printf("  %-12s %-36s %9.0f jobs\n", limit.resource.c_str(), limit.capacity.c_str(),
                  limit.jobs_at_saturation);
    const auto& chosen = plan.options[plan.chosen];
    if (chosen.analytic_layout_fast_nic) {
      if (chosen.analytic_layout_fast_nic->gpus() < chosen.analytic_layout.gpus())
        std::printf("limited by: the pod NIC (%s, %s) decided the layout: with %s NICs the MVA asks %d GPUs "
                    "instead of %d; try --nics\n",
                    gbps_text(chosen.nic_bps).c_str(), plan.held_fixed.empty() ? "searched" : "held fixed",
                    gbps_text(chosen.analytic_layout_fast_nic->nic_bps).c_str(),
                    chosen.analytic_layout_fast_nic->gpus(), chosen.analytic_layout.gpus());
      else
        std::printf("limited by: the devices; a %s pod NIC would not change the MVA's layout\n",
                    gbps_text(chosen.analytic_layout_fast_nic->nic_bps).c_str());
    }
    const auto& network = a.network_limit();
    std::printf("network limit: %s (%s) at %.0f jobs; headroom %.0f %% above %d jobs\n",
                network.resource.c_str(), network.capacity.c_str(), network.jobs_at_saturation,
                (network.jobs_at_saturation / plan.jobs - 1.0) * 100.0, plan.jobs);
  }
  if (plan.mode == Plan::Mode::per_group && !plan.station_saturation.empty()) {
    std::printf("saturation order of this deployment (jobs at which each resource is full, asymptotic bound "
                "of its queueing network):\n");
    for (const auto& limit : plan.station_saturation)
      std::printf("  %-36s %-12s %9.0f jobs%s\n", limit.resource.c_str(), limit.capacity.c_str(),
                  limit.jobs_at_saturation,
                  limit.jobs_at_saturation < plan.jobs ? "  (below the plan's jobs)" : "");
  }
}

} // namespace

void print_plan(const Plan& plan) {
  print_plan_question(plan);
  print_plan_evidence(plan);
  if (!plan.found) {
    std::printf("\nno plan: %s\n", plan.not_found_reason.c_str());
    return;
  }
  print_plan_answer(plan);
  print_plan_capacity(plan);
  if (plan.cost_usd_per_event)
    std::printf("cost per event: %s USD at the devices' own prices (costs.device_hour)\n",
                interval_text(*plan.cost_usd_per_event).c_str());
  else
    std::printf(
        "cost per event: no prices for these devices in the scenario (costs: device_hour, cpu_hour)\n");
}

namespace {

// The saturation order: each resource with the jobs at which it is full.
nlohmann::ordered_json limits_json(const std::vector<planning::ResourceLimit>& limits) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& limit : limits)
    out.push_back({{"resource", limit.resource},
                   {"capacity", limit.capacity},
                   {"jobs_at_saturation", limit.jobs_at_saturation},
                   {"network", limit.network}});
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
                       {"chosen", k == plan.chosen},
                       {"reason", o.reason}});
  }
  return options;
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
  json["replications"] = {
      {"first", plan.replications}, {"most", plan.max_replications}, {"indifference", plan.indifference}};
  json["searched"] = plan.searched;
  json["held_fixed"] = plan.held_fixed;
  json["max_gpus_per_pod"] = plan.max_gpus_per_pod;
  json["layout_rule"] = plan.layout_rule;
  json["analytic"] = {{"module_low_load_s", plan.analytic_module_low_load_s},
                      {"gpus", plan.analytic_layout.gpus()},
                      {"pods", plan.analytic_layout.pods},
                      {"jobs", plan.analytic_jobs},
                      {"job_step", plan.job_step}};
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
    return json;
  }
  if (plan.answer_run) json["answer_run"] = run_json(*plan.answer_run);
  if (plan.mode == Plan::Mode::per_group) {
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
    json["saturation"] = {{"order", limits_json(plan.station_saturation)}};
    json["cost_per_event"] =
        plan.cost_usd_per_event ? interval_json(*plan.cost_usd_per_event) : nlohmann::ordered_json();
    return json;
  }
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
  return json;
}

void write_plan_json(const std::filesystem::path& path, const Plan& plan) {
  write_file_atomically(path, plan_to_json(plan).dump(1) + "\n");
}

} // namespace sonicsim
