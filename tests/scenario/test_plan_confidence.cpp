// Plans decided with confidence (issue "Capacity plans you can trust"): the answer does not move with the
// seed beyond the range the report prints, its knee interval contains the analytic knee, a multi-model plan
// sizes each group to the smallest count whose interval meets the target, with the count below it failing.
// These run as their own ctest entry (plan_confidence), beside the other scenario tests. Short runs (4 events
// per job) keep each plan to seconds or a minute.
#include "simulate.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

namespace fs = std::filesystem;
using sonicsim::testing::run_sonicsim;

namespace {

const std::string quick = " --set workload.events_per_job=4 --set output.precision=off -j 2 ";
// 3 events per job where the answer is the same as at 4: 2,000 jobs on A100s (each plan 20 s rather than 33 s
// on 2 cores; seeds 1-3 answer 15 A100, 1.085, 1.085, 1.083 x ref). Not --gpus 4: at 3 events two of its
// checks fail (tried), so it keeps 4.
const std::string quick_3_events = " --set workload.events_per_job=3 --set output.precision=off -j 2 ";

} // namespace

TEST_CASE("plan with confidence: --gpus 4 gives overlapping ranges for seeds 1 to 5, each knee interval "
          "containing the analytic knee") {
  const fs::path base = fs::temp_directory_path() / "sonicsim_plan_seeds";
  fs::remove_all(base);
  int common_low = 0, common_high = 1 << 30;
  for (int seed = 1; seed <= 5; ++seed) {
    CAPTURE(seed);
    const fs::path dir = base / std::to_string(seed);
    const auto result =
        run_sonicsim("plan --gpus 4 --seed " + std::to_string(seed) + quick + "--out " + dir.string());
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    const auto plan = sonicsim::testing::read_json(dir / "plan.json");
    const int low = plan["plan"]["jobs_low"], high = plan["plan"]["jobs_high"], jobs = plan["plan"]["jobs"];
    CHECK(low <= jobs);
    CHECK(jobs <= high);
    common_low = std::max(common_low, low);
    common_high = std::min(common_high, high);
    // The knee is 4 GPUs x the CPU:GPU ratio: 271.8 jobs analytically (arXiv:2009.04509 Eq. 3 with the
    // scenario's t_ideal and t_GPU); the simulated ratio's 95 % interval over the plan's replications must
    // contain it, since at the knee the simulation and the model describe the same GPU time per event.
    const double analytic_knee = 4.0 * plan["ratio"]["analytic"].get<double>();
    CHECK(analytic_knee == doctest::Approx(272.0).epsilon(0.01));
    CHECK(plan["knee_sizing"]["ci95_low"].get<double>() <= analytic_knee);
    CHECK(plan["knee_sizing"]["ci95_high"].get<double>() >= analytic_knee);
  }
  // One job count every seed's range contains: the seeds agree within what their intervals can tell.
  CHECK(common_low <= common_high);
}

TEST_CASE("plan with confidence: 2,000 jobs on A100s give one answer for seeds 1 to 3, with its interval") {
  const fs::path base = fs::temp_directory_path() / "sonicsim_plan_a100";
  fs::remove_all(base);
  std::vector<int> answers;
  for (int seed = 1; seed <= 3; ++seed) {
    CAPTURE(seed);
    const fs::path dir = base / std::to_string(seed);
    const auto result = run_sonicsim("plan --jobs 2000 --variant a100 --seed " + std::to_string(seed) +
                                     quick_3_events + "--out " + dir.string());
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    const auto plan = sonicsim::testing::read_json(dir / "plan.json");
    answers.push_back(plan["plan"]["gpus"]);
    CHECK(plan["plan"]["device_type"] == "A100");
    // The module-time ratio of the answer, printed with its 95 % interval: "1.091 (1.081-1.102) x ref".
    CHECK(result.output.find("module_mean_s<=1.1x: 1.") != std::string::npos);
    CHECK(result.output.find(") x ref meets") != std::string::npos);
  }
  // Before confidence decisions, one seed's 1.102 against the 1.10 limit sent this plan to 20 GPUs.
  CHECK(answers == std::vector<int>{answers.front(), answers.front(), answers.front()});
  CHECK(answers.front() < 20);
}

