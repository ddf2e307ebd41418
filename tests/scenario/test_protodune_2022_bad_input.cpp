// Bad campaign input: one clear message naming file, line, column and key, and exit code 2.
#include "simulate.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using sonicsim::testing::config_path;
using sonicsim::testing::run_sonicsim;

namespace {

// The 2022 config with one piece of text replaced, written to a scratch file.
fs::path campaign_with(const std::string& name, const std::string& from, const std::string& to) {
  std::ifstream in(config_path("protodune_2022_campaign.yaml"));
  std::stringstream text;
  text << in.rdbuf();
  std::string yaml = text.str();
  const auto at = yaml.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "fixture text not found: " << from);
  yaml.replace(at, from.size(), to);
  const fs::path dir = fs::temp_directory_path() / "sonicsim_bad_campaign";
  fs::create_directories(dir);
  const fs::path path = dir / name;
  std::ofstream(path) << yaml;
  return path;
}

void expect_rejected(const fs::path& file, const std::string& key, const std::string& hint) {
  const auto result =
      run_sonicsim("run " + file.string() + " --out " + (file.parent_path() / "out").string());
  CAPTURE(result.output);
  CHECK(result.exit_code == 2);
  CHECK(result.output.find(file.filename().string() + ":") != std::string::npos);
  CHECK(result.output.find("key '" + key + "'") != std::string::npos);
  CHECK(result.output.find(hint) != std::string::npos);
}

} // namespace

TEST_CASE("2022 campaign: a cap schedule with times out of order") {
  expect_rejected(campaign_with("out_of_order.yaml", R"(max_concurrent: [{from: "0s", jobs: unlimited}])",
                                R"(max_concurrent: [{from: "6h", jobs: 1000}, {from: "1h", jobs: 600}])"),
                  "workload.campaign.max_concurrent[1].from", "expected the steps in increasing time");
}

TEST_CASE("2022 campaign: a cap below zero") {
  expect_rejected(campaign_with("negative_cap.yaml", R"(max_concurrent: [{from: "0s", jobs: unlimited}])",
                                R"(max_concurrent: [{from: "0s", jobs: -5}])"),
                  "workload.campaign.max_concurrent[0].jobs", "a cap below zero");
}

TEST_CASE("2022 campaign: CPU fractions not summing to one") {
  expect_rejected(
      campaign_with("fractions.yaml", "fraction: 0.307, speed: 1.6", "fraction: 0.308, speed: 1.6"),
      "platform.cpu_mix", "expected a sum of 1");
}

TEST_CASE("2022 campaign: background above the switch capacity") {
  expect_rejected(
      campaign_with("background.yaml", R"(background: "0Gbps"})",
                    R"(background: "20Gbps", background_schedule: [{from: "0s", rate: "90Gbps"}]})"),
      "platform.site_switch", "expected a background below the switch capacity");
}

TEST_CASE("2022 campaign: slots_random next to a slots schedule, or with max below min") {
  expect_rejected(campaign_with("both_slots.yaml", R"(slots_repeat: "2h")",
                                R"(slots_repeat: "2h"
    slots_random: {min: 0.2, max: 0.6, mean_hold: "1h"})"),
                  "workload.campaign.slots_random", "expected one of them");
  expect_rejected(campaign_with("slots_random_order.yaml",
                                R"(slots: [{from: "0s", fraction: 1.0}, {from: "1h", fraction: 0.3}]
    slots_repeat: "2h")",
                                R"(slots_random: {min: 0.6, max: 0.2, mean_hold: "1h"})"),
                  "workload.campaign.slots_random.max", "max >= min");
  expect_rejected(campaign_with("slots_random_hold.yaml",
                                R"(slots: [{from: "0s", fraction: 1.0}, {from: "1h", fraction: 0.3}]
    slots_repeat: "2h")",
                                R"(slots_random: {min: 0.2, max: 0.6, mean_hold: "0s"})"),
                  "workload.campaign.slots_random.mean_hold", "a mean holding time of at least 1s");
}
