#include "sim/execution/cluster.hpp"

#include "sim/execution/slurm_backend.hpp"

#include <stdexcept>

namespace sonicsim {

std::unique_ptr<Cluster> make_cluster(const ExecutionOptions& options, const std::filesystem::path& work_dir,
                                      const std::string& label) {
  switch (options.system) {
  case BatchSystem::slurm:
    return std::make_unique<SlurmBackend>(options, work_dir, label);
  case BatchSystem::none:
    break;
  }
  throw std::logic_error("make_cluster: simulations run here (BatchSystem::none) have no cluster");
}

std::unique_ptr<Cluster> cluster_in(const std::filesystem::path& work_dir) {
  for (const BatchSystem system : cluster_systems)
    if (std::filesystem::is_directory(work_dir / batch_system_name(system))) {
      ExecutionOptions options;
      options.system = system;
      return make_cluster(options, work_dir, "status");
    }
  return nullptr;
}

} // namespace sonicsim
