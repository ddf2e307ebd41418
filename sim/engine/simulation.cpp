#include "sim/engine/simulation.hpp"
#include "sim/components/window_stop.hpp"
#include "sim/kernel/event_calendar.hpp"

#include "sim/metrics/direct_baseline.hpp"

#include "sim/analysis/campaign_traffic_fit.hpp"
#include "sim/components/background_traffic.hpp"
#include "sim/components/campaign_scheduler.hpp"
#include "sim/components/inference_server.hpp"
#include "sim/components/job_client.hpp"
#include "sim/components/job_placer.hpp"
#include "sim/components/server_pool.hpp"
#include "sim/engine/engine_arguments.hpp"
#include "sim/engine/memory_estimate.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/kernel/kernel_flows.hpp"
#include "sim/metrics/number_text.hpp"
#include "sim/metrics/run_precision.hpp"
#include "sim/platform/site_platform.hpp"
#include "sim/policy/load_balancer.hpp"
#include "sim/random/random_streams.hpp"
#include "sim/scenario/campaign_scale.hpp"
#include "sim/scenario/input_error.hpp"

#include <simgrid/s4u.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace sonicsim {
namespace {

// The jobs of a fixed run, all placed at the start: job j in slot j, starting spread over
// workload.start_spread.
std::vector<JobPlacement> place_jobs(const Scenario& scenario, const ServerLayout& layout) {
  JobPlacer placer(scenario, layout);
  auto balancer_rng = make_stream(scenario.seed, stream_load_balancer);
  auto start_rng = make_stream(scenario.seed, stream_job_start);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<JobPlacement> placements;
  for (int job = 0; job < scenario.workload.jobs; ++job) {
    placements.push_back(placer.place(job, job, balancer_rng));
    placements.back().start_s = scenario.workload.start_spread_s * unit(start_rng);
  }
  return placements;
}

// The site's steady or scheduled background traffic (a source at a rate), and its on/off bursts: each a
// SimGrid actor when set.
bool has_steady_background(const BackgroundTraffic& background) {
  return background.rate_bps > 0 || background.schedule.has_value();
}
bool has_background_actors(const BackgroundTraffic& background) {
  return has_steady_background(background) || background.on_off.has_value();
}

// The site's other traffic, as SimGrid actors (daemons: they end with the run).
void start_background_sources(const Scenario& scenario, const SitePlatform& site, RunRecorder& recorder) {
  const BackgroundTraffic& background = scenario.platform.site_switch.background;
  if (has_steady_background(background)) {
    sg4::Actor::create(
        "background_traffic", site.background_source,
        BackgroundTrafficSource(site, recorder, background,
                                scenario.workload.campaign ? scenario.workload.campaign->start_s : 0.0))
        ->daemonize();
  }
  if (background.on_off) {
    sg4::Actor::create("background_on_off", site.background_source,
                       OnOffTrafficSource(site, recorder, *background.on_off,
                                          make_stream(scenario.seed, stream_background_on_off)))
        ->daemonize();
  }
}

// Starts a job of a fixed run. Preempted (workload.preemption), it is resubmitted at once on its slot, going
// on after the events that ended (same job number, same random stream, the next event numbers); with nothing
// to resubmit it counts as finished.
void start_fixed_job(JobContext& context, JobPlacement placement, const std::function<void()>& on_finish) {
  auto on_preempted = [&context, placement, on_finish](int events_back, int events_ended) {
    if (events_back == 0) {
      on_finish();
      return;
    }
    // The preempted jobs whose last call has run are destroyed now and then (when they are half as many as
    // the jobs held): memory stays that of the jobs running, however often they are preempted.
    auto& jobs = context.jobs;
    if (++context.preempted_since_reclaim > jobs.size() / 2) {
      context.preempted_since_reclaim = 0;
      jobs.erase(std::remove_if(jobs.begin(), jobs.end(),
                                [](const auto& job) { return job->preempted() && job->finished(); }),
                 jobs.end());
    }
    JobPlacement again = placement;
    again.first_event = events_ended;
    ++again.resubmission;
    again.start_s = calendar::now_s();
    start_fixed_job(context, again, on_finish);
  };
  context.jobs.push_back(std::make_unique<JobClient>(context, std::move(placement), on_finish, on_preempted));
  context.jobs.back()->start();
}

// Every job of a fixed run, placed; the last one's end (or the window's, sim/components/window_stop.hpp) ends
// the run. `jobs_running` and `keeper` outlive the run.
void start_fixed_jobs(JobContext& context, const ServerLayout& layout, int& jobs_running,
                      const sg4::ActorPtr& keeper) {
  for (const auto& placement : place_jobs(context.scenario, layout))
    start_fixed_job(context, placement, [&jobs_running, &context, keeper]() {
      const auto end_run = [keeper]() {
        if (keeper && keeper->is_suspended()) keeper->resume();
      };
      stop_at_window_end(context, end_run);
      if (--jobs_running > 0) return;
      context.jobs_done = true;
      end_run();
    });
}

} // namespace

