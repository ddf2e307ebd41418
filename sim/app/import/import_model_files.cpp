// `sonicsim import model-analyzer` and `sonicsim import triton-config`: a Model Analyzer table and a Triton
// model configuration turned into the model's YAML, printing what was read and what is not simulated.
#include "sim/app/commands.hpp"
#include "sim/app/common/input_files.hpp"
#include "sim/app/common/scenario_source.hpp"
#include "sim/app/import/import_output.hpp"
#include "sim/measurements/model_analyzer.hpp"
#include "sim/measurements/triton_config.hpp"
#include "sim/metrics/json_fields.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>
#include <string>

namespace sonicsim {
namespace {

struct ModelAnalyzerArguments {
  std::string file;
  std::string config;
  std::string model = "MODEL";
  std::string device = "T4";
  bool json = false;
};

// The model's YAML the table stands for: its curve.
std::string model_analyzer_yaml(const ModelAnalyzerArguments& arguments,
                                const measurements::ModelAnalyzerImport& imported) {
  return "throughput:\n  " + arguments.device + ":\n    points: " + curve_points_yaml(imported.curve_points) +
         "\n";
}

// The import as one document (--json): the rows read, the curve, the notes and the YAML.
void print_model_analyzer_json(const ModelAnalyzerArguments& arguments,
                               const measurements::ModelAnalyzerImport& imported) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& row : imported.rows)
    rows.push_back({{"batch_size", row.batch_size},
                    {"concurrency", row.concurrency},
                    {"throughput_per_s", row.throughput_per_s},
                    {"p99_latency_s", value_or_null(row.p99_latency_s)},
                    {"gpu_utilisation", value_or_null(row.gpu_utilisation)}});
  const nlohmann::ordered_json out{{"file", arguments.file},
                                   {"config", imported.config},
                                   {"configs_in_file", imported.configs.size()},
                                   {"model", arguments.model},
                                   {"device", arguments.device},
                                   {"rows", rows},
                                   {"curve_points", curve_points_json(imported.curve_points)},
                                   {"notes", imported.notes},
                                   {"yaml", model_analyzer_yaml(arguments, imported)}};
  std::printf("%s\n", json_text(out, 1).c_str());
}

int import_model_analyzer(const ModelAnalyzerArguments& arguments) {
  require_input_file(arguments.file, "Model Analyzer's metrics-model-inference.csv");
  const auto imported = measurements::import_model_analyzer(arguments.file, arguments.config);
  if (arguments.json) {
    print_model_analyzer_json(arguments, imported);
    return exit_ok;
  }
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
  std::printf("\n# YAML: under models.%s\n%s", arguments.model.c_str(),
              model_analyzer_yaml(arguments, imported).c_str());
  return exit_ok;
}

struct TritonConfigArguments {
  std::string file;
  std::string model = "MODEL";
  bool json = false;
};

// printf into a string.
template <typename... Values> void append(std::string& text, const char* format, Values... values) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, format, values...);
  text += buffer;
}

// The model's YAML a config.pbtxt stands for.
std::string triton_config_yaml(const measurements::TritonConfig& config) {
  std::string yaml;
  if (config.input_bytes_per_inference)
    append(yaml, "input_bytes_per_inference: \"%.10gB\"\n", *config.input_bytes_per_inference);
  if (config.output_bytes_per_inference)
    append(yaml, "output_bytes_per_inference: \"%.10gB\"\n", *config.output_bytes_per_inference);
  append(yaml, "triton:\n  max_batch_size: %d\n", config.max_batch_size);
  if (!config.instance_groups.empty()) {
    yaml += "  instance_group: [";
    for (std::size_t i = 0; i < config.instance_groups.size(); ++i) {
      const auto& group = config.instance_groups[i];
      append(yaml, "%s{count: %d, kind: %s", i ? ", " : "", group.count, group.cpu ? "CPU" : "GPU");
      if (!group.gpus.empty()) {
        yaml += ", gpus: [";
        for (std::size_t g = 0; g < group.gpus.size(); ++g)
          append(yaml, "%s%d", g ? ", " : "", group.gpus[g]);
        yaml += "]";
      }
      yaml += "}";
    }
    yaml += "]\n";
  }
  if (config.dynamic_batching) {
    yaml += "  dynamic_batching:\n    preferred_batch_size: [";
    for (std::size_t i = 0; i < config.preferred_batch_sizes.size(); ++i)
      append(yaml, "%s%d", i ? ", " : "", config.preferred_batch_sizes[i]);
    append(yaml, "]\n    max_queue_delay: \"%.10gus\"\n", config.max_queue_delay_s * 1e6);
    if (config.max_queue_size || config.timeout_s)
      append(yaml, "    default_queue_policy: {max_queue_size: %d, timeout: \"%.10gus\"}\n",
             config.max_queue_size.value_or(0), config.timeout_s.value_or(0.0) * 1e6);
  }
  return yaml;
}

