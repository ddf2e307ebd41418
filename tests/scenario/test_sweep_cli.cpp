// The sweep command's contract: output independent of -j, --resume finishes an interrupted sweep with the
// same result, shards merge, a grid of two --vary, and bad input rejected with exit code 2 before any point
// runs.
#include "simulate.hpp"

#include "sim/sweep/sweep_csv.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using sonicsim::testing::run_sonicsim;

namespace {

// Three cheap points (5, 25, 45 jobs, 2 events each): enough for a knee fit.
const std::string small_sweep =
    "sweep --vary workload.jobs=5:45:20 --set workload.events_per_job=2 --set output.precision=off ";

} // namespace

TEST_CASE("sweep output is byte-identical whatever -j; --resume and shards give the same sweep.csv") {
  const fs::path base = fs::temp_directory_path() / "sonicsim_sweep_cli";
  fs::remove_all(base);
  const auto serial = run_sonicsim(small_sweep + "-j 1 --out " + (base / "serial").string());
  REQUIRE(serial.exit_code == 0);
  REQUIRE(run_sonicsim(small_sweep + "-j 3 --out " + (base / "parallel").string()).exit_code == 0);
  const std::string csv = sonicsim::testing::read_text(base / "serial" / "sweep.csv");
  CHECK(sonicsim::read_csv_file((base / "serial" / "sweep.csv").string()).rows.size() == 3);
  CHECK(csv == sonicsim::testing::read_text(base / "parallel" / "sweep.csv"));
  CHECK(sonicsim::testing::read_text(base / "serial" / "fits.csv") ==
        sonicsim::testing::read_text(base / "parallel" / "fits.csv"));
  CHECK(serial.output.find("simulations done") != std::string::npos); // the progress line

  SUBCASE("an interrupted sweep keeps its finished points and --resume runs only the rest") {
    // An interruption leaves finished points and at most a .partial file for a running one, and no sweep.csv.
    fs::remove(base / "parallel" / "points" / "point_000001.json");
    fs::remove(base / "parallel" / "sweep.csv");
    std::ofstream(base / "parallel" / "points" / "point_000001.json.partial") << "{\"index\": 1, \"trunc";
    const auto resumed = run_sonicsim(small_sweep + "-j 2 --resume --out " + (base / "parallel").string());
    INFO(resumed.output);
    REQUIRE(resumed.exit_code == 0);
    CHECK(resumed.output.find("1 to run") != std::string::npos);
    CHECK(sonicsim::testing::read_text(base / "parallel" / "sweep.csv") == csv);
    // Without --resume every point runs again.
    const auto again = run_sonicsim(small_sweep + "-j 2 --out " + (base / "parallel").string());
    CHECK(again.output.find("3 to run") != std::string::npos);
  }
  SUBCASE("shards run every n-th point and merge in one directory") {
    const fs::path merged = base / "sharded";
    const auto first = run_sonicsim(small_sweep + "--shard 1/2 --out " + merged.string());
    INFO(first.output);
    REQUIRE(first.exit_code == 0);
    CHECK(first.output.find("2 to run") != std::string::npos); // points 0 and 2
    // A shard writes its points, never a sweep.csv that would look like the whole sweep.
    CHECK_FALSE(fs::exists(merged / "sweep.csv"));
    // Merging before every shard is done names what is missing (point 1) and writes nothing.
    const auto early = run_sonicsim(small_sweep + "--merge --out " + merged.string());
    CHECK(early.exit_code == 1);
    CHECK(early.output.find("1 simulation(s) missing (point[/replication] 1)") != std::string::npos);
    CHECK_FALSE(fs::exists(merged / "sweep.csv"));
    const auto second = run_sonicsim(small_sweep + "--shard 2/2 --out " + merged.string());
    CHECK(second.output.find("1 to run") != std::string::npos);
    const auto merge = run_sonicsim(small_sweep + "--merge --out " + merged.string());
    INFO(merge.output);
    CHECK(merge.exit_code == 0);
    CHECK(merge.output.find("0 to run") != std::string::npos);
    CHECK(sonicsim::testing::read_text(merged / "sweep.csv") == csv);
  }
  SUBCASE("a stale point of another scenario is not taken for this one") {
    const auto other =
        run_sonicsim(small_sweep + "--seed 5 -j 2 --resume --out " + (base / "serial").string());
    CHECK(other.output.find("3 to run") != std::string::npos);
    CHECK(sonicsim::testing::read_text(base / "serial" / "sweep.csv") != csv);
  }
}