namespace {

// Reports at most once per wall-clock second; the wall clock is read every 4,096 events only.
std::function<void(double)> progress_reporter(const Scenario& scenario, const RunRecorder& recorder,
                                              const std::function<void(const RunProgress&)>& report) {
  const Workload& workload = scenario.workload;
  const double total_events =
      workload.campaign ? 0.0 : static_cast<double>(workload.jobs) * workload.events_per_job;
  const std::optional<double> window_s = workload.campaign ? workload.campaign->window_s : std::nullopt;
  auto last = std::chrono::steady_clock::now();
  unsigned advances = 0;
  return [=, &recorder](double clock_s) mutable {
    if (++advances % 4096 != 0) return;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last).count() < 1.0) return;
    last = now;
    RunProgress progress{clock_s, std::nullopt};
    if (window_s && *window_s > 0)
      progress.fraction_done = std::min(1.0, clock_s / *window_s);
    else if (total_events > 0)
      progress.fraction_done = std::min(1.0, static_cast<double>(recorder.events_ended()) / total_events);
    report(progress);
  };
}

// The client's fallback group (workload.client.fallback): on each of its pods (one per client node), a
// server for every served model. Without CPU instances of its own for a group without devices, a model runs
// one CPU instance per host core there, as a local Triton CPU server would use its cores.
void add_fallback_servers(const Scenario& scenario, ServerDirectory& directory,
                          std::vector<std::unique_ptr<PodResources>>& pods, RunRecorder& recorder) {
  const std::string& name = scenario.workload.client.fallback_group;
  if (name.empty()) return;
  const ServerLayout& layout = directory.layout;
  const auto& groups = scenario.platform.server_groups;
  const auto g = static_cast<std::size_t>(
      std::find_if(groups.begin(), groups.end(), [&](const ServerGroup& x) { return x.name == name; }) -
      groups.begin());
  const ServerGroup& group = groups[g];
  directory.fallback_first_pod = layout.first_pod[g];
  for (std::size_t m = 0; m < layout.served_models.size(); ++m) {
    const Model& model = scenario.models.at(layout.served_models[m]);
    std::vector<InstanceGroup> instances = effective_instance_groups(model, group);
    const bool runnable = group.devices_per_pod > 0 ||
                          std::all_of(instances.begin(), instances.end(),
                                      [](const auto& i) { return i.kind == InstanceGroup::Kind::cpu; });
    if (!runnable) instances = {InstanceGroup{group.host_cores, InstanceGroup::Kind::cpu, {}}};
    for (int p = 0; p < group.pods; ++p) {
      const auto pod = static_cast<std::size_t>(layout.first_pod[g] + p);
      directory.owned.push_back(std::make_unique<InferenceServer>(model, static_cast<int>(m), group,
                                                                  *pods[pod], recorder, instances));
      directory.servers[m][pod] = directory.owned.back().get();
    }
  }
}

// Each pod's devices and host cores, shared by the models it serves; one Triton front end per (model served,
// pod of its groups). The pods are returned: the servers hold references to them for the whole run.
std::vector<std::unique_ptr<PodResources>> build_servers(const Scenario& scenario, ServerDirectory& directory,
                                                         RunRecorder& recorder) {
  const ServerLayout& layout = directory.layout;
  std::vector<std::unique_ptr<PodResources>> pods;
  int devices = 0;
  for (int pod = 0; pod < layout.pods(); ++pod) {
    const int g = layout.pod_group[static_cast<std::size_t>(pod)];
    const ServerGroup& group = scenario.platform.server_groups[static_cast<std::size_t>(g)];
    pods.push_back(std::make_unique<PodResources>(g, devices, group.devices_per_pod, group.host_cores,
                                                  group.model_switch_s, group.model_switch_slowdown));
    pods.back()->number = pod;
    pods.back()->proxied = group.pooled();
    devices += group.devices_per_pod;
  }
  for (std::size_t m = 0; m < layout.served_models.size(); ++m) {
    const Model& model = scenario.models.at(layout.served_models[m]);
    auto& per_pod = directory.servers.emplace_back(static_cast<std::size_t>(layout.pods()), nullptr);
    for (const int pod : layout.model_pods[m]) {
      const int g = layout.pod_group[static_cast<std::size_t>(pod)];
      directory.owned.push_back(std::make_unique<InferenceServer>(
          model, static_cast<int>(m), scenario.platform.server_groups[static_cast<std::size_t>(g)],
          *pods[static_cast<std::size_t>(pod)], recorder));
      per_pod[static_cast<std::size_t>(pod)] = directory.owned.back().get();
    }
  }
  add_fallback_servers(scenario, directory, pods, recorder);
  return pods;
}

