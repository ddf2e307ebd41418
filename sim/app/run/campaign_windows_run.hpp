// `sonicsim run CAMPAIGN --campaign-windows N`: the campaign's measured span cut into N time windows
// (sim/analysis/campaign_windows.hpp), simulated at once (-j here, or as a Slurm job array with --slurm) and
// merged into DIR/campaign_windows.json and DIR/event_time_histogram.csv; each window's own files are in
// DIR/window_<k>/ when run here.
#pragma once

#include "sim/app/common/scenario_source.hpp"
#include "sim/execution/execution_options.hpp"
#include "sim/scenario/scenario.hpp"

#include <filesystem>
#include <optional>

namespace sonicsim {

// `source` is where `scenario` came from: a cluster's tasks rebuild each window from it. With
// `metrics_start_epoch_s` (run here only), each window also writes metrics.om, stamped from that time plus
// the window's start in the campaign, sampled every `metrics_interval_s`.
int run_campaign_windows(const Scenario& scenario, const ScenarioSource& source,
                         const std::filesystem::path& output_dir, int window_count,
                         const ExecutionOptions& execution,
                         std::optional<double> metrics_start_epoch_s = std::nullopt,
                         double metrics_interval_s = 5.0);

} // namespace sonicsim