TEST_CASE("two --vary make a grid; fits per value of the second key") {
  const fs::path dir = fs::temp_directory_path() / "sonicsim_sweep_grid";
  fs::remove_all(dir);
  const auto result = run_sonicsim(
      small_sweep + "--vary 'workload.pipeline[1].max_batch=256,16384' -j 2 --out " + dir.string());
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  const auto table = sonicsim::read_csv_file((dir / "sweep.csv").string());
  REQUIRE(table.rows.size() == 6);
  CHECK(table.rows[1][table.column("workload.pipeline[1].max_batch")] == "16384");
  CHECK(table.rows[1][table.column("workload.jobs")] == "5");
  const auto fits = sonicsim::read_csv_file((dir / "fits.csv").string());
  CHECK(fits.rows.size() == 6); // 2 groups x (simulated, analytic, mva)
  CHECK(fits.rows[0][0] == "workload.pipeline[1].max_batch=256");
}

TEST_CASE("bad sweep input: a clear message and exit code 2 before any point runs") {
  const fs::path base = fs::temp_directory_path() / "sonicsim_sweep_bad";
  fs::remove_all(base);
  fs::create_directories(base);
  std::ofstream(base / "a_file") << "not a directory";
  const std::string out = " --out " + (base / "out").string();
  struct Case {
    std::string arguments;
    std::string message;
  };
  const Case cases[] = {
      {"sweep --vary workload.jobs=1:500:0" + out, "step must be positive"},
      {"sweep --vary workload.jobs=500:1:20" + out, "start is larger than stop"},
      {"sweep --vary workload.jobs=1:500" + out, "expected start:stop:step"},
      {"sweep --vary workload.jbos=1:500:20" + out, "workload.jbos"},
      {"sweep --vary workload.jobs" + out, "KEY="},
      {"sweep --vary workload.jobs=1,0" + out,
       "workload.jobs"}, // 0 jobs: caught when the point's scenario loads
      {"sweep --shard 3/2" + out, "shard out of range"},
      {"sweep --shard 0/2" + out, "shard out of range"},
      {"sweep --shard x" + out, "expected i/n"},
      {"sweep -j 0" + out, "--parallel"},
      {"sweep --vary workload.jobs=1,2 --out " + (base / "a_file" / "sub").string(),
       "cannot create output directory"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.arguments);
    const auto result = run_sonicsim(c.arguments);
    INFO(result.output);
    CHECK(result.exit_code == 2);
    CHECK(result.output.find(c.message) != std::string::npos);
    CHECK(result.output.find("simulations done") == std::string::npos);
  }
  CHECK_FALSE(fs::exists(base / "out" / "points"));
}

TEST_CASE("analytic: readable table, JSON, and exit code 2 on bad input") {
  const auto table = run_sonicsim("analytic --jobs 1,270,400");
  INFO(table.output);
  REQUIRE(table.exit_code == 0);
  CHECK(table.output.find("knee") != std::string::npos);
  CHECK(table.output.find("network limit") != std::string::npos);
  const auto json = run_sonicsim("analytic --json");
  REQUIRE(json.exit_code == 0);
  CHECK(json.output.find("\"knee_jobs\"") != std::string::npos);
  CHECK(json.output.find("\"curve\"") != std::string::npos);
  CHECK(run_sonicsim("analytic --jobs 0:10:1").exit_code == 2);
  CHECK(
      run_sonicsim("analytic " + sonicsim::testing::config_path("protodune_2020_cpu_only.yaml")).exit_code ==
      2);
}

TEST_CASE(
    "sweep --slurm-dry-run writes the job-array and merge scripts with the site's options, submits nothing") {
  const fs::path dir = fs::temp_directory_path() / "sonicsim_sweep_slurm_dry_run";
  fs::remove_all(dir);
  const auto result = run_sonicsim(small_sweep +
                                   "--slurm-dry-run --partition gpu-short --time 0:30:00 "
                                   "--account sonic --throttle 2 --out " +
                                   dir.string());
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  CHECK(result.output.find("dry run: nothing submitted") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "slurm" / "jobs.json")); // nothing was submitted
  const std::string array = sonicsim::testing::read_text(dir / "slurm" / "array.sh");
  // The small sweep has 3 points: 3 shards, array indices = shard indices, at most 2 at once.
  for (const std::string line :
       {"#SBATCH --array=1-3%2", "#SBATCH --partition=gpu-short", "#SBATCH --time=0:30:00",
        "#SBATCH --account=sonic", "#SBATCH --cpus-per-task=1"})
    CHECK(array.find(line + "\n") != std::string::npos);
  CHECK(array.find("--shard \"${SLURM_ARRAY_TASK_ID}/3\" --resume -j 1") != std::string::npos);
  const std::string merge = sonicsim::testing::read_text(dir / "slurm" / "merge.sh");
  CHECK(merge.find(" --merge\n") != std::string::npos);
  // --shard and --slurm together, or --slurm-wait on a sweep, are bad input.
  CHECK(run_sonicsim(small_sweep + "--slurm-dry-run --shard 1/2 --out " + dir.string()).exit_code == 2);
  CHECK(run_sonicsim(small_sweep + "--slurm --slurm-wait --out " + dir.string()).exit_code == 2);
}