// A fallback server on a shared client node computes on the node's cores: its batches count in that node's
// load (worker w holds pod first_pod + w of an on_client_nodes group).
void join_node_loads(const Scenario& scenario, const ServerLayout& layout,
                     const std::vector<std::unique_ptr<PodResources>>& pods, JobContext& context) {
  if (!scenario.platform.client_node.enabled()) return;
  for (std::size_t p = 0; p < pods.size(); ++p) {
    const auto g = static_cast<std::size_t>(layout.pod_group[p]);
    if (!scenario.platform.server_groups[g].on_client_nodes) continue;
    pods[p]->node = &scenario.platform.client_node;
    pods[p]->node_load = &context.node_loads[p - static_cast<std::size_t>(layout.first_pod[g])];
  }
}

// Servers that change in time (sim/components/server_pool.hpp): one pool per pooled group, and each model on
// it routed through its pool. Started at time 0.
std::vector<std::unique_ptr<ServerPool>> build_pools(const Scenario& scenario, ServerDirectory& directory,
                                                     const std::vector<std::unique_ptr<PodResources>>& pods,
                                                     RunRecorder& recorder, const JobContext& context) {
  std::vector<std::unique_ptr<ServerPool>> pools;
  if (!recorder.operations()) return pools;
  const ServerLayout& layout = directory.layout;
  const auto& groups = scenario.platform.server_groups;
  directory.pools.assign(layout.served_models.size(), nullptr);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (!groups[g].pooled()) continue;
    std::vector<ServerPool::Pod> members;
    for (int p = 0; p < groups[g].pods; ++p) {
      const int pod = layout.first_pod[g] + p;
      ServerPool::Pod member{pod, pods[static_cast<std::size_t>(pod)].get(), {}};
      for (const auto& per_pod : directory.servers)
        if (auto* server = per_pod[static_cast<std::size_t>(pod)]) member.servers.push_back(server);
      members.push_back(std::move(member));
    }
    pools.push_back(std::make_unique<ServerPool>(scenario, static_cast<int>(g), std::move(members),
                                                 *recorder.operations(), &context.stopped, &context.jobs_done,
                                                 recorder.server_metrics()));
    for (std::size_t m = 0; m < layout.served_models.size(); ++m)
      if (layout.model_groups[m].front() == static_cast<int>(g)) directory.pools[m] = pools.back().get();
    pools.back()->start();
  }
  return pools;
}

// The precision rule's outcome in the summary: how long the run became, and a warning when it could not
// reach the precision asked.
void report_precision(RunSummary& summary, const RunLength& run_length, bool preemptible) {
  RunPrecision& precision = summary.precision;
  precision.events_per_job = run_length.current();
  precision.extensions = run_length.extensions();
  if (!precision.met) precision.stopped_beyond = run_length.stopped_beyond();
  if (const std::string queue = queue_still_filling(summary); !queue.empty())
    summary.warnings.push_back(queue);
  if (!precision.too_short()) return;
  summary.warnings.push_back("the run is too short for the precision asked (output.precision " +
                             percent_text(precision.target_relative) + "): " + precision.shortfall() +
                             ", at " + std::to_string(precision.events_per_job) + " events per job after " +
                             std::to_string(precision.extensions) + " extensions (output.max_extension" +
                             (preemptible ? "; a run with workload.preemption is not extended: it keeps the "
                                            "workload as written"
                                          : "") +
                             "); its figures are indicative");
}

// The background sources are SimGrid actors; their flows are counted at their peak on the fast path.
void add_background_peaks(KernelFlows& flows, const SitePlatform& site, const BackgroundTraffic& background) {
  if (has_steady_background(background))
    flows.add_other_traffic(site.background_source, site.background_sink,
                            site.background_limiter->get_bandwidth());
  if (background.on_off)
    flows.add_other_traffic(site.on_off_source, site.background_sink, site.on_off_limiter->get_bandwidth());
}

// How the engine timed the run, as one record.
EngineCounts engine_counts(const FlowCounts& flows, const EventCalendar::Counts& calendar,
                           const SitePlatform& site) {
  EngineCounts out;
  out.flows_fast = flows.fast;
  out.flows_simgrid = flows.simgrid;
  out.flows_handed = flows.handed;
  out.flows_shared = flows.shared;
  out.flows_unshared = flows.unshared;
  out.flow_classes = flows.classes;
  out.flow_class_comms = flows.class_comms;
  out.calendar_events = calendar.events;
  out.calendar_events_without_simgrid = calendar.own_events;
  out.links_left_out = site.links_left_out;
  return out;
}

} // namespace

