#include "sim/execution/run_cache.hpp"

#include "sim/metrics/json_fields.hpp"

namespace sonicsim {

std::vector<SimulationOutcome> run_cached(const ExecutionContext& context,
                                          const std::vector<SimulationRequest>& requests, RunCache* cache) {
  if (!cache) return run_batch(context, requests);
  std::vector<std::string> keys;
  std::map<std::string, std::size_t> to_run_index; // recipe -> its place in to_run
  std::vector<SimulationRequest> to_run;
  std::vector<std::size_t> run_for; // to_run's request indices
  for (std::size_t k = 0; k < requests.size(); ++k) {
    keys.push_back(json_text(requests[k].recipe.to_json()));
    if (cache->summaries.count(keys[k]) == 0 && to_run_index.emplace(keys[k], to_run.size()).second) {
      to_run.push_back(requests[k]);
      run_for.push_back(k);
    }
  }
  const auto fresh = run_batch(context, to_run);
  std::vector<SimulationOutcome> outcomes(requests.size());
  for (std::size_t k = 0; k < requests.size(); ++k) {
    const auto earlier = cache->summaries.find(keys[k]);
    if (earlier != cache->summaries.end()) {
      outcomes[k].ok = true;
      outcomes[k].summary = earlier->second;
      ++cache->reused;
      continue;
    }
    const std::size_t i = to_run_index.at(keys[k]);
    outcomes[k] = fresh[i];
    if (run_for[i] != k) ++cache->reused;
  }
  for (const auto& [key, i] : to_run_index)
    if (fresh[i].ok) cache->summaries.emplace(key, fresh[i].summary);
  return outcomes;
}

} // namespace sonicsim
