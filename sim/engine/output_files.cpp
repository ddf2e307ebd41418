#include "sim/engine/output_files.hpp"
#include "sim/metrics/json_fields.hpp"

#include "sim/metrics/summary_json.hpp"

#include "sim/scenario/input_error.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace fs = std::filesystem;

namespace sonicsim {

void ensure_writable_directory(const fs::path& directory) {
  std::error_code error;
  if (fs::is_symlink(fs::symlink_status(directory, error)) && !fs::exists(directory, error))
    throw InputError("cannot create output directory '" + directory.string() + "': it is a link to '" +
                     fs::read_symlink(directory, error).string() +
                     "', which does not exist; expected a directory (or a path that can become one)");
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
  for (const char* name : {"summary.json", "events.csv", "timeseries.csv", "event_time_histogram.csv",
                           "campaign.csv", "metrics.om"}) {
    std::error_code ignored;
    fs::remove(directory_ / name, ignored);
    fs::remove(directory_ / (std::string(name) + ".partial"), ignored); // left by a run that was killed
  }
  events_csv_.open(directory_ / "events.csv.partial");
  if (!events_csv_)
    throw std::runtime_error("cannot write '" + (directory_ / "events.csv.partial").string() + "'");
}

namespace {

// Throws "cannot write FILE: reason" when a stream failed at any point (a full disk shows up at the write,
// the flush or the close).
void check_written(std::ofstream& out, const fs::path& path) {
  out.close();
  if (!out) {
    const int error = errno;
    throw std::runtime_error("cannot write '" + path.string() +
                             "': " + (error ? std::strerror(error) : "the write failed"));
  }
}

// Writes DIR/NAME.partial with `write` and checks it; the caller renames it once everything is written.
template <typename Write> fs::path write_partial(const fs::path& directory, const char* name, Write write) {
  fs::path partial = directory / (std::string(name) + ".partial");
  std::ofstream out(partial, std::ios::binary | std::ios::trunc);
  write(out);
  check_written(out, partial);
  return partial;
}

} // namespace

void OutputFiles::finish(const Scenario& scenario, const RunSummary& summary, const RunRecorder& recorder,
                         std::optional<double> openmetrics_start_epoch_s) {
  // Every file goes to a .partial name first and is checked; the renames happen only when all of them were
  // written, summary.json (the mark of a complete run) last. On a failure the partial files are removed, so a
  // failed run leaves no directory that looks complete.
  std::vector<std::pair<fs::path, const char*>> written;
  try {
    check_written(events_csv_, directory_ / "events.csv.partial");
    written.emplace_back(directory_ / "events.csv.partial", "events.csv");
    written.emplace_back(write_partial(directory_, "timeseries.csv",
                                       [&](std::ostream& out) { recorder.write_timeseries_csv(out); }),
                         "timeseries.csv");
    if (scenario.workload.campaign) {
      written.emplace_back(write_partial(directory_, "event_time_histogram.csv",
                                         [&](std::ostream& out) { recorder.write_event_histogram_csv(out); }),
                           "event_time_histogram.csv");
      written.emplace_back(write_partial(directory_, "campaign.csv",
                                         [&](std::ostream& out) { recorder.write_campaign_csv(out); }),
                           "campaign.csv");
    }
    if (openmetrics_start_epoch_s)
      written.emplace_back(write_partial(directory_, "metrics.om",
                                         [&](std::ostream& out) {
                                           recorder.write_openmetrics(out, *openmetrics_start_epoch_s);
                                         }),
                           "metrics.om");
    written.emplace_back(write_partial(directory_, "summary.json",
                                       [&](std::ostream& out) {
                                         out << json_text(summary_to_json(scenario, summary), 2) << '\n';
                                       }),
                         "summary.json");
  } catch (...) {
    std::error_code ignored;
    for (const char* name : {"events.csv", "timeseries.csv", "event_time_histogram.csv", "campaign.csv",
                             "metrics.om", "summary.json"})
      fs::remove(directory_ / (std::string(name) + ".partial"), ignored);
    throw;
  }
  for (const auto& [partial, name] : written)
    fs::rename(partial, directory_ / name);
}

} // namespace sonicsim