RunResult run_simulation(const Scenario& scenario_as_written, const RunOptions& options) {
  const auto wall_start = std::chrono::steady_clock::now();
  // A campaign may run on a fraction of the site (campaign_scale.hpp); outputs show the scenario as written.
  const Scenario scenario = scaled_for_simulation(scenario_as_written);
  check_run_fits(scenario); // before the engine holds anything (memory_estimate.hpp)
  EngineCommandLine command_line(scenario);
  const auto engine = command_line.start_engine();

  std::unique_ptr<OutputFiles> files;
  if (options.output_dir) files = std::make_unique<OutputFiles>(*options.output_dir);
  const SitePlatform site = build_site_platform(scenario);
  // SimGrid drives throughout when it has actors (background sources): they act on its clock. Otherwise the
  // calendar runs what touches no SimGrid resource itself (event_calendar.hpp).
  const BackgroundTraffic& background = scenario.platform.site_switch.background;
  const bool simgrid_actors = has_background_actors(background);
  const bool own_loop = !simgrid_actors && scenario.platform.network.event_calendar;
  EventCalendar calendar(own_loop ? EventCalendar::Driver::own_loop : EventCalendar::Driver::simgrid);
  ServerDirectory directory;
  directory.layout = make_server_layout(scenario);
  const ServerLayout& layout = directory.layout;
  RunRecorder recorder(scenario, layout, site.links, files ? &files->events_csv() : nullptr);
  if (files && options.openmetrics_start_epoch_s) recorder.enable_openmetrics(options.openmetrics_interval_s);

  const auto pods = build_servers(scenario, directory, recorder);

  // Jobs are state machines in SimGrid's kernel (job_client.hpp), not actors.
  KernelFlows flows(FlowSettings{scenario.platform.network.tcp_window_bytes,
                                 scenario.platform.network.fast_path,
                                 scenario.platform.network.flow_classes,
                                 site.single_flow_nic_bounds,
                                 {site.background_source, site.on_off_source},
                                 pod_gateways(site),
                                 own_loop,
                                 scenario.platform.network.one_full_link});
  if (own_loop) calendar.set_before_solve([&flows]() { flows.check_left_out_links(); });
  add_background_peaks(flows, site, background);
  JobContext context(scenario, site, directory, recorder, flows); // the rest as a run starts
  context.node_loads.resize(site.worker_hosts.size());
  join_node_loads(scenario, layout, pods, context);
  const auto pools = build_pools(scenario, directory, pods, recorder, context);
  RunLength run_length(scenario, recorder);
  if (!scenario.workload.campaign) context.run_length = &run_length;
  int jobs_running = 0; // outlives the run: the jobs' last callbacks count down on it
  // SimGrid ends a run when only daemon actors are left, and the background sources are daemons: with them,
  // this actor keeps the run alive until the last job has finished or the campaign has closed.
  sg4::ActorPtr keeper;
  if (simgrid_actors)
    keeper = sg4::Actor::create("jobs", site.background_source, []() { sg4::this_actor::suspend(); });
  std::optional<CampaignScheduler> scheduler; // outlives the run: its cycles are calendar events
  if (scenario.workload.campaign) {
    scheduler.emplace(context);
    scheduler->start([keeper]() {
      if (keeper && keeper->is_suspended()) keeper->resume();
    });
  } else {
    jobs_running = scenario.workload.jobs;
    start_fixed_jobs(context, directory.layout, jobs_running, keeper);
  }
  start_background_sources(scenario, site, recorder);

  if (options.on_progress) calendar.set_on_event(progress_reporter(scenario, recorder, options.on_progress));
  calendar.run();

  RunResult result;
  recorder.finish_operations(context.stopped_at_s.value_or(calendar::now_s()));
  // A campaign ends with its window; what the stopped jobs' timers did after it is not part of the run.
  result.summary = recorder.summarize(context.stopped_at_s.value_or(calendar::now_s()));
  result.summary.stopped_at_window_end = context.stopped && !scenario.workload.campaign;
  if (result.summary.campaign) analysis::fit_campaign_traffic(*result.summary.campaign);
  report_precision(result.summary, run_length, scenario.workload.preemption.has_value());
  result.summary.engine = engine_counts(flows.counts(), calendar.counts(), site);
  if (options.direct_baseline) compare_with_direct(result.summary, *options.direct_baseline);
  if (files) files->finish(scenario_as_written, result.summary, recorder, options.openmetrics_start_epoch_s);
  result.wall_clock_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return result;
}

} // namespace sonicsim
