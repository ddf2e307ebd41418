// Bad input: one clear message naming file, line, column and key, exit code 2, and no output that looks
// complete.
#include "simulate.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;
using sonicsim::testing::config_path;
using sonicsim::testing::run_sonicsim;

namespace {

fs::path scratch_dir() {
  const fs::path dir = fs::temp_directory_path() / "sonicsim_bad_input";
  fs::create_directories(dir);
  return dir;
}

// The default large-batch scenario with one line replaced, written to a scratch file.
fs::path scenario_with(const std::string& name, const std::string& from, const std::string& to) {
  std::ifstream in(config_path("protodune_2020_large_batch.yaml"));
  std::stringstream text;
  text << in.rdbuf();
  std::string yaml = text.str();
  const auto at = yaml.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "fixture text not found: " << from);
  yaml.replace(at, from.size(), to);
  const fs::path path = scratch_dir() / name;
  std::ofstream(path) << yaml;
  return path;
}

// Runs `sonicsim run` on the file and checks the exit code, the message and that no output was produced.
void expect_rejected(const fs::path& file, const std::string& location, const std::string& key,
                     const std::string& hint) {
  const fs::path out = scratch_dir() / (file.stem().string() + "_out");
  fs::remove_all(out);
  const auto result = run_sonicsim("run " + file.string() + " --out " + out.string());
  CAPTURE(result.output);
  CHECK(result.exit_code == 2);
  CHECK(result.output.find(file.filename().string() + ":" + location) != std::string::npos);
  CHECK(result.output.find("key '" + key + "'") != std::string::npos);
  CHECK(result.output.find(hint) != std::string::npos);
  CHECK_FALSE(fs::exists(out / "summary.json"));
}

} // namespace

TEST_CASE("missing scenario file") {
  const auto result = run_sonicsim("run /nonexistent/scenario.yaml");
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("/nonexistent/scenario.yaml") != std::string::npos);
}

TEST_CASE("malformed YAML names the line") {
  const fs::path path = scratch_dir() / "malformed.yaml";
  std::ofstream(path) << "name: x\nplatform: [\n";
  const auto result = run_sonicsim("run " + path.string());
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("malformed.yaml:3:1: malformed YAML") != std::string::npos);
}

TEST_CASE("unknown key suggests the nearest") {
  // Line 48 of the large-batch config is `  jobs: 100`.
  expect_rejected(scenario_with("unknown_key.yaml", "  jobs: 100", "  job: 100"), "48:3", "workload.job",
                  "did you mean 'jobs'?");
}

TEST_CASE("a duration without its unit") {
  expect_rejected(scenario_with("no_unit.yaml", "rtt: \"12ms\"", "rtt: \"12\""), "19:14", "platform.wan.rtt",
                  "expected a duration with a unit");
}

TEST_CASE("a wrong unit") {
  expect_rejected(scenario_with("wrong_unit.yaml", "rtt: \"12ms\"", "rtt: \"12Gbps\""), "19:14",
                  "platform.wan.rtt", "duration");
}

TEST_CASE("negative and zero bandwidth") {
  expect_rejected(scenario_with("negative_bw.yaml", "bandwidth: \"100Gbps\"", "bandwidth: \"-100Gbps\""),
                  "18:28", "platform.site_switch.bandwidth", "expected a bandwidth of at least 1 kbps");
  expect_rejected(scenario_with("zero_bw.yaml", "bandwidth: \"100Gbps\"", "bandwidth: \"0Gbps\""), "18:28",
                  "platform.site_switch.bandwidth", "expected a bandwidth of at least 1 kbps");
}

TEST_CASE("zero jobs") {
  expect_rejected(scenario_with("zero_jobs.yaml", "  jobs: 100", "  jobs: 0"), "48:9", "workload.jobs",
                  "expected an integer in 1..1000000");
}

TEST_CASE("a preferred batch size above max_batch_size") {
  expect_rejected(
      scenario_with(
          "preferred.yaml", "instance_group: [{count: 1, kind: GPU}]",
          "instance_group: [{count: 1, kind: GPU}]\n      dynamic_batching: {preferred_batch_size: [20000]}"),
      "44:49", "models.emtrkmichelid.triton.dynamic_batching.preferred_batch_size[0]",
      "no larger than triton.max_batch_size (16384)");
}

TEST_CASE("a throughput curve with no points") {
  expect_rejected(
      scenario_with("no_points.yaml",
                    "points: [[1, 270], [16, 3857], [64, 11468], [128, 17090], [235, 22000], [512, 27025], "
                    "[1024, 29925],\n                 [1693, 31250], [16384, 31250]]",
                    "points: []"),
      "38:17", "models.emtrkmichelid.throughput.T4.points", "expected a non-empty list");
}

TEST_CASE("a bad --set override and an unwritable output directory") {
  auto result = run_sonicsim("run --set workload.jobz=3");
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("--set workload.jobz=3") != std::string::npos);
  CHECK(result.output.find("did you mean 'jobs'?") != std::string::npos);
  result = run_sonicsim("run --out /proc/sonicsim_cannot_write_here");
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("/proc/sonicsim_cannot_write_here") != std::string::npos);
}

TEST_CASE("a mistyped option is named as such, and a missing input as missing, by every command taking one") {
  // CLI11 checked a positional's file before it reported the arguments it did not expect: the value of a
  // mistyped option (`--yml FILE`) took the positional's place and was reported missing, the option not
  // named.
  const std::string values = config_path("protodune_2020_large_batch.yaml");
  const struct {
    std::string command, mistyped, missing, expected;
  } commands[] = {
      {"import supersonic", "--yml x.yaml " + values, "import supersonic nowhere.yaml",
       "nowhere.yaml: no such file; expected a SuperSONIC Helm values.yaml"},
      {"import triton-config", "--modle x " + values, "import triton-config nowhere.pbtxt",
       "nowhere.pbtxt: no such file; expected a Triton config.pbtxt"},
      {"import model-analyzer", "--conifg x " + values, "import model-analyzer nowhere.csv",
       "nowhere.csv: no such file; expected Model Analyzer's metrics-model-inference.csv"},
      {"import perf-analyzer", "--yml x.yaml " + values, "import perf-analyzer nowhere_dir",
       "nowhere_dir: no such file or directory; expected perf_analyzer CSV files"},
      {"report", "--ouput x " + scratch_dir().string(), "report nowhere_dir",
       "nowhere_dir: no such directory; expected a result directory"},
  };
  for (const auto& c : commands) {
    CAPTURE(c.command);
    auto result = run_sonicsim(c.command + " " + c.mistyped);
    CAPTURE(result.output);
    CHECK(result.exit_code == 2);
    CHECK(result.output.find("not expected") != std::string::npos);
    CHECK(result.output.find(c.mistyped.substr(0, c.mistyped.find(' '))) != std::string::npos);
    result = run_sonicsim(c.missing);
    CHECK(result.exit_code == 2);
    CHECK(result.output.find(c.expected) != std::string::npos);
  }
}
