#include "sim/app/plan/plan_report.hpp"

#include "sim/app/sweep/sweep_point_files.hpp"
#include "sim/metrics/cost_bill_output.hpp"
#include "sim/metrics/number_text.hpp"
#include "sim/metrics/run_recorder.hpp"
#include "sim/scenario/provenance.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace sonicsim {
namespace {

using planning::Decision;
using planning::Plan;
using planning::PlanRun;

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
  if (!run.too_short.empty()) std::printf("            (undecided: %s)\n", run.too_short.c_str());
  if (!run.stopped_beyond.empty()) std::printf("            (%s)\n", run.stopped_beyond.c_str());
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
  for (const auto& shared : shared_modules(plan.groups))
    std::printf("  note: %s\n", shared_module_text(shared).c_str());
}

} // namespace

namespace {

// The precision rule the plan's simulations were held to, against the scenario's own.
std::string run_length_text(const Plan& plan) {
  if (plan.run_precision <= 0.0)
    return "run length: every simulation as written (workload.events_per_job; --run-precision 0)";
  std::string text = "run length: each simulation extended until its 95 % intervals are within " +
                     percent_text(plan.run_precision);
  if (plan.run_precision == plan.scenario_precision)
    text += " (output.precision)";
  else
    text += " (--run-precision; the scenario's output.precision is " +
            (plan.scenario_precision > 0.0 ? percent_text(plan.scenario_precision) : std::string("off")) +
            "): the plan decides on the intervals over its replications";
  return text + "; a candidate already clearly failing a target (its interval wholly beyond) is not extended";
}

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
  std::printf("%s\n", run_length_text(plan).c_str());
  for (const auto& s : plan.searched)
    std::printf("searched: %s\n", s.c_str());
  for (const auto& s : plan.held_fixed)
    std::printf("held fixed: %s\n", s.c_str());
  if (!plan.layout_rule.empty()) std::printf("layout rule: %s\n", plan.layout_rule.c_str());
  // An answer decided before the bracket (a fixed link full first) has none to show.
  if (plan.analytic_module_low_load_s <= 0.0) return;
  if (plan.mode == Plan::Mode::fewest_gpus && plan.analytic_layout.gpus() > 0)
    std::printf("analytic bracket (MVA, module %.4g s with one job): %s\n", plan.analytic_module_low_load_s,
                layout_text(plan.analytic_layout, "").c_str());
  if (plan.mode == Plan::Mode::most_jobs)
    std::printf("analytic bracket (MVA, module %.4g s with one job): %d jobs on %s %s (search grid: %d jobs, "
                "up to %d)\n",
                plan.analytic_module_low_load_s, plan.analytic_jobs,
                layout_text(plan.analytic_layout, "").c_str(), plan.estimate_basis.c_str(), plan.job_step,
                plan.job_ceiling);
}

// The confirming simulations and, when several were searched, each device type x NIC option.
// What a target on the accelerated modules means for the whole event: their share of the unloaded event
// (the reference run), so that a module allowed 10 % more time allows the event share x 10 % more. The
// default target is stated with why it fits, or does not, the workload.
void print_module_share(const Plan& plan) {
  const double module_s = plan.reference.module_mean_s.mean, event_s = plan.reference.event_mean_s.mean;
  if (!(module_s > 0.0 && event_s > 0.0)) return;
  const double share = module_s / event_s;
  for (const auto& t : plan.targets)
    if (t.figure.figure == Figure::module_mean_s && t.figure.module.empty() && t.relative)
      std::printf("module share: the accelerated modules take %.1f %% of the unloaded event (%s of %s s), so "
                  "%s allows the event %.2f %% more\n",
                  100.0 * share, significant(module_s).c_str(), significant(event_s).c_str(), t.text.c_str(),
                  100.0 * share * (t.limit - 1.0));
  if (!plan.default_target) return;
  if (share >= 0.2)
    std::printf("default target: the module's own time within --tolerance, because the servers set it and it "
                "is %.0f %% of the event: a job's throughput follows it\n",
                100.0 * share);
  else
    std::printf("default target: the module's own time within --tolerance; the module is only %.0f %% of the "
                "event, so this sizes for the module's latency, not the event's: for throughput per job ask "
                "--target event_mean_s<=1.05x or events_per_s_per_job>=0.95x\n",
                100.0 * share);
}

