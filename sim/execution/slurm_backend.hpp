// The Slurm back-end: simulations as job arrays (DIR/slurm/batch_NNNN/array.sh, one task per simulation
// running `sonicsim array-task`), a sharded command as one array (DIR/slurm/array.sh) and a merge job, and a
// deciding command as a driver job (DIR/slurm/driver.sh). Results in DIR/slurm/results/<fingerprint>.json;
// a result already there is reused, so a command run again after an interruption submits only what is
// missing. Job ids in DIR/slurm/jobs.json, for `sonicsim status DIR`.
#pragma once

#include "sim/execution/cluster.hpp"

#include <optional>

namespace sonicsim {

class SlurmBackend final : public Cluster {
public:
  SlurmBackend(const ExecutionOptions& options, const std::filesystem::path& work_dir, std::string label);

  BatchSystem system() const override { return BatchSystem::slurm; }
  SubmissionStatus status() const override;
  std::vector<SimulationOutcome> run(const std::vector<SimulationRequest>& requests) override;
  Submission submit(const std::vector<SimulationRequest>& requests,
                    const std::vector<std::string>& merge_command) override;
  std::vector<SimulationOutcome> collect(const std::vector<SimulationRequest>& requests) const override;
  Submission submit_shards(const ShardWork& work) override;
  std::string submit_driver(const std::vector<std::string>& command) override;
  void print_dry_run(const Submission& submission) const override;

private:
  void make_directories() const;
  // Writes DIR/slurm/batch_NNNN/tasks.json and array.sh for what has no result; none when all have one.
  std::optional<std::filesystem::path> prepare_array(const std::vector<SimulationRequest>& requests);
  std::filesystem::path write_merge_script(const std::string& name, const std::vector<std::string>& command,
                                           const std::string& comment);
  void write_record(const nlohmann::ordered_json& record);
  // Submits the array (when there is one) and the merge after it (afterany), and records their ids with
  // `record`'s fields in jobs.json. A refused merge is told with the array job that was already submitted.
  void submit_array_and_merge(Submission& submission, nlohmann::ordered_json record);

  std::filesystem::path dir_; // WORK/slurm
  ExecutionOptions options_;
  std::string label_;
};

} // namespace sonicsim
