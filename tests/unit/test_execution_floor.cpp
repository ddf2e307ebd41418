// The execution floor's pure parts (sim/execution): what squeue says, the scripts sbatch takes, how another
// process rebuilds a scenario, and the overrides a plan writes. No cluster and no SimGrid engine needed.
#include "sim/execution/process_arguments.hpp"
#include "sim/execution/scenario_recipe.hpp"
#include "sim/execution/shell_commands.hpp"
#include "sim/execution/slurm_commands.hpp"
#include "sim/metrics/direct_baseline.hpp"
#include "sim/planning/pod_layout.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace sonicsim;

TEST_CASE("squeue's array task lines: one task, split-off tasks and pending ranges") {
  // squeue -h -r -o '%i %T' on a 10-task array with %2 throttle: two running, the rest pending as ranges.
  const auto tasks = slurm::parse_squeue_tasks("812_1 RUNNING\n812_4 RUNNING\n812_[2-3,5%2] PENDING\n"
                                               "812_[7-8] PENDING\n813 RUNNING\n");
  CHECK(tasks.size() == 7); // 1, 4, 2, 3, 5, 7, 8; job 813 has no array index
  CHECK(tasks.at(1) == "RUNNING");
  CHECK(tasks.at(4) == "RUNNING");
  CHECK(tasks.at(2) == "PENDING");
  CHECK(tasks.at(3) == "PENDING");
  CHECK(tasks.at(5) == "PENDING");
  CHECK(tasks.at(8) == "PENDING");
  CHECK(tasks.count(6) == 0);
  CHECK(slurm::parse_squeue_tasks("").empty());
}

TEST_CASE("array specs and script headers say what sbatch must do") {
  CHECK(slurm::array_spec(8, {}, 0) == "1-8");
  CHECK(slurm::array_spec(8, {2, 5, 7}, 3) == "2,5,7%3");
  ClusterSettings settings;
  const std::string bare = slurm::script_header("sonicsim-x", "/work", "/work/log_%a.out", settings);
  CHECK(bare.rfind("#!/bin/bash\n#SBATCH --job-name=sonicsim-x\n", 0) == 0);
  CHECK(bare.find("#SBATCH --chdir=/work\n") != std::string::npos);
  CHECK(bare.find("#SBATCH --output=/work/log_%a.out\n") != std::string::npos);
  CHECK(bare.find("--partition") == std::string::npos); // nothing the user did not ask for
  settings.partition = "gpu";
  settings.account = "cms";
  settings.time = "1:00:00";
  const std::string full = slurm::script_header("sonicsim-x", "/work", "/work/log.out", settings);
  CHECK(full.find("#SBATCH --partition=gpu\n") != std::string::npos);
  CHECK(full.find("#SBATCH --account=cms\n") != std::string::npos);
  CHECK(full.find("#SBATCH --time=1:00:00\n") != std::string::npos);
}

TEST_CASE("shell words survive quoting") {
  CHECK(shell_quote("plain-word_1.yaml") == "plain-word_1.yaml");
  CHECK(shell_quote("two words") == "'two words'");
  CHECK(shell_quote("it's") == "'it'\\''s'");
  CHECK(shell_quote("") == "''");
  CHECK(shell_command({"sonicsim", "run", "--set", "name=a b"}) == "sonicsim run --set 'name=a b'");
}

TEST_CASE("a recipe rebuilds the very scenario, through JSON, variants, overrides and a 64-bit seed") {
  const std::string path =
      std::string(SONICSIM_SOURCE_DIR) + "/configs/cms_miniaod_2024_one_model_per_t4.yaml";
  ScenarioRecipe recipe;
  recipe.scenario_path = path;
  recipe.overrides = {"workload.jobs=17"};
  recipe.seed = 18446744073709551557ull; // beyond what a scenario file's seed may hold
  const Scenario scenario = recipe.rebuild();
  CHECK(scenario.workload.jobs == 17);
  CHECK(scenario.seed == recipe.seed);
  const ScenarioRecipe back =
      ScenarioRecipe::from_json(nlohmann::ordered_json::parse(recipe.to_json().dump()));
  CHECK(scenario_fingerprint(back.rebuild()) == scenario_fingerprint(scenario));
  recipe.overrides = {"workload.jobs=18"};
  CHECK(scenario_fingerprint(recipe.rebuild()) != scenario_fingerprint(scenario));
  CHECK_THROWS_AS(ScenarioRecipe::from_json(nlohmann::ordered_json{{"scenario", path}}),
                  nlohmann::json::exception);
}

TEST_CASE("the overrides a plan writes rebuild each planned layout (round trip through the loader)") {
  const Scenario base = load_default_scenario();
  const ServerGroup& group = planning::planned_group(base);
  planning::PodLayout layout{3, 2, group.device_type, 25e9};
  Scenario planned = planning::with_layout(base, layout);
  planned.workload.jobs = base.workload.jobs + 100;
  const auto overrides = planning::plan_overrides(base, planned);
  CHECK(overrides.size() == 4); // jobs, pods, devices per pod, NIC; the device type is unchanged
  const Scenario rebuilt = load_default_scenario(overrides);
  CHECK(scenario_fingerprint(rebuilt) == scenario_fingerprint(planned));
  CHECK(planning::plan_overrides(base, base).empty());
  // The plan's precision rule (--run-precision) travels too, and "off" as the loader reads it.
  for (const double precision : {0.08, 0.0}) {
    Scenario shorter = planned;
    shorter.output.precision_relative = precision;
    const auto with_precision = planning::plan_overrides(base, shorter);
    CHECK(with_precision.size() == 5);
    CHECK(scenario_fingerprint(load_default_scenario(with_precision)) == scenario_fingerprint(shorter));
  }
  // And the bounds its candidates may stop beyond (output.stop_beyond).
  Scenario bounded = planned;
  bounded.output.stop_beyond["module_mean_s"].above = 11.98;
  bounded.output.stop_beyond["events_per_s"].below = 0.3;
  const auto with_bounds = planning::plan_overrides(base, bounded);
  CHECK(with_bounds.size() == 6);
  CHECK(scenario_fingerprint(load_default_scenario(with_bounds)) == scenario_fingerprint(bounded));
  // A plan's direct-inference baseline (a target on the gain; a scenario whose modules have direct times):
  // rebuilt as the same scenario elsewhere.
  const std::string cms =
      std::string(SONICSIM_SOURCE_DIR) + "/configs/cms_miniaod_2024_one_model_per_t4.yaml";
  const Scenario cms_base = load_scenario_file(cms);
  const auto direct = direct_inference_baseline(cms_base);
  REQUIRE(direct);
  const auto with_direct = planning::plan_overrides(cms_base, *direct);
  CHECK(with_direct == std::vector<std::string>{"workload.inference=direct"});
  CHECK(scenario_fingerprint(load_scenario_file(cms, with_direct)) == scenario_fingerprint(*direct));
}

TEST_CASE(
    "a batch job's command: this executable, the SimGrid settings this process was given, the command") {
  // A job that did not get the user's --cfg would simulate with other settings than the command it serves.
  const auto command = own_command("array-task", {"network/optim:Full", "network/TCP-gamma:1000"});
  CHECK(command == std::vector<std::string>{own_executable(), "--cfg", "network/optim:Full", "--cfg",
                                            "network/TCP-gamma:1000", "array-task"});
  CHECK(own_command("sweep", {}) == std::vector<std::string>{own_executable(), "sweep"});
}
