#include "sim/engine/simulation.hpp"

#include "sim/actors/background_traffic.hpp"
#include "sim/actors/campaign_scheduler.hpp"
#include "sim/actors/inference_server.hpp"
#include "sim/actors/job_client.hpp"
#include "sim/actors/kernel_flows.hpp"
#include "sim/analysis/campaign_traffic_fit.hpp"
#include "sim/engine/engine_arguments.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/platform/site_platform.hpp"
#include "sim/policy/load_balancer.hpp"
#include "sim/random/random_streams.hpp"
#include "sim/scenario/campaign_scale.hpp"
#include "sim/scenario/input_error.hpp"

#include <simgrid/s4u.hpp>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace sonicsim {
namespace {

// CPU speed of each job slot, from the CPU mix.
std::vector<double> slot_cpu_speeds(const Scenario& scenario) {
  std::vector<double> cpu_fractions;
  for (const auto& cpu : scenario.platform.cpu_mix)
    cpu_fractions.push_back(cpu.fraction);
  std::vector<double> speeds;
  for (const int cpu :
       stratified_assignment(cpu_fractions, scenario.workload.jobs, scenario.seed, stream_cpu_mix))
    speeds.push_back(scenario.platform.cpu_mix[static_cast<std::size_t>(cpu)].speed);
  return speeds;
}

// Whether each job slot's node has a local GPU.
std::vector<bool> slot_local_gpus(const Scenario& scenario) {
  const double fraction = scenario.platform.local_gpu_fraction;
  std::vector<bool> local(static_cast<std::size_t>(scenario.workload.jobs), false);
  if (fraction <= 0) return local;
  const auto classes = stratified_assignment({1.0 - fraction, fraction}, scenario.workload.jobs,
                                             scenario.seed, stream_local_gpu);
  for (std::size_t i = 0; i < local.size(); ++i)
    local[i] = classes[i] == 1;
  return local;
}

std::vector<JobPlacement> place_jobs(const Scenario& scenario) {
  const auto& workload = scenario.workload;
  const auto& platform = scenario.platform;
  const std::vector<double> cpu_speed = slot_cpu_speeds(scenario);
  const std::vector<bool> local_gpu = slot_local_gpus(scenario);
  auto balancer_rng = make_stream(scenario.seed, stream_load_balancer);
  const ServerLayout layout = make_server_layout(scenario);
  std::vector<ConnectionBalancer> balancers;
  for (std::size_t m = 0; m < layout.served_models.size(); ++m)
    balancers.emplace_back(scenario.models.at(layout.served_models[m]).deploy.load_balancer,
                           static_cast<int>(layout.model_pods[m].size()));
  auto start_rng = make_stream(scenario.seed, stream_job_start);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<JobPlacement> placements;
  for (int job = 0; job < workload.jobs; ++job) {
    JobPlacement placement;
    placement.job = job;
    placement.worker = job / platform.jobs_per_node;
    // Kubernetes assigns a backend per connection; a job's gRPC channel to each model lives as long as the
    // job.
    for (std::size_t m = 0; m < balancers.size(); ++m)
      placement.pods.push_back(layout.model_pods[m][static_cast<std::size_t>(
          balancers[m].connect(job, placement.worker, balancer_rng))]);
    placement.cpu_speed = cpu_speed[static_cast<std::size_t>(job)];
    placement.local_gpu = local_gpu[static_cast<std::size_t>(job)];
    placement.start_s = workload.start_spread_s * unit(start_rng);
    placements.push_back(placement);
  }
  return placements;
}

} // namespace

