#include "sim/app/plan/plan_sensitivity.hpp"

#include "sim/execution/state_file.hpp"
#include "sim/metrics/json_fields.hpp"
#include "sim/scenario/provenance.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>

namespace sonicsim {
namespace {

std::string count_text(const std::optional<int>& count) {
  return count ? std::to_string(*count) : std::string("none");
}

nlohmann::ordered_json count_json(const std::optional<int>& count) {
  return count ? nlohmann::ordered_json(*count) : nlohmann::ordered_json(nullptr);
}

} // namespace

int PlanSensitivity::Row::swing() const {
  if (!at_low || !at_high) return INT_MAX;
  return std::abs(*at_high - *at_low);
}

std::optional<int> plan_answer_count(const planning::Plan& plan) {
  if (!plan.found) return std::nullopt;
  if (plan.mode == planning::Plan::Mode::most_jobs) return plan.jobs;
  if (plan.mode == planning::Plan::Mode::fewest_gpus) return plan.layout.gpus();
  int devices = 0;
  for (const auto& group : plan.groups)
    devices += group.devices;
  return devices;
}

PlanSensitivity plan_sensitivity(
    const SensitivityRuns& ends, const planning::Plan& answer,
    const std::function<planning::Plan(const Scenario&, const std::vector<std::string>&)>& search) {
  PlanSensitivity out;
  out.unit = answer.mode == planning::Plan::Mode::most_jobs ? "jobs" : "GPUs";
  out.answer = plan_answer_count(answer);
  for (std::size_t i = 0; i < ends.ranged.size(); ++i) {
    const Provenance& entry = ends.ranged[i];
    PlanSensitivity::Row row{entry, {}, {}, {}, {}};
    const planning::Plan low = search(ends.ends[2 * i].scenario, {entry.key + "=" + entry.range_low});
    const planning::Plan high = search(ends.ends[2 * i + 1].scenario, {entry.key + "=" + entry.range_high});
    row.at_low = plan_answer_count(low);
    row.at_high = plan_answer_count(high);
    if (!low.found) row.why_low = low.not_found_reason;
    if (!high.found) row.why_high = high.not_found_reason;
    out.rows.push_back(row);
  }
  std::stable_sort(
      out.rows.begin(), out.rows.end(),
      [](const PlanSensitivity::Row& a, const PlanSensitivity::Row& b) { return a.swing() > b.swing(); });
  return out;
}

void print_plan_sensitivity(const PlanSensitivity& s) {
  std::printf(
      "\nwhat the answer (%s %s) rests on, ranked: the plan searched again at each end of each range, "
      "largest swing first\n",
      count_text(s.answer).c_str(), s.unit.c_str());
  std::printf("  %-56s %-24s %8s %8s\n", "value (kind)", "range", "at low", "at high");
  for (std::size_t i = 0; i < s.rows.size(); ++i) {
    const auto& r = s.rows[i];
    std::printf("  %-56s %-24s %8s %8s\n",
                (std::to_string(i + 1) + ". " + r.entry.key + " (" + provenance_kind_name(r.entry.kind) + ")")
                    .c_str(),
                (r.entry.range_low + " .. " + r.entry.range_high).c_str(), count_text(r.at_low).c_str(),
                count_text(r.at_high).c_str());
    for (const auto& [end, why] : {std::pair{"low", &r.why_low}, std::pair{"high", &r.why_high}})
      if (!why->empty())
        std::printf("     at its %s end no layout meets the targets: %s\n", end, why->c_str());
  }
}

void write_plan_sensitivity(const std::filesystem::path& path, const PlanSensitivity& s) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& r : s.rows)
    rows.push_back({{"key", r.entry.key},
                    {"kind", provenance_kind_name(r.entry.kind)},
                    {"low", r.entry.range_low},
                    {"high", r.entry.range_high},
                    {"why_range", r.entry.range_why},
                    {"at_low", count_json(r.at_low)},
                    {"at_high", count_json(r.at_high)},
                    {"not_found_low", r.why_low},
                    {"not_found_high", r.why_high}});
  const nlohmann::ordered_json out{
      {"unit", s.unit},
      {"answer", count_json(s.answer)},
      {"ranked_by", "swing of the answer, largest first (an end with no layout first)"},
      {"values", rows}};
  write_file_atomically(path, json_text(out, 1) + "\n");
}

} // namespace sonicsim