TEST_CASE("plan with confidence: a multi-model plan gives each group the smallest count meeting its target") {
  const fs::path dir = fs::temp_directory_path() / "sonicsim_plan_cms";
  fs::remove_all(dir);
  // CMS Mini-AOD, 500 four-thread jobs, each model's module time within 1.6x of its own at low load. The
  // runs keep the scenario's length (precision rule off): this checks the search's evidence, and the rule
  // would make each run up to 16 times longer. (With 1.5x, DeepMET's group at 1 + 2 devices sits at 1.495
  // (1.461-1.529) since the calibration of 2026-11-29: undecided at 10 replications, which the plan rightly
  // reports as no answer; this test is about the search, so its target is off that edge.)
  const auto result =
      run_sonicsim("plan " + sonicsim::testing::config_path("cms_miniaod_2024_large_scale.yaml") +
                   " --jobs 500 --tolerance 0.6 --set output.precision=off -j 2 --out " + dir.string());
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  const auto plan = sonicsim::testing::read_json(dir / "plan.json");
  std::map<std::string, int> counts, deployed, lowest;
  for (const auto& group : plan["groups"]) {
    counts[group["group"]] = group["devices"];
    deployed[group["group"]] = group["scenario_devices"];
    lowest[group["group"]] = group["devices_low"];
  }
  // One group per model, DeepMET's in two (the study's two 4-GPU VMs and one 2-GPU VM).
  REQUIRE(counts.size() == 5);
  for (const auto& [group, count] : counts) {
    CAPTURE(group);
    CHECK(count >= 1);
    // A fifth of the jobs the scenario deploys its devices for: fewer devices. DeepMET's two groups (the
    // 4-GPU VMs and the 2-GPU VM) serve one model, and the plan sizes one group at a time with the other
    // held: their split is one that meets the target, which the search's path picks (the plan says so, in its
    // note), so DeepMET is checked in all: fewer than the 10 deployed.
    if (group == "deepmet_t4" || group == "deepmet_t4_2gpu")
      CHECK(counts["deepmet_t4"] + counts["deepmet_t4_2gpu"] <
            deployed["deepmet_t4"] + deployed["deepmet_t4_2gpu"]);
    else
      CHECK(count < deployed[group]);
    // The evidence: with every other group at its answer, this group's count meets its target and one device
    // fewer fails it, both decided by the intervals; or, where the intervals cannot decide the count below
    // (the plan then reports the range from devices_low, as the AK8 taggers' 14-15 T4 at 1.496 (1.468-1.524)
    // against 1.5), that count is undecided and inside the range.
    const bool range = lowest[group] < count;
    bool at_count = false, below = count == 1;
    for (const auto& run : plan["runs"]) {
      if (!run.contains("group_devices") || run["role"] != "candidate") continue;
      bool others_at_answer = true;
      for (const auto& [other, other_count] : counts)
        if (other != group) others_at_answer = others_at_answer && run["group_devices"][other] == other_count;
      if (!others_at_answer) continue;
      for (const auto& check : run["checks"]) {
        if (check["scope"] != group) continue;
        if (run["group_devices"][group] == count) at_count = check["decision"] == "meets";
        if (run["group_devices"][group] == count - 1)
          below = check["decision"] == (range ? "undecided" : "fails");
      }
    }
    CHECK(at_count);
    CHECK(below);
  }
  // The saturation order of the deployment found: every group's devices in it, first to fill first. A group
  // whose single model's Triton instances fill before their devices (held for input handling as well as
  // execution) is there as "instances of MODEL".
  const auto& order = plan["saturation"]["order"];
  REQUIRE(order.size() >= 5);
  int device_pools = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    device_pools += order[k]["kind"] == "device_pool" || order[k]["kind"] == "instances" ? 1 : 0;
    if (k > 0) CHECK(order[k - 1]["jobs_at_saturation"] <= order[k]["jobs_at_saturation"]);
  }
  CHECK(device_pools == 5);
}
