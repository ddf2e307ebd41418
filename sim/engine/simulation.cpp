#include "sim/engine/simulation.hpp"

#include "sim/actors/background_traffic.hpp"
#include "sim/actors/inference_server.hpp"
#include "sim/actors/job_client.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/platform/assignment.hpp"
#include "sim/platform/site_platform.hpp"

#include <simgrid/s4u.hpp>

#include <chrono>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace sonicsim {
namespace {

std::vector<JobPlacement> place_jobs(const Scenario& scenario) {
  const auto& workload = scenario.workload;
  const auto& platform = scenario.platform;
  std::vector<double> cpu_fractions;
  for (const auto& cpu : platform.cpu_mix) cpu_fractions.push_back(cpu.fraction);
  const auto cpu_class = stratified_assignment(cpu_fractions, workload.jobs, scenario.seed, stream_cpu_mix);
  auto balancer_rng = make_stream(scenario.seed, stream_load_balancer);
  auto start_rng = make_stream(scenario.seed, stream_job_start);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<JobPlacement> placements;
  for (int job = 0; job < workload.jobs; ++job) {
    JobPlacement placement;
    placement.job = job;
    placement.worker = job / platform.jobs_per_node;
    // Kubernetes assigns a backend per connection; a job's gRPC channel lives as long as the job.
    placement.pod = platform.pods.load_balancer == "round_robin"
                        ? job % platform.pods.count
                        : static_cast<int>(balancer_rng() % static_cast<std::uint64_t>(platform.pods.count));
    placement.cpu_speed = platform.cpu_mix[static_cast<std::size_t>(cpu_class[static_cast<std::size_t>(job)])].speed;
    placement.start_s = workload.start_spread_s * unit(start_rng);
    placements.push_back(placement);
  }
  return placements;
}

std::vector<std::string> engine_arguments(const Scenario& scenario) {
  return {
      "sonicsim",
      // CM02: max-min sharing of every link by the flows crossing it, each flow also bounded by its TCP window
      // (rate <= window / RTT). No empirical correction factors, so rates are those of the scenario.
      "--cfg=network/model:CM02",
      "--cfg=network/TCP-gamma:" + std::to_string(scenario.platform.network.tcp_window_bytes),
      "--cfg=network/crosstraffic:0",
      "--cfg=network/optim:Full",
      "--log=root.thresh:warning",
      "--log=xbt_cfg.thresh:critical",
  };
}

} // namespace

RunResult run_simulation(const Scenario& scenario, const RunOptions& options) {
  const auto wall_start = std::chrono::steady_clock::now();
  std::vector<std::string> arguments = engine_arguments(scenario);
  std::vector<char*> argv;
  for (auto& argument : arguments) argv.push_back(argument.data());
  int argc = static_cast<int>(argv.size());
  sg4::Engine engine(&argc, argv.data());

  std::unique_ptr<OutputFiles> files;
  if (options.output_dir) files = std::make_unique<OutputFiles>(*options.output_dir);
  const int gpu_count = scenario.platform.pods.count * scenario.platform.pods.gpus_per_pod;
  RunRecorder recorder(scenario, gpu_count, files ? &files->events_csv() : nullptr);
  const SitePlatform site = build_site_platform(scenario, recorder);

  // One Triton front end per (model used by the pipeline, pod).
  std::vector<std::unique_ptr<InferenceServer>> servers;
  ServerDirectory directory;
  for (const auto& module : scenario.workload.pipeline) {
    if (module.type != Module::Type::remote_inference || directory.count(module.model)) continue;
    const Model& model = scenario.models.at(module.model);
    const ThroughputCurve& curve = model.throughput_by_gpu.at(scenario.platform.pods.gpu_type);
    auto& per_pod = directory[module.model];
    for (int pod = 0; pod < scenario.platform.pods.count; ++pod) {
      servers.push_back(std::make_unique<InferenceServer>(model, curve, site.gpu_hosts[static_cast<std::size_t>(pod)],
                                                          recorder));
      servers.back()->start();
      per_pod.push_back(servers.back().get());
    }
  }

  for (const auto& placement : place_jobs(scenario)) {
    sg4::Actor::create("job" + std::to_string(placement.job),
                       site.worker_hosts[static_cast<std::size_t>(placement.worker)],
                       JobClient(scenario, site, directory, recorder, placement));
  }
  const double background_bps = scenario.platform.site_switch.background.rate_bps;
  if (background_bps > 0) {
    sg4::Actor::create("background_traffic", site.background_source, BackgroundTrafficSource(site, recorder, background_bps))
        ->daemonize();
  }

  engine.run();

  RunResult result;
  result.summary = recorder.summarize(sg4::Engine::get_clock());
  if (files) files->finish(scenario, result.summary, recorder);
  result.wall_clock_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return result;
}

} // namespace sonicsim
