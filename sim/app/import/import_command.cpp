// `sonicsim import`: turns Triton's own measurement files into the scenario YAML they stand for, printing
// what was read, what was derived and what the files suggest the derivation cannot capture.
//   sonicsim import perf-analyzer FILES... --model M --device D [--batch B] [--input-bytes X --output-bytes
//   Y]
#include "models/throughput_curve.hpp"
#include "sim/app/commands.hpp"
#include "sim/app/common/input_files.hpp"
#include "sim/app/common/scenario_source.hpp"
#include "sim/app/import/import_output.hpp"
#include "sim/app/import/import_replay.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/measurements/perf_analyzer.hpp"
#include "sim/measurements/perf_analyzer_reading.hpp"
#include "sim/metrics/json_fields.hpp"
#include "sim/metrics/number_text.hpp"
#include "sim/scenario/units.hpp"

#include <nlohmann/json.hpp>

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
                     ":\n    points: " + curve_points_yaml(imported.curve_points) + "\n";
  if (files.mapping == measurements::DeviceTimeMapping::merged_async)
    yaml += "    # read as merged-async: one instance with dynamic batching\n";
  yaml += "compute_input: {per_request: \"" + duration_text(imported.compute_input.per_request_s) +
          "\", per_byte: \"" + duration_text(imported.compute_input.per_byte_s) + "\"}\n";
  yaml += "compute_output: {per_request: \"" + duration_text(imported.compute_output.per_request_s) +
          "\", per_byte: \"" + duration_text(imported.compute_output.per_byte_s) + "\"}\n";
  yaml += "client_call: {per_request: \"" + duration_text(imported.client_call.per_request_s) +
          "\", per_byte: \"" + duration_text(imported.client_call.per_byte_s) + "\"}\n";
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
  std::fprintf(out,
               "\nhost costs fitted over the batch sizes (per request + per byte%s; client_call: Client "
               "Send + Recv, on the job's thread):\n",
               files.input_bytes > 0 ? "" : "; no --input-bytes: per request only");
  for (const auto& [name, fit] : {std::pair{"compute_input ", &imported.compute_input},
                                  std::pair{"compute_output", &imported.compute_output},
                                  std::pair{"client_call   ", &imported.client_call}})
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

// What the report says, as one document (--json): the rows read, the curve, the host costs, the notes and
// the reading the files call for, and the YAML.
nlohmann::ordered_json perf_analyzer_json(const PerfAnalyzerArguments& arguments, const ImportedFiles& files,
                                          const std::string& yaml) {
  const auto& imported = files.imported;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& file : imported.files)
    for (const auto& row : file.rows)
      rows.push_back({{"file", file.path},
                      {"line", row.line},
                      {"batch_size", file.batch_size},
                      {"concurrency", row.concurrency},
                      {"queue_s", row.queue_s},
                      {"compute_input_s", row.compute_input_s},
                      {"compute_infer_s", row.compute_infer_s},
                      {"compute_output_s", row.compute_output_s},
                      {"measured_inferences_per_s", row.inferences_per_s}});
  const auto fit = [](const measurements::HostCostFit& f) {
    return nlohmann::ordered_json{{"per_request_s", f.per_request_s},
                                  {"per_byte_s", f.per_byte_s},
                                  {"max_relative_residual", f.max_relative_residual}};
  };
  const auto advice = measurements::advise_reading(imported, arguments.device == cpu_device_type);
  nlohmann::ordered_json out{{"model", arguments.model},
                             {"device", arguments.device},
                             {"reading", measurements::device_time_mapping_name(files.mapping)},
                             {"recommended_reading", measurements::device_time_mapping_name(advice.reading)},
                             {"advice", measurements::reading_advice_text(advice, files.mapping)},
                             {"rows", rows},
                             {"curve_points", curve_points_json(imported.curve_points)},
                             {"compute_input", fit(imported.compute_input)},
                             {"compute_output", fit(imported.compute_output)},
                             {"client_call", fit(imported.client_call)},
                             {"notes", imported.notes},
                             {"yaml", yaml}};
  if (arguments.device == cpu_device_type)
    out["direct_inference"] = direct_inference_statement(imported, arguments.inferences_per_event);
  return out;
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
  if (!arguments.replay && (execution.any_cluster() || !arguments.output_dir.empty()))
    throw InputError("--out, " + cluster_flag_list(true) + " are for the replays: only with --replay");
  if (arguments.inferences_per_event && arguments.device != cpu_device_type)
    throw InputError("--inferences-per-event is for files of a Triton CPU server: only with --device CPU");
  // The output file is checked before any work: never one of the measurements, a folder or a device node.
  const bool yaml_to_file = arguments.yaml && *arguments.yaml != "-";
  const ImportOutput output(
      arguments.yaml, yaml_to_file ? input_paths(arguments.files) : std::vector<fs::path>{}, arguments.json);
  const ImportedFiles files = read_perf_analyzer_files(arguments);
  const std::string yaml = perf_analyzer_yaml(arguments, files);
  // "-": the YAML alone on stdout, the report (and a replay's) on stderr.
  if (!arguments.json) print_perf_analyzer_report(output.report(), arguments, files);
  output.emit(yaml, "scenario YAML");
  int code = exit_ok;
  nlohmann::ordered_json replay;
  if (arguments.replay) code = replay_perf_analyzer(arguments, files, &replay);
  if (arguments.json) {
    auto document = perf_analyzer_json(arguments, files, yaml);
    if (arguments.replay) document["replay"] = replay; // null when submitted to a cluster
    std::printf("%s\n", json_text(document, 1).c_str());
  }
  return code;
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
  // Paths checked where the command runs (sim/app/common/input_files.hpp says why not here).
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
  perf->add_flag("--json", arguments->json,
                 "Print the import as one JSON document on stdout (the rows read, the curve, the host costs, "
                 "the reading advice, the YAML and, with --replay, the replay), and nothing else there");
  add_execution_options(*perf, arguments->execution, ExecutionShape::simulations, "the replays (--replay)");
  register_replay_generator();
  perf->callback([arguments, &result]() { result = guarded(*arguments, import_perf_analyzer); });
  register_import_model_files(*command, result);
  register_import_supersonic(*command, result);
}

} // namespace sonicsim
