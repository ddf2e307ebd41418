// The files of a run: summary.json, events.csv, timeseries.csv. They are written under temporary names and
// renamed only when the run has finished, so an interrupted or failed run never leaves a directory that looks
// complete (summary.json, the last file renamed, marks completion).
#pragma once

#include "sim/metrics/run_recorder.hpp"
#include "sim/scenario/scenario.hpp"

#include <filesystem>
#include <fstream>

namespace sonicsim {

class OutputFiles {
public:
  // Creates the directory; throws std::runtime_error naming it when it cannot be created or written.
  explicit OutputFiles(std::filesystem::path directory);
  std::ostream& events_csv() { return events_csv_; }
  void finish(const Scenario& scenario, const RunSummary& summary, const RunRecorder& recorder);

private:
  std::filesystem::path directory_;
  std::ofstream events_csv_;
};

// Checks that a directory can be created and written, before any simulation starts.
void ensure_writable_directory(const std::filesystem::path& directory);

} // namespace sonicsim
