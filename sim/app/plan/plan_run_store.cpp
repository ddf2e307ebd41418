#include "sim/app/plan/plan_run_store.hpp"

#include "sim/execution/scenario_recipe.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/metrics/json_fields.hpp"
#include "sim/metrics/summary_json.hpp"

#include <nlohmann/json.hpp>

namespace sonicsim {

std::vector<SimulationOutcome> PlanRunStore::run(const ExecutionContext& context,
                                                 const std::vector<SimulationRequest>& requests) {
  std::vector<SimulationOutcome> outcomes(requests.size());
  std::vector<std::string> fingerprints;
  std::vector<SimulationRequest> missing;
  std::vector<std::size_t> missing_index;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    fingerprints.push_back(scenario_fingerprint(requests[i].scenario));
    const auto kept = directory_ / (fingerprints.back() + ".json");
    if (resume_ && std::filesystem::exists(kept)) {
      const auto json = parse_result_json<nlohmann::ordered_json>(read_result_text(kept), kept.string());
      outcomes[i].ok = true;
      outcomes[i].summary = run_summary_from_json(json.at("summary"));
      outcomes[i].wall_clock_s = json.at("wall_clock_s").get<double>();
      ++taken_;
      continue;
    }
    missing.push_back(requests[i]);
    missing_index.push_back(i);
  }
  if (missing.empty()) return outcomes;
  std::filesystem::create_directories(directory_);
  const auto keep = [&](std::size_t k, const SimulationOutcome& outcome) {
    if (!outcome.ok) return;
    const nlohmann::ordered_json json{{"wall_clock_s", outcome.wall_clock_s},
                                      {"summary", run_summary_to_json(outcome.summary)}};
    write_file_atomically(directory_ / (fingerprints[missing_index[k]] + ".json"), json_text(json) + "\n");
    ++kept_;
  };
  const auto ran = run_batch(context, missing, keep);
  for (std::size_t k = 0; k < ran.size(); ++k)
    outcomes[missing_index[k]] = ran[k];
  return outcomes;
}

} // namespace sonicsim
