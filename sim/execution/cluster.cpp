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

} // namespace sonicsim
