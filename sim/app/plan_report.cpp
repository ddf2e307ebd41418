#include "sim/app/plan_report.hpp"

#include "sim/app/sweep_point_files.hpp"
#include "sim/metrics/run_recorder.hpp"

#include <cstdio>

namespace sonicsim {
namespace {

using planning::Plan;
using planning::PlanRun;

std::string layout_text(const planning::PodLayout& layout) {
  return std::to_string(layout.gpus()) + " GPUs = " + std::to_string(layout.pods) + " pod(s) x " +
         std::to_string(layout.gpus_per_pod);
}

void print_run(const PlanRun& run, double tolerance) {
  std::printf("  %-9s %5d %4d %5d %6d %9.3f %7.3f %-4s %9.3f %7.1f %8.1f  %s (%.0f %%)\n", run.role.c_str(),
              run.layout.gpus(), run.layout.pods, run.layout.gpus_per_pod, run.jobs, run.module_s,
              run.module_over_reference,
              run.role == "reference" ? "ref" : (run.within_tolerance ? "ok" : "over"), run.event_s,
              100.0 * run.gpu_utilisation, run.wall_clock_s, run.bottleneck.c_str(),
              run.bottleneck_utilisation * 100.0);
  (void)tolerance;
  if (!run.error.empty()) std::printf("            (%s)\n", run.error.c_str());
}

nlohmann::ordered_json run_json(const PlanRun& run) {
  return {{"role", run.role},
          {"gpus", run.layout.gpus()},
          {"pods", run.layout.pods},
          {"gpus_per_pod", run.layout.gpus_per_pod},
          {"jobs", run.jobs},
          {"module_mean_s", run.module_s},
          {"module_over_reference", run.module_over_reference},
          {"within_tolerance", run.within_tolerance},
          {"event_mean_s", run.event_s},
          {"events_per_s", run.events_per_s},
          {"gpu_utilisation", run.gpu_utilisation},
          {"gpu_s_per_event", run.gpu_s_per_event},
          {"bottleneck", run.bottleneck},
          {"bottleneck_utilisation", run.bottleneck_utilisation},
          {"error", run.error}};
}

} // namespace

void print_plan(const Plan& plan) {
  const bool fewest = plan.mode == Plan::Mode::fewest_gpus;
  std::printf("plan for %s%s: %s\n", plan.scenario.c_str(),
              plan.variant.empty() ? "" : (" (variant " + plan.variant + ")").c_str(),
              fewest ? ("the fewest GPUs for " + std::to_string(plan.requested) + " jobs").c_str()
                     : ("the most jobs " + std::to_string(plan.requested) + " GPUs serve").c_str());
  std::printf("criterion: mean time of the accelerated module <= (1 + %.3g) x its time at low load "
              "(the reference run)\n",
              plan.tolerance);
  std::printf("layout rule: %s\n", plan.layout_rule.c_str());
  std::printf("\nanalytic bracket (MVA, module %.3f s with one job): ", plan.analytic_module_low_load_s);
  if (fewest)
    std::printf("%s\n", layout_text(plan.analytic_layout).c_str());
  else
    std::printf("%d jobs on %s (search grid: %d jobs)\n", plan.analytic_jobs,
                layout_text(plan.analytic_layout).c_str(), plan.job_step);

  std::printf("\nconfirming simulations (%zu runs + reference in %d batch(es)):\n", plan.runs.size(),
              plan.batches);
  std::printf("  %-9s %5s %4s %5s %6s %9s %7s %-4s %9s %7s %8s  %s\n", "run", "GPUs", "pods", "/pod", "jobs",
              "module s", "x ref", "", "event s", "GPU %", "wall s", "bottleneck");
  print_run(plan.reference, plan.tolerance);
  for (const auto& run : plan.runs)
    print_run(run, plan.tolerance);

  if (!plan.found) {
    std::printf("\nno plan: %s\n", plan.not_found_reason.c_str());
    return;
  }
  const auto& a = plan.analysis;
  std::printf("\nplan: %s for %d jobs (%.1f jobs per GPU)\n", layout_text(plan.layout).c_str(), plan.jobs,
              static_cast<double>(plan.jobs) / plan.layout.gpus());
  if (plan.answer_run)
    std::printf("  module %.3f s = %.3f x the reference %.3f s\n", plan.answer_run->module_s,
                plan.answer_run->module_over_reference, plan.reference.module_s);
  std::printf("CPU:GPU ratio (t_ideal / t_GPU): %.1f:1 analytic, %.1f:1 simulated\n", a.ratio,
              plan.ratio_simulated);
  if (plan.mode == Plan::Mode::fewest_gpus)
    std::printf(
        "at the knee instead (jobs / simulated ratio): %.0f GPUs, with the module well above tolerance\n",
        plan.knee_sizing);
  else
    std::printf(
        "at the knee instead (simulated ratio x GPUs): %.0f jobs, with the module well above tolerance\n",
        plan.knee_sizing);
  std::printf("saturation order on this layout (jobs at which each shared resource is full):\n");
  for (const auto& limit : a.limits)
    std::printf("  %-12s %-36s %9.0f jobs\n", limit.resource.c_str(), limit.capacity.c_str(),
                limit.jobs_at_saturation);
  std::printf("first to saturate: %s at %.0f jobs\n", a.first().resource.c_str(),
              a.first().jobs_at_saturation);
  if (plan.first_failing)
    std::printf("  simulated: the failing neighbour (%d GPUs, %d jobs) is limited by %s at %.0f %%\n",
                plan.first_failing->layout.gpus(), plan.first_failing->jobs,
                plan.first_failing->bottleneck.c_str(), plan.first_failing->bottleneck_utilisation * 100.0);
  const auto& network = a.network_limit();
  std::printf("network limit: %s (%s) at %.0f jobs; headroom %.0f %% above %d jobs\n",
              network.resource.c_str(), network.capacity.c_str(), network.jobs_at_saturation,
              (network.jobs_at_saturation / plan.jobs - 1.0) * 100.0, plan.jobs);
  if (plan.cost)
    std::printf("cost per event: %.4g USD (%.4g GPU-hours, %.4g CPU-hours per event)\n", plan.cost->usd,
                plan.cost->gpu_hours, plan.cost->cpu_hours);
  else
    std::printf("cost per event: no prices in the scenario (costs: gpu_hour, cpu_hour)\n");
}

nlohmann::ordered_json plan_to_json(const Plan& plan) {
  nlohmann::ordered_json json;
  json["mode"] = plan.mode == Plan::Mode::fewest_gpus ? "fewest_gpus" : "most_jobs";
  json["scenario"] = plan.scenario;
  json["variant"] = plan.variant;
  json["requested"] = plan.requested;
  json["tolerance"] = plan.tolerance;
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
  json["found"] = plan.found;
  if (!plan.found) {
    json["reason"] = plan.not_found_reason;
    return json;
  }
  const auto& a = plan.analysis;
  json["plan"] = {{"gpus", plan.layout.gpus()},
                  {"pods", plan.layout.pods},
                  {"gpus_per_pod", plan.layout.gpus_per_pod},
                  {"jobs", plan.jobs},
                  {"jobs_per_gpu", static_cast<double>(plan.jobs) / plan.layout.gpus()}};
  json["ratio"] = {{"analytic", a.ratio}, {"simulated", plan.ratio_simulated}};
  json["knee_sizing"] = plan.knee_sizing;
  nlohmann::ordered_json limits = nlohmann::ordered_json::array();
  for (const auto& limit : a.limits)
    limits.push_back({{"resource", limit.resource},
                      {"capacity", limit.capacity},
                      {"jobs_at_saturation", limit.jobs_at_saturation},
                      {"network", limit.network}});
  json["saturation"] = {{"first", a.first().resource},
                        {"first_at_jobs", a.first().jobs_at_saturation},
                        {"order", limits},
                        {"simulated_bottleneck_of_failing_neighbour",
                         plan.first_failing ? plan.first_failing->bottleneck : ""}};
  const auto& network = a.network_limit();
  json["network"] = {{"limit", network.resource},
                     {"limit_jobs", network.jobs_at_saturation},
                     {"headroom", network.jobs_at_saturation / plan.jobs - 1.0}};
  if (plan.cost)
    json["cost_per_event"] = {
        {"usd", plan.cost->usd}, {"gpu_hours", plan.cost->gpu_hours}, {"cpu_hours", plan.cost->cpu_hours}};
  else
    json["cost_per_event"] = nullptr;
  return json;
}

void write_plan_json(const std::filesystem::path& path, const Plan& plan) {
  write_file_atomically(path, plan_to_json(plan).dump(1) + "\n");
}

} // namespace sonicsim
