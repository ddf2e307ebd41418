#include "sim/components/job_placer.hpp"

#include "sim/random/random_streams.hpp"

#include <algorithm>

namespace sonicsim {
namespace {

// The CPU speed of each job slot: the CPU mix assigned by stratified sampling (seeded).
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

} // namespace

JobPlacer::JobPlacer(const Scenario& scenario, const ServerLayout& layout)
    : scenario_(scenario), layout_(layout), slot_cpu_speed_(slot_cpu_speeds(scenario)),
      slot_local_gpu_(slot_local_gpus(scenario)) {
  for (std::size_t m = 0; m < layout.served_models.size(); ++m)
    balancers_.emplace_back(scenario.models.at(layout.served_models[m]).deploy.load_balancer,
                            static_cast<int>(layout.model_pods[m].size()));
}

JobPlacement JobPlacer::place(int job, int slot, RandomEngine& rng) {
  JobPlacement placement;
  placement.job = job;
  placement.worker = slot / scenario_.platform.jobs_per_node;
  for (std::size_t m = 0; m < balancers_.size(); ++m)
    placement.pods.push_back(
        layout_.model_pods[m][static_cast<std::size_t>(balancers_[m].connect(job, placement.worker, rng))]);
  placement.cpu_speed = slot_cpu_speed_[static_cast<std::size_t>(slot)];
  placement.local_gpu = slot_local_gpu_[static_cast<std::size_t>(slot)];
  return placement;
}

void JobPlacer::release(const std::vector<int>& pods) {
  for (std::size_t m = 0; m < balancers_.size(); ++m) {
    const auto& model_pods = layout_.model_pods[m];
    balancers_[m].disconnect(
        static_cast<int>(std::find(model_pods.begin(), model_pods.end(), pods[m]) - model_pods.begin()));
  }
}

} // namespace sonicsim
