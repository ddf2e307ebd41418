#include "sim/engine/output_files.hpp"

#include "sim/metrics/summary_json.hpp"

#include "sim/scenario/input_error.hpp"

#include <stdexcept>
#include <system_error>

namespace fs = std::filesystem;

namespace sonicsim {

void ensure_writable_directory(const fs::path& directory) {
  std::error_code error;
  fs::create_directories(directory, error);
  if (error)
    throw InputError("cannot create output directory '" + directory.string() + "': " + error.message());
  const fs::path probe = directory / ".sonicsim_write_test";
  {
    std::ofstream out(probe);
    if (!out) throw InputError("output directory '" + directory.string() + "' is not writable");
  }
  fs::remove(probe, error);
}

OutputFiles::OutputFiles(fs::path directory) : directory_(std::move(directory)) {
  ensure_writable_directory(directory_);
  // A previous complete run in the same directory must not be mistaken for this one while it runs.
  for (const char* name :
       {"summary.json", "events.csv", "timeseries.csv", "event_time_histogram.csv", "campaign.csv"}) {
    std::error_code ignored;
    fs::remove(directory_ / name, ignored);
  }
  events_csv_.open(directory_ / "events.csv.partial");
  if (!events_csv_)
    throw std::runtime_error("cannot write '" + (directory_ / "events.csv.partial").string() + "'");
}

void OutputFiles::finish(const Scenario& scenario, const RunSummary& summary, const RunRecorder& recorder) {
  events_csv_.close();
  {
    std::ofstream out(directory_ / "timeseries.csv.partial");
    recorder.write_timeseries_csv(out);
  }
  if (scenario.workload.campaign) {
    std::ofstream histogram(directory_ / "event_time_histogram.csv");
    recorder.write_event_histogram_csv(histogram);
    std::ofstream campaign(directory_ / "campaign.csv");
    recorder.write_campaign_csv(campaign);
  }
  {
    std::ofstream out(directory_ / "summary.json.partial");
    out << summary_to_json(scenario, summary).dump(2) << '\n';
  }
  fs::rename(directory_ / "events.csv.partial", directory_ / "events.csv");
  fs::rename(directory_ / "timeseries.csv.partial", directory_ / "timeseries.csv");
  fs::rename(directory_ / "summary.json.partial", directory_ / "summary.json");
}

} // namespace sonicsim
