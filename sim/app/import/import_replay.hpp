// `sonicsim import perf-analyzer --replay`: perf_analyzer's own setup simulated with what was imported, one
// simulation per file and concurrency, here or on a cluster (--slurm) like every other command. The replay
// scenarios exist in no file: their recipe names the generator "perf_analyzer_replay", which rebuilds them
// from the measurement files and the import's options in the array task.
#pragma once

#include "sim/app/common/execution_flags.hpp"
#include "sim/measurements/perf_analyzer.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

struct PerfAnalyzerArguments {
  std::vector<std::string> files;
  std::string model = "MODEL";
  std::string device = "T4";
  std::optional<int> batch;
  std::string input_bytes = "0B";  // per inference, as sent
  std::string output_bytes = "0B"; // per inference
  std::string mapping = "compute-infer";
  bool replay = false;
  int instances = 1;
  bool dynamic_batching = false;
  int max_batch_size = 0;
  int host_cores = 128;
  std::string output_dir; // replay: replay.json and a cluster's files (default out/import_replay)
  // Where the scenario YAML goes: not given, after the report on stdout; "-", alone on stdout (the report on
  // stderr); a file, there (the report on stdout). The last two keep the YAML valid when redirected.
  std::optional<std::string> yaml;
  // --device CPU: the model's inferences per event, to state a direct-inference time per event.
  std::optional<double> inferences_per_event;
  bool json = false; // --json: one document on stdout (the report's content, the YAML, the replay)
  ExecutionFlags execution{2};
};

// The files read as the options say (sizes checked: InputError naming the option).
struct ImportedFiles {
  measurements::PerfAnalyzerImport imported;
  double input_bytes = 0.0, output_bytes = 0.0;
  measurements::DeviceTimeMapping mapping = measurements::DeviceTimeMapping::compute_infer;
};
ImportedFiles read_perf_analyzer_files(const PerfAnalyzerArguments& arguments);

// Runs the replays (or submits them), prints measured against simulated Inferences/s (not with --json) and
// writes replay.json, whose content it also puts in `document` (when given); exit 1 when a replay failed.
int replay_perf_analyzer(const PerfAnalyzerArguments& arguments, const ImportedFiles& files,
                         nlohmann::ordered_json* document = nullptr);

// How well one reading's replays reproduce the files: signed errors' range, median and largest |error|.
struct ReadingFit {
  std::string reading; // "compute-infer" or "merged-async"
  double low = 0.0, high = 0.0, median_magnitude = 0.0, worst = 0.0;
  bool ran = false; // at least one replay of this reading finished
};

// The verdict line over both readings; `recommended` is the reading the files' signatures call for, which
// stands when the replays tie.
std::string replay_verdict(const ReadingFit& asked, const ReadingFit& other, const std::string& recommended);

// Makes "perf_analyzer_replay" known to ScenarioRecipe::rebuild() in this process.
void register_replay_generator();

} // namespace sonicsim