RunResult run_simulation(const Scenario& scenario_as_written, const RunOptions& options) {
  const auto wall_start = std::chrono::steady_clock::now();
  // A campaign may run on a fraction of the site (campaign_scale.hpp); outputs show the scenario as written.
  const Scenario scenario = scaled_for_simulation(scenario_as_written);
  EngineCommandLine command_line(scenario);
  const auto engine = command_line.start_engine();

  std::unique_ptr<OutputFiles> files;
  if (options.output_dir) files = std::make_unique<OutputFiles>(*options.output_dir);
  const SitePlatform site = build_site_platform(scenario);
  ServerDirectory directory;
  directory.layout = make_server_layout(scenario);
  const ServerLayout& layout = directory.layout;
  RunRecorder recorder(scenario, layout, site.links, files ? &files->events_csv() : nullptr);
  if (files && options.openmetrics_start_epoch_s) recorder.enable_openmetrics();

  // Each pod's devices and host cores, shared by the models it serves; one Triton front end per (model
  // served, pod of its groups).
  std::vector<std::unique_ptr<PodResources>> pods;
  int devices = 0;
  for (int pod = 0; pod < layout.pods(); ++pod) {
    const int g = layout.pod_group[static_cast<std::size_t>(pod)];
    const ServerGroup& group = scenario.platform.server_groups[static_cast<std::size_t>(g)];
    pods.push_back(std::make_unique<PodResources>(g, devices, group.devices_per_pod, group.host_cores));
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

  // Jobs are state machines in SimGrid's kernel (job_client.hpp), not actors.
  const BackgroundTraffic& other_users = scenario.platform.site_switch.background;
  KernelFlows flows(FlowSettings{scenario.platform.network.tcp_window_bytes,
                                 scenario.platform.network.fast_path,
                                 scenario.platform.network.flow_classes,
                                 site.single_flow_nic_bounds,
                                 {site.background_source, site.on_off_source}});
  // The background sources are SimGrid actors; their flows are counted at their peak on the fast path.
  if (other_users.rate_bps > 0 || other_users.schedule)
    flows.add_other_traffic(site.background_source, site.background_sink,
                            site.background_limiter->get_bandwidth());
  if (other_users.on_off)
    flows.add_other_traffic(site.on_off_source, site.background_sink, site.on_off_limiter->get_bandwidth());
  JobContext context{scenario, site, directory, recorder, flows, {}, false, std::nullopt, 0};
  int jobs_running = 0; // outlives the run: the jobs' last callbacks count down on it
  if (scenario.workload.campaign) {
    sg4::Actor::create("campaign_scheduler", site.background_source,
                       CampaignScheduler(context, slot_cpu_speeds(scenario), slot_local_gpus(scenario)));
  } else {
    // SimGrid ends a run when only daemon actors are left, and the background sources are daemons: this
    // actor keeps the run alive until the last job has finished.
    jobs_running = scenario.workload.jobs;
    const sg4::ActorPtr keeper =
        sg4::Actor::create("jobs", site.background_source, []() { sg4::this_actor::suspend(); });
    for (const auto& placement : place_jobs(scenario)) {
      context.jobs.push_back(std::make_unique<JobClient>(context, placement, [&jobs_running, keeper]() {
        if (--jobs_running == 0 && keeper->is_suspended()) keeper->resume();
      }));
      context.jobs.back()->start();
    }
  }
  const BackgroundTraffic& background = scenario.platform.site_switch.background;
  if (background.rate_bps > 0 || background.schedule) {
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

  engine->run();

  RunResult result;
  // A campaign ends with its window; what the stopped jobs' timers did after it is not part of the run.
  result.summary = recorder.summarize(context.stopped_at_s.value_or(sg4::Engine::get_clock()));
  if (result.summary.campaign) analysis::fit_campaign_traffic(*result.summary.campaign);
  result.summary.flows_fast = flows.counts().fast;
  result.summary.flows_simgrid = flows.counts().simgrid;
  result.summary.flows_handed = flows.counts().handed;
  result.summary.flow_classes = flows.counts().classes;
  result.summary.flow_class_comms = flows.counts().class_comms;
  result.summary.links_left_out = site.links_left_out;
  if (options.direct_baseline && options.direct_baseline->event.mean_s > 0 &&
      result.summary.event.mean_s > 0) {
    // Little's law per job: its threads are never idle, so each completes one event per mean event time.
    const double threads = scenario.workload.threads;
    DirectInferenceComparison& direct = result.summary.direct_inference.emplace();
    direct.event_mean_s = options.direct_baseline->event.mean_s;
    direct.events_per_s_per_job = threads / direct.event_mean_s;
    direct.service_events_per_s_per_job = threads / result.summary.event.mean_s;
    direct.gain = direct.service_events_per_s_per_job / direct.events_per_s_per_job - 1.0;
  }
  if (files) files->finish(scenario_as_written, result.summary, recorder, options.openmetrics_start_epoch_s);
  result.wall_clock_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return result;
}

} // namespace sonicsim