int import_triton_config(const TritonConfigArguments& arguments) {
  require_input_file(arguments.file, "a Triton config.pbtxt");
  const auto config = measurements::read_triton_config(arguments.file);
  const std::string yaml = triton_config_yaml(config);
  if (arguments.json) {
    const nlohmann::ordered_json out{{"file", arguments.file},
                                     {"model", arguments.model},
                                     {"not_simulated", config.notes},
                                     {"yaml", yaml}};
    std::printf("%s\n", json_text(out, 1).c_str());
    return exit_ok;
  }
  std::printf("config.pbtxt: %s\n", arguments.file.c_str());
  if (!config.notes.empty()) {
    std::printf("\nnot simulated (named so that nothing is dropped silently):\n");
    for (const auto& note : config.notes)
      std::printf("  - %s\n", note.c_str());
  }
  std::printf("\n# YAML: under models.%s (or write triton_config: %s there)\n%s", arguments.model.c_str(),
              arguments.file.c_str(), yaml.c_str());
  return exit_ok;
}

} // namespace

void register_import_model_files(CLI::App& import_command, int& result) {
  auto analyzer_arguments = std::make_shared<ModelAnalyzerArguments>();
  auto* analyzer = import_command.add_subcommand(
      "model-analyzer",
      "Model Analyzer's metrics-model-inference.csv: per batch size, the saturated throughput of "
      "one model configuration");
  // Files checked where the commands run (sim/app/common/input_files.hpp says why not here).
  analyzer->add_option("file", analyzer_arguments->file, "metrics-model-inference.csv")->required();
  analyzer->add_option("--config", analyzer_arguments->config,
                       "Model configuration (Model Config Path; default: the first in the file)");
  analyzer->add_option("--model", analyzer_arguments->model, "Model name for the YAML (default: MODEL)")
      ->check(plain_name);
  analyzer->add_option("--device", analyzer_arguments->device, "Device type of the measurement (default: T4)")
      ->check(plain_name);
  analyzer->add_flag(
      "--json", analyzer_arguments->json,
      "Print the import as one JSON document on stdout (rows, curve, notes, YAML), and nothing "
      "else there");
  analyzer->callback(
      [analyzer_arguments, &result]() { result = guarded(*analyzer_arguments, import_model_analyzer); });
  auto config_arguments = std::make_shared<TritonConfigArguments>();
  auto* config = import_command.add_subcommand(
      "triton-config",
      "A Triton config.pbtxt: max_batch_size, bytes per inference from the inputs' and outputs' "
      "dims, instance_group, dynamic_batching; every other field named");
  config->add_option("file", config_arguments->file, "config.pbtxt")->required();
  config->add_option("--model", config_arguments->model, "Model name for the YAML (default: MODEL)")
      ->check(plain_name);
  config->add_flag("--json", config_arguments->json,
                   "Print the import as one JSON document on stdout (what is not simulated, the YAML), and "
                   "nothing else there");
  config->callback(
      [config_arguments, &result]() { result = guarded(*config_arguments, import_triton_config); });
}

} // namespace sonicsim
