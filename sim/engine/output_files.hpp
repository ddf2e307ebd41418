// The files of a run: summary.json, events.csv, timeseries.csv. They are written under temporary names and
// renamed only when the run has finished, so an interrupted or failed run never leaves a directory that looks
// complete (summary.json, the last file renamed, marks completion).
#pragma once

#include "sim/metrics/run_recorder.hpp"
#include "sim/scenario/scenario.hpp"

#include <filesystem>
#include <fstream>
#include <optional>

namespace sonicsim {

class OutputFiles {
public:
  // Creates the directory; throws std::runtime_error naming it when it cannot be created or written.
  explicit OutputFiles(std::filesystem::path directory);
  std::ostream& events_csv() { return events_csv_; }
  // With openmetrics_start_epoch_s, also metrics.om (the recorder's OpenMetrics, stamped from that time).
  void finish(const Scenario& scenario, const RunSummary& summary, const RunRecorder& recorder,
              std::optional<double> openmetrics_start_epoch_s = std::nullopt);

private:
  std::filesystem::path directory_;
  std::ofstream events_csv_;
};

// Checks that a directory can be created and written, before any simulation starts.
void ensure_writable_directory(const std::filesystem::path& directory);

} // namespace sonicsim
