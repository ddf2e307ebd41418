// `sonicsim plan`'s options as the command line gives them (sim/app/plan/plan_options.cpp declares them;
// plan_command.cpp runs the plan).
#pragma once

#include "sim/app/common/execution_flags.hpp"
#include "sim/app/common/scenario_source.hpp"
#include "sim/app/plan/plan_autoscaler.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace sonicsim {

struct PlanArguments {
  ScenarioSource source;
  bool html = false; // --html: report.html beside the results
  int jobs = 0;
  int gpus = 0;
  double tolerance = 0.10;
  bool tolerance_given = false;
  std::vector<std::string> targets;
  int replications = 3;
  int max_replications = 10;
  double indifference = 0.01;
  double run_precision = 0.0;
  bool run_precision_given = false;
  std::vector<std::string> device_types;
  std::vector<std::string> nics;
  bool size_every_option = false;
  int max_gpus_per_pod = 8;
  int max_gpus = 256;
  int max_jobs = 0;
  double max_link_load = 1.0;
  bool cost = false;
  std::string output_dir;
  bool quiet = false, json = false;
  bool resume = false;      // take the simulations kept in OUT/runs/ by an earlier run of the same plan
  bool sensitivity = false; // the plan again at each end of each ranged value (plan_sensitivity)
  ExecutionFlags execution{hardware_threads()};
  // --autoscaler: the autoscaler's settings for an autoscaled pool instead of a device count.
  bool autoscaler = false;
  AutoscalerPlanArguments autoscaler_plan;
};

// Declares every option of `plan` on `command`, into `arguments`.
void add_plan_options(CLI::App& command, PlanArguments& arguments);

} // namespace sonicsim
