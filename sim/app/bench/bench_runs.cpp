#include "sim/app/bench/bench_runs.hpp"

#include "sim/engine/simulation.hpp"
#include "sim/execution/process_pool.hpp"
#include "sim/metrics/bench_figures.hpp"
#include "sim/metrics/json_fields.hpp"
#include "sim/metrics/summary_json.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include <sys/resource.h>

namespace sonicsim {

namespace {

// CPU time of this process so far (user + system): unlike wall time, it does not grow when other processes
// compete for the cores.
double process_cpu_s() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return cpu_seconds(usage);
}

} // namespace

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

std::vector<Measurement> measure(const Scenario& scenario, int repeat) {
  std::vector<Measurement> measurements(static_cast<std::size_t>(repeat));
  run_in_child_processes(
      static_cast<std::size_t>(repeat), 1,
      [&scenario](std::size_t) {
        const double cpu_before_s = process_cpu_s();
        const RunResult result = run_simulation(scenario, RunOptions{});
        nlohmann::ordered_json out{
            {"wall_s", result.wall_clock_s},
            {"cpu_s", process_cpu_s() - cpu_before_s},
            {"requests", result.summary.requests_sent},
            {"events",
             result.summary.events_completed + result.summary.events_warmup + result.summary.events_failed},
            {"simulated_s", result.summary.simulated_end_s},
            {"bytes_to_servers", result.summary.bytes_to_servers},
            // Timed without the solver throughout: a flow handed over when a link filled is SimGrid's too.
            {"fast_flows", result.summary.engine.flows_without_solver()},
            {"flows", result.summary.engine.flows()}};
        return json_text(out);
      },
      [&measurements](std::size_t i, const ChildResult& child) {
        if (!child.ok) throw std::runtime_error("benchmark run failed: " + child.output);
        const auto json = nlohmann::ordered_json::parse(child.output);
        measurements[i] = Measurement{json["wall_s"].get<double>(),
                                      json["cpu_s"].get<double>(),
                                      json["requests"].get<double>(),
                                      json["events"].get<double>(),
                                      static_cast<double>(child.peak_rss_kb) / 1024.0,
                                      json["simulated_s"].get<double>(),
                                      json["bytes_to_servers"].get<double>(),
                                      json["fast_flows"].get<double>(),
                                      json["flows"].get<double>()};
      });
  return measurements;
}

FloorRate measure_flow_floor(const Scenario& scenario, const FlowFloorWorkload& workload) {
  FloorRate rate;
  run_in_child_processes(
      1, 1,
      [&scenario, &workload](std::size_t) {
        const FlowFloorResult result = run_flow_floor(scenario, workload);
        return nlohmann::ordered_json{
            {"flows", result.flows}, {"fast", result.fast_flows}, {"wall_s", result.wall_clock_s}}
            .dump();
      },
      [&rate](std::size_t, const ChildResult& child) {
        if (!child.ok) throw std::runtime_error("SimGrid floor run failed: " + child.output);
        const auto json = nlohmann::ordered_json::parse(child.output);
        const double flows = json["flows"].get<double>();
        rate.flows_per_s = flows / json["wall_s"].get<double>();
        rate.fast_percent = flows > 0 ? 100.0 * json["fast"].get<double>() / flows : 0.0;
      });
  return rate;
}

WithFloor measure_with_floor(const Scenario& scenario, int repeat) {
  WithFloor out;
  std::optional<FlowFloorWorkload> workload;
  for (int i = 0; i < repeat; ++i) {
    out.runs.push_back(measure(scenario, 1).front());
    const Measurement& run = out.runs.back();
    if (!workload)
      workload = flow_floor_workload(scenario, run.requests, run.simulated_s, run.bytes_to_servers);
    out.floor_per_s.push_back(measure_flow_floor(scenario, *workload).flows_per_s);
  }
  return out;
}

} // namespace sonicsim
