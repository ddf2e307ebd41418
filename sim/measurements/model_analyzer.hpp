// Triton Model Analyzer's inference table (results/metrics-model-inference.csv): one row per (model
// configuration, batch size, concurrency) with the throughput perf_analyzer measured, its latency and, when
// Model Analyzer collected it, the GPU utilisation. Pure code.
//
// The curve it stands for: per batch size, the highest throughput over the concurrencies of one configuration
// (the server saturated). That is the whole server's rate, host work included; where the GPU utilisation u
// is given and below 1, the device itself could run throughput / u, and the import says so.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sonicsim::measurements {

struct ModelAnalyzerRow {
  int line = 0;
  std::string model;
  std::string config; // "Model Config Path" (e.g. particlenet_config_3); empty when absent
  int batch_size = 0;
  int concurrency = 0;
  double throughput_per_s = 0.0;
  std::optional<double> p99_latency_s;
  std::optional<double> gpu_utilisation; // 0..1
};

struct ModelAnalyzerImport {
  std::vector<ModelAnalyzerRow> rows;                     // of the chosen configuration
  std::string config;                                     // the one chosen
  std::vector<std::string> configs;                       // every configuration in the file
  std::vector<std::pair<double, double>> curve_points;    // (batch, highest throughput), sorted
  std::vector<std::optional<double>> utilisation_at_peak; // the GPU utilisation of each point's row
  std::vector<std::string> notes;
};

// Columns are found by Model Analyzer's headers ("Batch", "Concurrency", "Throughput (infer/sec)", "p99
// Latency (ms)", "GPU Utilization (%)", "Model", "Model Config Path") or its metric tags (batch_size,
// concurrency, perf_throughput, perf_latency_p99, gpu_utilization, model_name, model_config_path). `config`
// picks one configuration (default: the first in the file). Throws MeasurementError naming the file and line
// for a missing column, a bad number, no row, or an unknown configuration.
ModelAnalyzerImport import_model_analyzer(const std::string& path, const std::string& config = "");

} // namespace sonicsim::measurements
