// `sonicsim import`: turns Triton's own measurement files into the scenario YAML they stand for, printing
// what was read, what was derived and what the files suggest the derivation cannot capture.
//   sonicsim import perf-analyzer FILES... --model M --device D [--batch B] [--input-bytes X --output-bytes
//   Y]
#include "models/throughput_curve.hpp"
#include "sim/app/commands.hpp"
#include "sim/app/import_output.hpp"
#include "sim/app/import_replay.hpp"
#include "sim/app/input_files.hpp"
#include "sim/app/scenario_source.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/measurements/model_analyzer.hpp"
#include "sim/measurements/perf_analyzer.hpp"
#include "sim/measurements/perf_analyzer_reading.hpp"
#include "sim/measurements/triton_config.hpp"
#include "sim/metrics/number_text.hpp"
#include "sim/scenario/units.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace sonicsim {
namespace {

// A duration in the unit that keeps it readable, as the scenario reader accepts it.
std::string duration_text(double seconds) {
  char buffer[64];
  if (seconds == 0.0) return "0s";
  if (seconds >= 1e-3)
    std::snprintf(buffer, sizeof buffer, "%.6gms", seconds * 1e3);
  else if (seconds >= 1e-6)
    std::snprintf(buffer, sizeof buffer, "%.6gus", seconds * 1e6);
  else
    std::snprintf(buffer, sizeof buffer, "%.6gns", seconds * 1e9);
  return buffer;
}

// What files of a Triton CPU server can say about direct inference (the model on the job's own CPU).
std::string direct_inference_statement(const measurements::PerfAnalyzerImport& imported,
                                       std::optional<double> inferences_per_event) {
  std::string text =
      "direct inference: these files time the model on a Triton CPU server (the measuring host's cores, one "
      "instance). They give a direct-inference time per event only as an estimate: on that host's CPU (scale "
      "by the client's CPU speed), with Triton's own thread settings, and without the framework's overhead "
      "in the client (CMSSW's), which a measured direct time per event includes; prefer a measured one.";
  if (!inferences_per_event) return text + " Give --inferences-per-event N for the estimate.";
  const models::ThroughputCurve curve(imported.curve_points);
  const double n = *inferences_per_event;
  // The estimate becomes a scenario duration: at most 10 years, as the loader bounds every duration.
  if (!(curve.batch_time_s(n) <= 10 * 365.25 * 86400))
    throw InputError(
        "--inferences-per-event " + significant(n) +
        ": the curve's batch of that size takes more than 10 years; expected the model's inferences "
        "per event (e.g. 55000)");
  char line[256];
  std::snprintf(
      line, sizeof line,
      " For %.4g inferences per event sent as one request, the curve's batch of %.4g takes %.4g ms: "
      "direct: \"%.4gms\" (an estimate, as above).",
      n, n, curve.batch_time_s(n) * 1e3, curve.batch_time_s(n) * 1e3);
  return text + line;
}

// The scenario YAML the import stands for: valid YAML on its own (comments and the model's keys).
std::string perf_analyzer_yaml(const PerfAnalyzerArguments& arguments, const ImportedFiles& files) {
  const auto& imported = files.imported;
  std::string yaml = "# YAML: under models." + arguments.model +
                     " (the curve may instead read the files: "
                     "throughput: {" +
                     arguments.device + ": {perf_analyzer: [FILES]}})\nthroughput:\n  " + arguments.device +
                     ":\n    points: [";
  char number[96];
  for (std::size_t i = 0; i < imported.curve_points.size(); ++i) {
    std::snprintf(number, sizeof number, "%s[%.6g, %.6g]", i ? ", " : "", imported.curve_points[i].first,
                  imported.curve_points[i].second);
    yaml += number;
  }
  yaml += "]\n";
  if (files.mapping == measurements::DeviceTimeMapping::merged_async)
    yaml += "    # read as merged-async: one instance with dynamic batching\n";
  yaml += "compute_input: {per_request: \"" + duration_text(imported.compute_input.per_request_s) +
          "\", per_byte: \"" + duration_text(imported.compute_input.per_byte_s) + "\"}\n";
  yaml += "compute_output: {per_request: \"" + duration_text(imported.compute_output.per_request_s) +
          "\", per_byte: \"" + duration_text(imported.compute_output.per_byte_s) + "\"}\n";
  return yaml;
}

void print_perf_analyzer_report(FILE* out, const PerfAnalyzerArguments& arguments,
                                const ImportedFiles& files) {
  const auto& imported = files.imported;
  std::fprintf(out, "perf_analyzer: %zu file(s), model %s on %s, device time: %s\n\n", imported.files.size(),
               arguments.model.c_str(), arguments.device.c_str(),
               measurements::device_time_mapping_name(files.mapping));
  std::fprintf(out, "%6s %6s %11s %11s %11s %11s %11s %13s %13s\n", "batch", "conc.", "queue us", "input us",
               "infer us", "output us", "device /s", "measured /s", "1 instance /s");
  for (const auto& file : imported.files)
    for (const auto& row : file.rows) {
      const double b = file.batch_size;
      std::fprintf(out, "%6d %6d %11.0f %11.0f %11.0f %11.0f %11.5g %13.5g %13.5g\n", file.batch_size,
                   row.concurrency, row.queue_s * 1e6, row.compute_input_s * 1e6, row.compute_infer_s * 1e6,
                   row.compute_output_s * 1e6, b / row.compute_infer_s, row.inferences_per_s,
                   b / (row.compute_input_s + row.compute_infer_s + row.compute_output_s));
    }
  std::fprintf(
      out, "\n  device /s      batch / Server Compute Infer: the curve (perf_analyzer's device time)\n"
           "  measured /s    Inferences/Second at the file's concurrency: to check a re-simulation against\n"
           "  1 instance /s  batch / (input + infer + output): one instance running one request at a time\n");
  std::fprintf(out, "\nserver host costs fitted over the batch sizes (per request + per byte%s):\n",
               files.input_bytes > 0 ? "" : "; no --input-bytes: per request only");
  for (const auto& [name, fit] : {std::pair{"compute_input ", &imported.compute_input},
                                  std::pair{"compute_output", &imported.compute_output}})
    std::fprintf(out, "  %s: %s per request + %s per byte (largest residual %.0f %%)\n", name,
                 duration_text(fit->per_request_s).c_str(), duration_text(fit->per_byte_s).c_str(),
                 100.0 * fit->max_relative_residual);
  if (!imported.notes.empty()) {
    std::fprintf(out, "\nwhat the files suggest the import cannot capture:\n");
    for (const auto& note : imported.notes)
      std::fprintf(out, "  - %s\n", note.c_str());
  }
  std::fprintf(out, "\n%s\n",
               measurements::reading_advice_text(
                   measurements::advise_reading(imported, arguments.device == cpu_device_type), files.mapping)
                   .c_str());
  if (arguments.device == cpu_device_type)
    std::fprintf(out, "\n%s\n", direct_inference_statement(imported, arguments.inferences_per_event).c_str());
}

// The files a command reads: those named, and those inside the folders named.
std::vector<fs::path> input_paths(const std::vector<std::string>& named) {
  std::vector<fs::path> paths;
  for (const auto& name : named) {
    paths.emplace_back(name);
    std::error_code error;
    if (!fs::is_directory(name, error)) continue;
    for (fs::directory_iterator it(name, error), end; !error && it != end; it.increment(error))
      paths.push_back(it->path());
  }
  return paths;
}

int import_perf_analyzer(const PerfAnalyzerArguments& arguments) {
  for (const auto& path : arguments.files)
    require_input_path(path, "perf_analyzer CSV files, or folders of them");
  // Where and how replays run means nothing without them.
  const auto& execution = arguments.execution;
  if (!arguments.replay && (execution.slurm || execution.slurm_dry_run || !arguments.output_dir.empty()))
    throw InputError("--out, --slurm and --slurm-dry-run are for the replays: only with --replay");
  if (arguments.inferences_per_event && arguments.device != cpu_device_type)
    throw InputError("--inferences-per-event is for files of a Triton CPU server: only with --device CPU");
  // The output file is checked before any work: never one of the measurements, a folder or a device node.
  const bool yaml_to_file = arguments.yaml && *arguments.yaml != "-";
  const ImportOutput output(arguments.yaml,
                            yaml_to_file ? input_paths(arguments.files) : std::vector<fs::path>{});
  const ImportedFiles files = read_perf_analyzer_files(arguments);
  const std::string yaml = perf_analyzer_yaml(arguments, files);
  // "-": the YAML alone on stdout, the report (and a replay's) on stderr.
  print_perf_analyzer_report(output.report(), arguments, files);
  output.emit(yaml, "scenario YAML");
  if (!arguments.replay) return exit_ok;
  return replay_perf_analyzer(arguments, files);
}

struct ModelAnalyzerArguments {
  std::string file;
  std::string config;
  std::string model = "MODEL";
  std::string device = "T4";
};

int import_model_analyzer(const ModelAnalyzerArguments& arguments) {
  require_input_file(arguments.file, "Model Analyzer's metrics-model-inference.csv");
  const auto imported = measurements::import_model_analyzer(arguments.file, arguments.config);
  std::printf("Model Analyzer: %s, configuration '%s' (%zu in the file), model %s on %s\n\n",
              arguments.file.c_str(), imported.config.c_str(), imported.configs.size(),
              arguments.model.c_str(), arguments.device.c_str());
  std::printf("%6s %6s %14s %12s %8s\n", "batch", "conc.", "throughput /s", "p99 ms", "GPU %");
  for (const auto& row : imported.rows) {
    std::printf("%6d %6d %14.6g", row.batch_size, row.concurrency, row.throughput_per_s);
    if (row.p99_latency_s)
      std::printf(" %12.4g", *row.p99_latency_s * 1e3);
    else
      std::printf(" %12s", "-");
    if (row.gpu_utilisation)
      std::printf(" %8.1f\n", 100.0 * *row.gpu_utilisation);
    else
      std::printf(" %8s\n", "-");
  }
  std::printf("\n  the curve: per batch size, the highest throughput over the concurrencies (the server "
              "saturated), host work included\n");
  if (!imported.notes.empty()) {
    std::printf("\nwhat the file suggests the import cannot capture:\n");
    for (const auto& note : imported.notes)
      std::printf("  - %s\n", note.c_str());
  }
  std::printf("\n# YAML: under models.%s\nthroughput:\n  %s:\n    points: [", arguments.model.c_str(),
              arguments.device.c_str());
  for (std::size_t i = 0; i < imported.curve_points.size(); ++i)
    std::printf("%s[%.6g, %.6g]", i ? ", " : "", imported.curve_points[i].first,
                imported.curve_points[i].second);
  std::printf("]\n");
  return exit_ok;
}

struct TritonConfigArguments {
  std::string file;
  std::string model = "MODEL";
};

int import_triton_config(const TritonConfigArguments& arguments) {
  require_input_file(arguments.file, "a Triton config.pbtxt");
  const auto config = measurements::read_triton_config(arguments.file);
  std::printf("config.pbtxt: %s\n", arguments.file.c_str());
  if (!config.notes.empty()) {
    std::printf("\nnot simulated (named so that nothing is dropped silently):\n");
    for (const auto& note : config.notes)
      std::printf("  - %s\n", note.c_str());
  }
  std::printf("\n# YAML: under models.%s (or write triton_config: %s there)\n", arguments.model.c_str(),
              arguments.file.c_str());
  if (config.input_bytes_per_inference)
    std::printf("input_bytes_per_inference: \"%.10gB\"\n", *config.input_bytes_per_inference);
  if (config.output_bytes_per_inference)
    std::printf("output_bytes_per_inference: \"%.10gB\"\n", *config.output_bytes_per_inference);
  std::printf("triton:\n  max_batch_size: %d\n", config.max_batch_size);
  if (!config.instance_groups.empty()) {
    std::printf("  instance_group: [");
    for (std::size_t i = 0; i < config.instance_groups.size(); ++i) {
      const auto& group = config.instance_groups[i];
      std::printf("%s{count: %d, kind: %s", i ? ", " : "", group.count, group.cpu ? "CPU" : "GPU");
      if (!group.gpus.empty()) {
        std::printf(", gpus: [");
        for (std::size_t g = 0; g < group.gpus.size(); ++g)
          std::printf("%s%d", g ? ", " : "", group.gpus[g]);
        std::printf("]");
      }
      std::printf("}");
    }
    std::printf("]\n");
  }
  if (config.dynamic_batching) {
    std::printf("  dynamic_batching:\n    preferred_batch_size: [");
    for (std::size_t i = 0; i < config.preferred_batch_sizes.size(); ++i)
      std::printf("%s%d", i ? ", " : "", config.preferred_batch_sizes[i]);
    std::printf("]\n    max_queue_delay: \"%.10gus\"\n", config.max_queue_delay_s * 1e6);
    if (config.max_queue_size || config.timeout_s)
      std::printf("    default_queue_policy: {max_queue_size: %d, timeout: \"%.10gus\"}\n",
                  config.max_queue_size.value_or(0), config.timeout_s.value_or(0.0) * 1e6);
  }
  return exit_ok;
}

} // namespace

