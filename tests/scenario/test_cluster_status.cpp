// `sonicsim status DIR` reads a submission through the back-end's Cluster::status, not DIR/slurm/ itself: a
// directory as a Slurm submission leaves it (batch files, results by fingerprint, the job record), built here
// by hand with no job ids, so that no batch system is asked and the answer is known.
#include "simulate.hpp"

#include "sim/execution/cluster.hpp"

#include <doctest/doctest.h>

#include <fstream>

namespace fs = std::filesystem;
using namespace sonicsim;
using sonicsim::testing::run_sonicsim;

namespace {

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// Three simulations submitted in two batches, two with their result; `record`: the job record's text.
fs::path submission(const std::string& name, const std::string& record) {
  const fs::path dir = fs::temp_directory_path() / ("sonicsim_cluster_status_" + name);
  fs::remove_all(dir);
  write(dir / "slurm" / "batch_0001" / "tasks.json",
        R"({"results": "x", "tasks": [{"fingerprint": "aa"}, {"fingerprint": "bb"}]})");
  write(dir / "slurm" / "batch_0002" / "tasks.json", R"({"results": "x", "tasks": [{"fingerprint": "cc"}]})");
  write(dir / "slurm" / "results" / "aa.json", "{}");
  write(dir / "slurm" / "results" / "cc.json", "{}");
  if (!record.empty()) write(dir / "slurm" / "jobs.json", record);
  return dir;
}

} // namespace

TEST_CASE("cluster status: the back-end whose folder holds the submission reads it, and only reads") {
  const fs::path empty = fs::temp_directory_path() / "sonicsim_cluster_status_none";
  fs::remove_all(empty);
  fs::create_directories(empty);
  CHECK_FALSE(cluster_in(empty));

  const fs::path dir = submission("read", R"({"shards": 4, "shards_submitted": [2, 3]})");
  const auto cluster = cluster_in(dir);
  REQUIRE(cluster);
  CHECK(cluster->system() == BatchSystem::slurm);
  const SubmissionStatus status = cluster->status();
  CHECK(status.simulations_submitted == 3);
  CHECK(status.simulations_with_result == 2);
  CHECK(status.recorded);
  CHECK(status.shards == 4);
  CHECK(status.shards_submitted == std::vector<int>{2, 3});
  CHECK(status.array.id.empty());
  CHECK(status.array_tasks.empty());
  // Reading made nothing: no logs folder appears (the back-end makes its folders when it writes).
  CHECK_FALSE(fs::exists(dir / "slurm" / "logs"));
  fs::remove_all(dir);
  fs::remove_all(empty);
}

TEST_CASE("cluster status: the flags a merge or driver job appends are the ones the command line takes") {
  CHECK(mode_flag(BatchSystem::slurm, ClusterMode::collect) == "--slurm-collect");
  CHECK(mode_flag(BatchSystem::slurm, ClusterMode::wait) == "--slurm-wait");
  CHECK(mode_flag(BatchSystem::slurm, ClusterMode::dry_run) == "--slurm-dry-run");
  CHECK(mode_flag(BatchSystem::slurm, ClusterMode::submit) == "--slurm");
  // The command line registers its flags by these names (sim/app/common/execution_flags.cpp), so the shown
  // ones are in the help; --slurm-collect is hidden (what a merge job runs), and the Slurm chain runs it for
  // real.
  const auto help = run_sonicsim("validate --help");
  CHECK(help.output.find("--slurm-wait") != std::string::npos);
  CHECK(help.output.find("--slurm-dry-run") != std::string::npos);
}

TEST_CASE("sonicsim status: a submission's simulations without a result, with no task left, fail (exit 1)") {
  const fs::path dir = submission("command", "");
  const auto result = run_sonicsim("status " + dir.string());
  INFO(result.output);
  CHECK(result.exit_code == 1);
  CHECK(result.output.find("2 of 3 simulations submitted to Slurm have their result") != std::string::npos);
  CHECK(result.output.find("1 simulation(s) ended without a result: run the same command with --slurm "
                           "again") != std::string::npos);
  fs::remove_all(dir);
}
