// `sonicsim run CAMPAIGN --campaign-windows N`: the campaign's measured span cut into N time windows
// (sim/analysis/campaign_windows.hpp), simulated at once (-j here, or as a Slurm job array with --slurm) and
// merged into DIR/campaign_windows.json and DIR/event_time_histogram.csv; each window's own files are in
// DIR/window_<k>/ when run here.
#pragma once

#include "sim/app/slurm_jobs.hpp"
#include "sim/scenario/scenario.hpp"

#include <filesystem>
#include <string>

namespace sonicsim {

struct CampaignWindowsRun {
  int windows = 1;
  int parallel = 1;
  bool quiet = false;
  SlurmOptions slurm;
  std::string scenario_path; // for the array tasks (empty: the embedded default)
  std::string variant;
  std::vector<std::string> set_overrides;
};

int run_campaign_windows(const Scenario& scenario, const std::filesystem::path& output_dir,
                         const CampaignWindowsRun& how);

} // namespace sonicsim
