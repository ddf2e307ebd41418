// JSON forms of the resolved scenario and of a run's summary (summary.json), and the way back for a summary
// (a sweep's worker processes hand their results to the parent as JSON).
#pragma once

#include "sim/metrics/run_recorder.hpp"
#include "sim/metrics/scenario_json.hpp"
#include "sim/scenario/scenario.hpp"

#include <nlohmann/json.hpp>

namespace sonicsim {

nlohmann::ordered_json run_summary_to_json(const RunSummary& summary);
// The campaign section of a summary (summary.json results.campaign), written and read back
// (sim/metrics/campaign_summary_json.cpp).
nlohmann::ordered_json campaign_summary_to_json(const CampaignSummary& campaign);
CampaignSummary campaign_summary_from_json(const nlohmann::ordered_json& json);
RunSummary run_summary_from_json(const nlohmann::ordered_json& json);
// The run's figures by their names in the figure table (module figures: the served modules; the GPU time per
// event, which needs the analytic inferences per event, is left out).
nlohmann::ordered_json figures_to_json(const Scenario& scenario, const RunSummary& summary);
// summary.json: {"sonicsim_version": ..., "scenario": ..., "figures": {name: value}, "results": ...}
nlohmann::ordered_json summary_to_json(const Scenario& scenario, const RunSummary& summary);

} // namespace sonicsim
