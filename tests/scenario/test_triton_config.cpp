// A model's Triton settings read from its config.pbtxt give the same run as the same settings in YAML.
#include "simulate.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The large-batch scenario with its model's triton section replaced by `replacement`.
std::string large_batch_with(const std::string& replacement) {
  std::string yaml = read(sonicsim::testing::config_path("protodune_2020_large_batch.yaml"));
  const std::string from = "    triton:\n";
  const auto start = yaml.find(from);
  const auto end = yaml.find("    deploy:", start);
  REQUIRE(start != std::string::npos);
  REQUIRE(end != std::string::npos);
  return yaml.substr(0, start) + replacement + yaml.substr(end);
}

} // namespace

TEST_CASE("a config.pbtxt with dynamic batching and two GPU instances gives the same run as the YAML") {
  const fs::path dir = fs::temp_directory_path() / "sonicsim_triton_config";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string config =
      std::string(SONICSIM_SOURCE_DIR) + "/tests/data/triton/emtrkmichelid_config.pbtxt";
  // The same settings written in YAML: 16,384 max batch, two instances per GPU, dynamic batching preferring
  // 4,096 with a 100 us delay. The bytes per inference (9,216 in, 16 out) are the config's dims x 4 bytes.
  std::ofstream(dir / "yaml.yaml") << large_batch_with(
      "    triton:\n      max_batch_size: 16384\n      instance_group: [{count: 2, kind: GPU}]\n"
      "      dynamic_batching: {preferred_batch_size: [4096], max_queue_delay: \"100us\"}\n");
  std::ofstream(dir / "pbtxt.yaml") << large_batch_with("    triton_config: \"" + config + "\"\n");
  const std::string settings =
      " --set workload.jobs=300 --set workload.events_per_job=3 --set output.precision=off";
  for (const char* name : {"yaml", "pbtxt"}) {
    const auto result =
        sonicsim::testing::run_sonicsim("run " + (dir / (std::string(name) + ".yaml")).string() + settings +
                                        " --out " + (dir / name).string());
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
  }
  CHECK(read(dir / "yaml" / "events.csv") == read(dir / "pbtxt" / "events.csv"));
  CHECK(read(dir / "yaml" / "timeseries.csv") == read(dir / "pbtxt" / "timeseries.csv"));
  const auto yaml_summary = nlohmann::json::parse(read(dir / "yaml" / "summary.json"));
  const auto pbtxt_summary = nlohmann::json::parse(read(dir / "pbtxt" / "summary.json"));
  CHECK(yaml_summary["results"] == pbtxt_summary["results"]);
  CHECK(yaml_summary["results"]["server"]["mean_executed_batch"].get<double>() >
        1700.0); // requests were merged
  // The echo says where the settings came from and names what was not simulated.
  const auto& model = pbtxt_summary["scenario"]["models"]["emtrkmichelid"];
  CHECK(model["triton_config_file"].get<std::string>().find("emtrkmichelid_config.pbtxt") !=
        std::string::npos);
  const auto notes = model["triton_config_notes"].dump();
  CHECK(notes.find("'version_policy' is not simulated") != std::string::npos);
  CHECK(notes.find("'platform' is set but not simulated") != std::string::npos);
}

TEST_CASE("a config.pbtxt with a syntax error is an error naming the file and line") {
  const fs::path dir = fs::temp_directory_path() / "sonicsim_triton_config_bad";
  fs::create_directories(dir);
  std::ofstream(dir / "config.pbtxt") << "max_batch_size: 8\ninstance_group [ { count: two } ]\n";
  std::ofstream(dir / "s.yaml") << large_batch_with("    triton_config: config.pbtxt\n");
  const auto result = sonicsim::testing::run_sonicsim("run " + (dir / "s.yaml").string());
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("key 'models.emtrkmichelid.triton_config': cannot read the Triton config: ") !=
        std::string::npos);
  CHECK(result.output.find("config.pbtxt:2: column 27:") != std::string::npos);
}
