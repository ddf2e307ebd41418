#include "sim/app/import/import_replay.hpp"
#include "sim/metrics/json_fields.hpp"

#include <algorithm>
#include <filesystem>

#include "sim/app/commands.hpp"
#include "sim/app/common/output_options.hpp"
#include "sim/calibration/perf_analyzer_replay.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/execution/run_or_submit.hpp"
#include "sim/execution/scenario_recipe.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/measurements/perf_analyzer_reading.hpp"
#include "sim/scenario/input_error.hpp"
#include "sim/scenario/units.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>

namespace sonicsim {
namespace {

constexpr const char* generator_name = "perf_analyzer_replay";

double bytes_option(const char* option, const std::string& text) {
  double bytes = 0.0;
  try {
    bytes = parse_bytes(text);
  } catch (const std::exception& error) {
    throw InputError(std::string(option) + " " + text + ": " + error.what());
  }
  if (!(bytes >= 0.0 && bytes <= 1e9))
    throw InputError(std::string(option) + " " + text + ": expected a size per inference between 0B and 1GB");
  return bytes;
}

calibration::ReplaySettings replay_settings(const PerfAnalyzerArguments& arguments,
                                            const ImportedFiles& files) {
  calibration::ReplaySettings settings;
  settings.device_type = arguments.device;
  settings.instances = arguments.instances;
  settings.dynamic_batching = arguments.dynamic_batching;
  settings.max_batch_size = arguments.max_batch_size;
  settings.host_cores = arguments.host_cores;
  if (files.input_bytes > 0) settings.input_bytes_per_inference = files.input_bytes;
  if (files.output_bytes > 0) settings.output_bytes_per_inference = files.output_bytes;
  return settings;
}

// What the generator needs to build replay `index` again: the files (absolute) and every option the
// scenario depends on.
nlohmann::ordered_json generator_arguments(const PerfAnalyzerArguments& a, std::size_t index) {
  std::vector<std::string> files;
  for (const auto& file : a.files)
    files.push_back(std::filesystem::absolute(file).string());
  nlohmann::ordered_json json{{"files", files},
                              {"model", a.model},
                              {"device", a.device},
                              {"input_bytes", a.input_bytes},
                              {"output_bytes", a.output_bytes},
                              {"device_time", a.mapping},
                              {"instances", a.instances},
                              {"dynamic_batching", a.dynamic_batching},
                              {"max_batch_size", a.max_batch_size},
                              {"host_cores", a.host_cores},
                              {"index", index}};
  if (a.batch) json["batch"] = *a.batch;
  return json;
}

Scenario generate_replay(const nlohmann::ordered_json& json) {
  PerfAnalyzerArguments a;
  a.files = json.at("files").get<std::vector<std::string>>();
  a.model = json.at("model").get<std::string>();
  a.device = json.at("device").get<std::string>();
  a.input_bytes = json.at("input_bytes").get<std::string>();
  a.output_bytes = json.at("output_bytes").get<std::string>();
  a.mapping = json.at("device_time").get<std::string>();
  a.instances = json.at("instances").get<int>();
  a.dynamic_batching = json.at("dynamic_batching").get<bool>();
  a.max_batch_size = json.at("max_batch_size").get<int>();
  a.host_cores = json.at("host_cores").get<int>();
  if (json.contains("batch")) a.batch = json.at("batch").get<int>();
  const auto index = json.at("index").get<std::size_t>();
  const ImportedFiles files = read_perf_analyzer_files(a);
  auto replays = calibration::perf_analyzer_replays(files.imported, replay_settings(a, files));
  if (index >= replays.size())
    throw InputError("perf_analyzer replay " + std::to_string(index) + ": the files now give " +
                     std::to_string(replays.size()) + " replays (changed since the command ran?)");
  return std::move(replays[index].scenario);
}

} // namespace

ImportedFiles read_perf_analyzer_files(const PerfAnalyzerArguments& arguments) {
  ImportedFiles files;
  files.input_bytes = bytes_option("--input-bytes", arguments.input_bytes);
  files.output_bytes = bytes_option("--output-bytes", arguments.output_bytes);
  files.mapping = arguments.mapping == "merged-async" ? measurements::DeviceTimeMapping::merged_async
                                                      : measurements::DeviceTimeMapping::compute_infer;
  // A folder stands for every .csv in it, by name (as a scenario's perf_analyzer key reads it).
  std::vector<std::string> paths;
  for (const auto& path : arguments.files) {
    if (!std::filesystem::is_directory(path)) {
      paths.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& file : std::filesystem::directory_iterator(path))
      if (file.path().extension() == ".csv") found.push_back(file.path().string());
    if (found.empty()) throw InputError(path + ": a folder with no perf_analyzer .csv file");
    std::sort(found.begin(), found.end());
    paths.insert(paths.end(), found.begin(), found.end());
  }
  files.imported = measurements::import_perf_analyzer(paths, arguments.batch, files.input_bytes,
                                                      files.output_bytes, files.mapping);
  return files;
}

void register_replay_generator() {
  register_scenario_generator(generator_name, generate_replay);
}

namespace {

// Errors of the replays of one reading against the files: simulated / measured - 1, per replay that ran.
std::vector<double> replay_errors(const std::vector<calibration::Replay>& replays,
                                  const std::vector<SimulationOutcome>& outcomes, std::size_t first) {
  std::vector<double> errors;
  for (std::size_t i = 0; i < replays.size(); ++i)
    if (outcomes[first + i].ok)
      errors.push_back(outcomes[first + i].summary.inferences_per_s / replays[i].measured_inferences_per_s -
                       1.0);
  return errors;
}

ReadingFit reading_fit(const std::string& reading, const std::vector<double>& errors) {
  ReadingFit fit{reading};
  if (errors.empty()) return fit;
  std::vector<double> magnitudes;
  for (const double e : errors)
    magnitudes.push_back(std::fabs(e));
  std::sort(magnitudes.begin(), magnitudes.end());
  fit.ran = true;
  fit.median_magnitude = magnitudes[magnitudes.size() / 2];
  fit.worst = magnitudes.back();
  fit.low = *std::min_element(errors.begin(), errors.end());
  fit.high = *std::max_element(errors.begin(), errors.end());
  return fit;
}

std::string fit_text(const ReadingFit& f) {
  char text[200];
  std::snprintf(text, sizeof text, "%s %+.1f %% to %+.1f %% (median |error| %.1f %%)", f.reading.c_str(),
                100.0 * f.low, 100.0 * f.high, 100.0 * f.median_magnitude);
  return text;
}

} // namespace

// The replay's judgement, both readings replayed: the one that reproduces the files best by median |error|,
// and whether it does within 10 % at every row (a perf_analyzer measurement repeated on one server spreads by
// a few per cent; a reading that misses by more describes another server, or the files hold what neither
// reading captures). Medians within 0.1 percentage point are a tie: the replay cannot choose, so the reading
// the files' own signatures recommend (`recommended`) stands, and the verdict says so rather than naming
// whichever was asked for "best".
std::string replay_verdict(const ReadingFit& asked, const ReadingFit& other, const std::string& recommended) {
  constexpr double tolerance = 0.10;
  constexpr double tie_median_error = 0.001; // a fraction: 0.1 percentage point of median |error|
  if (!asked.ran && !other.ran) return "verdict: no replay finished; nothing to judge the readings by";
  const bool tied = asked.ran && other.ran &&
                    std::fabs(asked.median_magnitude - other.median_magnitude) <= tie_median_error;
  const ReadingFit& best = tied ? (other.reading == recommended ? other : asked)
                           : !other.ran || (asked.ran && asked.median_magnitude <= other.median_magnitude)
                               ? asked
                               : other;
  const std::string judged =
      tied ? "The two readings reproduce the files equally (median |error| within 0.1 %), so the replay "
             "cannot choose between them; the " +
                 best.reading + " reading the files' signatures recommend stands, "
           : "The " + best.reading + " reading reproduces the files best, ";
  char text[800];
  std::snprintf(text, sizeof text, "verdict: errors by reading: %s; %s. %s%s (every row within %.0f %%: %s)",
                asked.ran ? fit_text(asked).c_str() : (asked.reading + " failed").c_str(),
                other.ran ? fit_text(other).c_str() : (other.reading + " failed").c_str(), judged.c_str(),
                best.worst <= tolerance ? "and within the tolerance" : "but not within the tolerance",
                100.0 * tolerance, best.worst <= tolerance ? "yes" : "no");
  return text;
}

int replay_perf_analyzer(const PerfAnalyzerArguments& arguments, const ImportedFiles& files,
                         nlohmann::ordered_json* document) {
  const TextOutput say{!arguments.json};
  const ExecutionOptions execution = execution_options(arguments.execution, false);
  const std::filesystem::path output_dir = arguments.output_dir.empty()
                                               ? std::filesystem::path("out/import_replay")
                                               : std::filesystem::path(arguments.output_dir);
  ensure_writable_directory(output_dir);
  const auto replays = calibration::perf_analyzer_replays(files.imported, replay_settings(arguments, files));
  // The other reading too, so that the verdict compares them (its rows follow the asked reading's).
  PerfAnalyzerArguments other_arguments = arguments;
  other_arguments.mapping = arguments.mapping == "merged-async" ? "compute-infer" : "merged-async";
  const ImportedFiles other_files = read_perf_analyzer_files(other_arguments);
  const auto other =
      calibration::perf_analyzer_replays(other_files.imported, replay_settings(other_arguments, other_files));
  std::vector<SimulationRequest> requests;
  for (const PerfAnalyzerArguments* reading :
       {&arguments, static_cast<const PerfAnalyzerArguments*>(&other_arguments)})
    for (std::size_t i = 0; i < replays.size(); ++i) {
      SimulationRequest request;
      request.scenario = (reading == &arguments ? replays : other)[i].scenario;
      request.recipe.generated = GeneratedScenario{generator_name, generator_arguments(*reading, i)};
      request.recipe.seed = request.scenario.seed;
      requests.push_back(std::move(request));
    }
  const ExecutionContext context{execution, output_dir, "import replay",
                                 (output_dir / "replay.json").string()};
  const auto simulated = run_or_submit(context, requests);
  if (!simulated) return exit_ok; // submitted: the merge job prints the table and writes replay.json
  const auto& outcomes = *simulated;
  say("\nreplay of perf_analyzer's setup (%d instance(s) per device, dynamic batching %s, %d host cores):\n",
      arguments.instances, arguments.dynamic_batching ? "on" : "off", arguments.host_cores);
  say("%6s %6s %13s %13s %9s %13s\n", "batch", "conc.", "measured /s", "simulated /s", "error",
      "mean executed");
  int failed = 0;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < replays.size(); ++i) {
    nlohmann::ordered_json row{{"file", replays[i].file},
                               {"batch_size", replays[i].batch_size},
                               {"concurrency", replays[i].concurrency},
                               {"measured_inferences_per_s", replays[i].measured_inferences_per_s}};
    if (!outcomes[i].ok) {
      say("%6d %6d  failed: %s\n", replays[i].batch_size, replays[i].concurrency, outcomes[i].error.c_str());
      row["error"] = outcomes[i].error;
      rows.push_back(row);
      ++failed;
      continue;
    }
    const auto& summary = outcomes[i].summary;
    const double measured = replays[i].measured_inferences_per_s;
    const double relative_error = summary.inferences_per_s / measured - 1.0;
    say("%6d %6d %13.5g %13.5g %8.1f%% %13.4g\n", replays[i].batch_size, replays[i].concurrency, measured,
        summary.inferences_per_s, 100.0 * relative_error, summary.mean_executed_batch);
    row["inferences_per_s"] = summary.inferences_per_s;
    row["relative_error"] = relative_error;
    row["mean_executed_batch"] = summary.mean_executed_batch;
    rows.push_back(row);
  }
  const auto verdict = replay_verdict(
      reading_fit(arguments.mapping, replay_errors(replays, outcomes, 0)),
      reading_fit(other_arguments.mapping, replay_errors(other, outcomes, replays.size())),
      measurements::device_time_mapping_name(
          measurements::advise_reading(files.imported, arguments.device == cpu_device_type).reading));
  say("\n%s\n", verdict.c_str());
  const nlohmann::ordered_json out{{"model", arguments.model},
                                   {"reading", arguments.mapping},
                                   {"verdict", verdict},
                                   {"device", arguments.device},
                                   {"instances", arguments.instances},
                                   {"dynamic_batching", arguments.dynamic_batching},
                                   {"host_cores", arguments.host_cores},
                                   {"complete", failed == 0},
                                   {"replays", rows}};
  write_file_atomically(output_dir / "replay.json", json_text(out, 1) + "\n");
  if (document) *document = out;
  say("\nwrote %s\n", (output_dir / "replay.json").string().c_str());
  return failed ? exit_run_failed : exit_ok;
}

} // namespace sonicsim
