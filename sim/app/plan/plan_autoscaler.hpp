// `sonicsim plan --autoscaler`: the operator's question for an autoscaled pool (sim/planning/
// autoscaler_plan.hpp): which threshold, min, max (and, as a what-if, start-up delay) keep the event time
// within a tolerance of a static deployment at the fewest device-hours. Every setting and the reference run
// the same replications' seeds; the trade-off table and plan_autoscaler.json give every setting's figures.
#pragma once

#include "sim/app/common/scenario_source.hpp"

#include "sim/execution/execution_options.hpp"
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace sonicsim {

struct AutoscalerPlanArguments {
  std::vector<std::string> thresholds;     // in the metric's unit as the YAML writes it ("100ms")
  std::vector<int> min_pods, max_pods;     // empty: the scenario's
  std::vector<std::string> startup_delays; // empty: the scenario's
  std::string reference_variant;           // empty: a static pool of the largest max
  double tolerance = 0.05;
  int replications = 3;
  std::string output_dir;
  bool quiet = false, json = false;
  bool html = false; // --html: report.html beside plan_autoscaler.json
};

// plan's --autoscaler flag and the lists it searches.
void add_autoscaler_plan_options(CLI::App& command, bool& enabled, AutoscalerPlanArguments& plan);

int plan_autoscaler(const ScenarioSource& source, const AutoscalerPlanArguments& arguments,
                    const ExecutionOptions& execution, int parallel);

} // namespace sonicsim
