// `plan --sensitivity`: what a plan's answer rests on, ranked. The same search is made again at each end of
// each value the scenario uses whose provenance gives a range (as `run --sensitivity` moves them,
// sim/app/run/run_sensitivity.hpp), and the answers (the GPUs for N jobs, or the jobs G GPUs serve) compared:
// largest swing first. Printed, written to plan_sensitivity.json and drawn by the HTML report.
#pragma once

#include "sim/app/run/run_sensitivity.hpp"
#include "sim/planning/plan_result.hpp"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

struct PlanSensitivity {
  std::string unit; // "GPUs" (fewest GPUs, every group's devices) or "jobs" (most jobs)
  std::optional<int> answer;
  struct Row {
    Provenance entry;
    std::optional<int> at_low, at_high; // none: no layout met the targets at that end
    std::string why_low, why_high;      // then why not
    int swing() const;                  // |at_high - at_low|; a missing end counts as the largest swing
  };
  std::vector<Row> rows; // largest swing first
};

// The plan's answer as one count, none when it found none.
std::optional<int> plan_answer_count(const planning::Plan& plan);

// `search`: the plan's own search of a scenario (an end), with that end's --set for a process elsewhere.
PlanSensitivity plan_sensitivity(
    const SensitivityRuns& ends, const planning::Plan& answer,
    const std::function<planning::Plan(const Scenario&, const std::vector<std::string>&)>& search);

void print_plan_sensitivity(const PlanSensitivity& sensitivity);
void write_plan_sensitivity(const std::filesystem::path& path, const PlanSensitivity& sensitivity);

} // namespace sonicsim
