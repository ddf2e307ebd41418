#include "sim/engine/flow_floor.hpp"

#include "sim/kernel/event_calendar.hpp"
#include "sim/kernel/kernel_flows.hpp"

#include "sim/engine/engine_arguments.hpp"
#include "sim/metrics/run_recorder.hpp"
#include "sim/platform/site_platform.hpp"

#include <simgrid/s4u.hpp>

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace sonicsim {

FlowFloorWorkload flow_floor_workload(const Scenario& scenario, double requests, double simulated_s,
                                      double bytes_to_servers) {
  const double jobs = scenario.workload.jobs;
  if (!(requests > 0) || !(simulated_s > 0))
    throw std::invalid_argument("flow floor: the run sent no request or took no simulated time");
  FlowFloorWorkload workload;
  workload.flows_per_job = static_cast<std::uint64_t>(std::ceil(requests / jobs));
  workload.flow_bytes = bytes_to_servers / requests;
  // The run's request rate, requests / simulated_s, spread over the jobs.
  workload.period_s = simulated_s * jobs / requests;
  return workload;
}

FlowFloorResult run_flow_floor(const Scenario& scenario, const FlowFloorWorkload& workload) {
  const auto wall_start = std::chrono::steady_clock::now();
  EngineCommandLine command_line(scenario);
  const auto engine = command_line.start_engine();
  // The recorder tracks the platform's links; nothing is recorded afterwards.
  const SitePlatform site = build_site_platform(scenario);
  RunRecorder recorder(scenario, make_server_layout(scenario), site.links, nullptr);

  // Driven like the simulator's jobs (kernel_flows.hpp): a calendar event per flow start, the flow started
  // from the kernel, no actor. The floor then measures SimGrid's flows, not a design's actors.
  EventCalendar calendar(scenario.platform.network.event_calendar ? EventCalendar::Driver::own_loop
                                                                  : EventCalendar::Driver::simgrid);
  KernelFlows flows(FlowSettings{scenario.platform.network.tcp_window_bytes,
                                 scenario.platform.network.fast_path,
                                 scenario.platform.network.flow_classes,
                                 site.single_flow_nic_bounds,
                                 {site.background_source, site.on_off_source},
                                 pod_gateways(site),
                                 false, // check_rates: the floor has no before-solve hook
                                 scenario.platform.network.one_full_link});
  const int jobs = scenario.workload.jobs;
  FlowFloorResult result;
  // Each job's next flow start is scheduled by its last, as a job schedules its next step: the calendar
  // holds about one event per job, as the simulator's does. (All of them at once, 150,000 events for 400
  // jobs, made each event dearer than any run's and the floor too low.)
  struct NextFlow {
    KernelFlows* flows;
    FlowFloorResult* result;
    const FlowFloorWorkload* workload;
    sg4::Host* worker;
    sg4::Host* pod;
    double start_s;
    std::uint64_t index;
    void operator()() {
      FlowFloorResult* counted = result;
      flows->start(worker, pod, workload->flow_bytes, [counted]() { ++counted->flows; });
      if (index + 1 < workload->flows_per_job) {
        NextFlow next = *this;
        next.start_s += workload->period_s;
        ++next.index;
        calendar::at(next.start_s, next);
      }
    }
  };
  for (int job = 0; job < jobs; ++job) {
    sg4::Host* worker = site.worker_hosts[static_cast<std::size_t>(job / scenario.platform.jobs_per_node)];
    sg4::Host* pod = site.pod_hosts[static_cast<std::size_t>(job) % site.pod_hosts.size()];
    // Staggered starts, so that the flows do not all begin together.
    const double offset_s = workload.period_s * job / jobs;
    if (workload.flows_per_job > 0)
      calendar.at(offset_s, NextFlow{&flows, &result, &workload, worker, pod, offset_s, 0});
  }
  calendar.run();
  result.fast_flows = flows.counts().without_solver();
  result.wall_clock_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return result;
}

} // namespace sonicsim
