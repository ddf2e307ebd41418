// `sonicsim run CAMPAIGN --campaign-windows N`: the campaign's measured span cut into N time windows
// (sim/analysis/campaign_windows.hpp), simulated at once (-j here, or as a Slurm job array with --slurm) and
// merged into DIR/campaign_windows.json and DIR/event_time_histogram.csv; each window's own files are in
// DIR/window_<k>/ when run here.
#pragma once

#include "sim/app/scenario_source.hpp"
#include "sim/execution/execution_options.hpp"
#include "sim/scenario/scenario.hpp"

#include <filesystem>

namespace sonicsim {

// `source` is where `scenario` came from: a cluster's tasks rebuild each window from it.
int run_campaign_windows(const Scenario& scenario, const ScenarioSource& source,
                         const std::filesystem::path& output_dir, int window_count,
                         const ExecutionOptions& execution);

} // namespace sonicsim