void register_import_command(CLI::App& app, int& result) {
  auto* command =
      app.add_subcommand("import", "Turn Triton measurement files and SuperSONIC values into scenario YAML");
  command->require_subcommand(1);
  auto arguments = std::make_shared<PerfAnalyzerArguments>();
  auto* perf = command->add_subcommand(
      "perf-analyzer",
      "perf_analyzer -f CSV files (one per batch size): the device curve (batch / Server Compute "
      "Infer) and the server host costs (Compute Input, Compute Output)");
  // Paths checked where the command runs (sim/app/input_files.hpp says why not here).
  perf->add_option("files", arguments->files, "perf_analyzer CSV files, or folders of them")->required();
  perf->add_option("--yaml", arguments->yaml,
                   "Write the scenario YAML to this file (the report stays on stdout), or '-' for the YAML "
                   "alone on stdout with the report on stderr: valid YAML when redirected");
  perf->add_option("--inferences-per-event", arguments->inferences_per_event,
                   "With --device CPU: the model's inferences per event, for an estimate of its direct-"
                   "inference time per event (and what the files cannot give)")
      // The scenario's own bound on inferences (integers 1..10^9; a mean may be fractional, as 2.79 taus).
      ->check(CLI::Range(1e-3, 1e9));
  perf->add_option("--model", arguments->model, "Model name for the YAML (default: MODEL)")
      ->check(plain_name);
  perf->add_option("--device", arguments->device, "Device type of the measurement (default: T4)")
      ->check(plain_name);
  perf->add_option("--batch", arguments->batch,
                   "Client batch size of every file (default: from each file name, e.g. _batch64.csv)")
      ->check(CLI::Range(1, 1000000000));
  perf->add_option("--input-bytes", arguments->input_bytes,
                   "Bytes sent per inference, to fit Compute Input per byte (e.g. 9216B)");
  perf->add_option("--output-bytes", arguments->output_bytes, "Bytes returned per inference (e.g. 32B)");
  perf->add_option(
          "--device-time", arguments->mapping,
          "compute-infer (perf_analyzer's definition, default) or merged-async (an asynchronous backend "
          "with one instance and dynamic batching: infer + output of k merged requests)")
      ->check(CLI::IsMember({"compute-infer", "merged-async"}));
  perf->add_flag(
      "--replay", arguments->replay,
      "Simulate perf_analyzer's setup for every file with what was imported and compare Inferences/s");
  perf->add_option("--instances", arguments->instances, "Replay: instances per device (default 1)")
      ->check(CLI::Range(1, 64));
  perf->add_flag("--dynamic-batching", arguments->dynamic_batching, "Replay: the dynamic batcher on");
  perf->add_option("--max-batch-size", arguments->max_batch_size,
                   "Replay: Triton max_batch_size (default: the largest batch imported)")
      ->check(CLI::Range(1, 1000000000));
  perf->add_option("--host-cores", arguments->host_cores, "Replay: server host cores (default 128)")
      ->check(CLI::Range(1, 1024));
  perf->add_option(
      "--out", arguments->output_dir,
      "Replay: the directory of replay.json (and of a cluster's files; default out/import_replay)");
  add_execution_options(*perf, arguments->execution, ExecutionShape::simulations, "the replays (--replay)");
  register_replay_generator();
  perf->callback([arguments, &result]() { result = guarded(*arguments, import_perf_analyzer); });
  auto analyzer_arguments = std::make_shared<ModelAnalyzerArguments>();
  auto* analyzer = command->add_subcommand(
      "model-analyzer",
      "Model Analyzer's metrics-model-inference.csv: per batch size, the saturated throughput of "
      "one model configuration");
  // Files checked where the commands run (sim/app/input_files.hpp says why not here).
  analyzer->add_option("file", analyzer_arguments->file, "metrics-model-inference.csv")->required();
  analyzer->add_option("--config", analyzer_arguments->config,
                       "Model configuration (Model Config Path; default: the first in the file)");
  analyzer->add_option("--model", analyzer_arguments->model, "Model name for the YAML (default: MODEL)")
      ->check(plain_name);
  analyzer->add_option("--device", analyzer_arguments->device, "Device type of the measurement (default: T4)")
      ->check(plain_name);
  analyzer->callback(
      [analyzer_arguments, &result]() { result = guarded(*analyzer_arguments, import_model_analyzer); });
  auto config_arguments = std::make_shared<TritonConfigArguments>();
  auto* config = command->add_subcommand(
      "triton-config",
      "A Triton config.pbtxt: max_batch_size, bytes per inference from the inputs' and outputs' "
      "dims, instance_group, dynamic_batching; every other field named");
  config->add_option("file", config_arguments->file, "config.pbtxt")->required();
  config->add_option("--model", config_arguments->model, "Model name for the YAML (default: MODEL)")
      ->check(plain_name);
  config->callback(
      [config_arguments, &result]() { result = guarded(*config_arguments, import_triton_config); });
  register_import_supersonic(*command, result);
}

} // namespace sonicsim