void print_plan_evidence(const Plan& plan) {
  if (plan.simulations == 0 && plan.options.size() <= 1) {
    std::printf("\nno simulation: the analytic model decided it\n");
    return;
  }
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
      std::string answer =
          o.found               ? (plan.mode == Plan::Mode::most_jobs ? std::to_string(o.jobs) + " jobs"
                                                                      : layout_text(o.layout, o.device_type))
          : o.at_least_jobs > 0 ? "at least " + std::to_string(o.at_least_jobs) + " jobs"
          : o.left_unsized
              ? "at least " + std::to_string(o.at_least_gpus) + " " + o.device_type + ", not sized"
              : "none";
      std::printf("  %-6s NIC %-10s -> %-36s cost/event %-22s %s\n", o.device_type.c_str(),
                  gbps_text(o.nic_bps).c_str(), answer.c_str(),
                  o.cost_usd_per_event ? interval_text(*o.cost_usd_per_event).c_str() : "-",
                  plan.found && k == plan.chosen ? "chosen" : o.reason.c_str());
      if (!o.assumptions.empty())
        std::printf("         rests on:\n%s", assumptions_text(o.assumptions, "           ").c_str());
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
    std::printf("CPU:GPU ratio (t_ideal / t_GPU): %.1f:1 analytic, %s:1 simulated%s\n", a.ratio,
                interval_text(plan.ratio_simulated, 3).c_str(),
                a.threads > 1 ? (" (CPU threads; a job has " + std::to_string(a.threads) + ")").c_str() : "");
    if (plan.mode == Plan::Mode::fewest_gpus)
      std::printf(
          "knee sizing (jobs x threads / simulated ratio, every GPU busy): %s GPUs; the plan's %d keep the "
          "targets, which the knee does not\n",
          interval_text(plan.knee_sizing, 3).c_str(), plan.layout.gpus());
    else
      std::printf("knee (simulated ratio x GPUs, every GPU busy): %s jobs, against %.0f from the MVA\n",
                  interval_text(plan.knee_sizing, 4).c_str(), a.jobs_per_gpu() * plan.layout.gpus());
    std::printf("saturation order on this layout (jobs at which each shared resource is full):\n");
    for (const auto& limit : a.limits)
      std::printf("  %-12s %-36s %9.0f jobs\n", limit.resource.c_str(), limit.capacity.c_str(),
                  limit.jobs_at_saturation);
    const auto& chosen = plan.options[plan.chosen];
    if (chosen.analytic_layout_fast_nic) {
      // --nics searched the NIC: the choice among them was made (by cost or devices), nothing to try.
      const bool nic_searched = std::none_of(plan.held_fixed.begin(), plan.held_fixed.end(),
                                             [](const std::string& s) { return s.rfind("pod NIC", 0) == 0; });
      if (chosen.analytic_layout_fast_nic->gpus() < chosen.analytic_layout.gpus())
        std::printf("limited by: the pod NIC (%s, %s) decided the layout: with %s NICs the MVA asks %d GPUs "
                    "instead of %d%s\n",
                    gbps_text(chosen.nic_bps).c_str(),
                    nic_searched ? "chosen among the NICs searched" : "held fixed",
                    gbps_text(chosen.analytic_layout_fast_nic->nic_bps).c_str(),
                    chosen.analytic_layout_fast_nic->gpus(), chosen.analytic_layout.gpus(),
                    nic_searched ? " (see the options above for why it lost)" : "; try --nics");
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
  print_module_share(plan);
  print_plan_evidence(plan);
  if (!plan.found) {
    std::printf("\nno plan: %s\n", plan.not_found_reason.c_str());
    return;
  }
  print_plan_answer(plan);
  if (!plan.assumptions.empty())
    std::printf("rests on assumed and calibrated values (the scenario's provenance:):\n%s",
                assumptions_text(plan.assumptions, "  ").c_str());
  print_plan_capacity(plan);
  if (plan.cost_usd_per_event) {
    std::printf("cost per event: %s USD (95 %% interval over the replications); the bill at the mean:\n",
                interval_text(*plan.cost_usd_per_event).c_str());
    if (plan.bill) {
      std::ostringstream bill;
      print_cost_bill(bill, *plan.bill, "  ");
      std::fputs(bill.str().c_str(), stdout);
    }
  } else {
    std::printf("cost per event: no prices in the scenario for these devices or the jobs' cores (costs: "
                "device_hour: {TYPE: USD}, cpu_hour: USD, pod_hour: USD)\n");
  }
}

} // namespace sonicsim
