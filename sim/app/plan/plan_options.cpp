#include "sim/app/plan/plan_arguments.hpp"

#include "sim/app/common/output_options.hpp"
#include "sim/app/run/html_report.hpp"

namespace sonicsim {
namespace {

// What the search may try: device types, NICs, GPUs per pod, at most how many GPUs or jobs, how loaded a
// link more pods cannot relieve may be.
void add_search_bounds(CLI::App& command, PlanArguments& arguments) {
  command
      .add_option("--device-types", arguments.device_types,
                  "Device types to search (their models' curves and costs.device_hour prices), e.g. "
                  "T4,A100; default: the group's own")
      ->delimiter(',')
      ->allow_extra_args(false);
  command
      .add_option("--nics", arguments.nics,
                  "Pod NIC bandwidths to search, e.g. 16Gbps,100Gbps; default: the group's own")
      ->delimiter(',')
      ->allow_extra_args(false);
  command.add_flag(
      "--size-every-option", arguments.size_every_option,
      "With --jobs and several options (--device-types, --nics): size every option. By default an option is "
      "left unsized once even its fewest possible devices cost more per event (at most the low-load rate per "
      "job) than the top of the best option's interval");
  command
      .add_option("--max-gpus-per-pod", arguments.max_gpus_per_pod,
                  "GPUs in one pod (one VM, one NIC) before another pod is added (default 8)")
      ->check(CLI::Range(1, 1024));
  command
      .add_option("--max-gpus", arguments.max_gpus, "Largest number of GPUs the search tries (default 256)")
      ->check(CLI::Range(1, 100000));
  command
      .add_option("--max-jobs", arguments.max_jobs,
                  "With --gpus: the largest number of jobs the search tries (default: 3 x the analytic "
                  "estimate, 10 x when the MVA does not predict a target's figure); a search that meets "
                  "the targets up to it answers 'at least N jobs' and exits 3")
      ->check(CLI::Range(1, 10000000));
  command
      .add_option("--max-link-load", arguments.max_link_load,
                  "The highest load allowed on a link more pods cannot relieve (the site switch, the WAN), "
                  "as a fraction of its capacity: a plan needing more is refused before simulating "
                  "(default 1: the capacity itself, past which no target holds; 0.9 keeps a 10 % margin)")
      ->check(CLI::Range(0.01, 1.0));
}

} // namespace

void add_plan_options(CLI::App& command, PlanArguments& arguments) {
  arguments.source.add_options(command);
  command.add_option("--jobs", arguments.jobs, "Concurrent jobs to serve: find the fewest GPUs")
      ->check(CLI::Range(1, 10000000));
  command.add_option("--gpus", arguments.gpus, "GPUs available: find the most jobs they serve")
      ->check(CLI::Range(1, 100000));
  command
      .add_option("--tolerance", arguments.tolerance,
                  "Allowed rise of the module time over its unsaturated (low-load) time, a fraction "
                  "(default 0.10): the target module_mean_s<=1.10x")
      ->each([&arguments](const std::string&) { arguments.tolerance_given = true; });
  command
      .add_option(
          "--target", arguments.targets,
          "A target all answers must meet (repeatable), on any figure (`sonicsim figures` lists them): "
          "module_mean_s<=15s or <=1.10x, event_mean_s<=130s, event_p95_s<=200s, "
          "events_per_s>=2.2, cost_usd_per_event<=0.002, gpu_utilisation<=0.8; met when its 95 % "
          "confidence bound meets it")
      ->allow_extra_args(false);
  command
      .add_option("--replications", arguments.replications,
                  "Replications of every candidate at first (common random numbers; default 3)")
      ->check(CLI::Range(1, 1000));
  command
      .add_option("--max-replications", arguments.max_replications,
                  "Replications an undecided candidate may grow to before the answer is a range (default 10)")
      ->check(CLI::Range(1, 1000));
  command
      .add_option("--indifference", arguments.indifference,
                  "A candidate whose 95 % interval straddles a target but is narrower than this fraction of "
                  "the limit is decided by its mean (default 0.01; 0: only by the interval)")
      ->check(CLI::Range(0.0, 0.5));
  command
      .add_option("--run-precision", arguments.run_precision,
                  "The precision rule of the plan's simulations: each is extended until its 95 % intervals "
                  "are within this fraction (0: off, every run as written). Default 4 x the scenario's "
                  "output.precision (0.08 for 2 %): the plan decides on the interval over replications, "
                  "which more replications narrow for less than longer runs")
      ->check(CLI::Range(0.0, 0.5))
      ->each([&arguments](const std::string&) { arguments.run_precision_given = true; });
  add_search_bounds(command, arguments);
  command.add_flag(
      "--cost", arguments.cost,
      "Require the cost per event (the scenario's costs.device_hour.TYPE and costs.cpu_hour, in USD per "
      "hour of one device of each type and of one CPU core a job holds; costs.pod_hour, a server pod's "
      "host, is added when given)");
  command
      .add_option("--out", arguments.output_dir,
                  "Output directory for plan.json (default: out/plan_<scenario name>)")
      ->check(directory_path);
  command.add_flag("--resume", arguments.resume,
                   "Take the simulations an earlier run of the same plan kept in OUT/runs/ (each finished "
                   "simulation is kept there by its scenario's fingerprint), e.g. after Ctrl-C");
  add_autoscaler_plan_options(command, arguments.autoscaler, arguments.autoscaler_plan);
  add_execution_options(command, arguments.execution, ExecutionShape::deciding);
  command.add_flag("--sensitivity", arguments.sensitivity,
                   "Also rank what the answer rests on: the plan again at each end of each value whose "
                   "provenance gives a range (plan_sensitivity.json; a tornado chart with --html)");
  add_html_option(command, arguments.html);
  add_output_options(command, arguments.quiet, &arguments.json);
}

} // namespace sonicsim
