#include "sim/measurements/model_analyzer.hpp"

#include "sim/measurements/measurement_error.hpp"
#include "sim/measurements/measurement_fields.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

namespace sonicsim::measurements {
namespace {

std::string lower_trimmed(const std::string& text) {
  std::string out;
  for (const char ch : text)
    if (ch != '\r') out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const auto first = out.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return out.substr(first, out.find_last_not_of(' ') - first + 1);
}

std::optional<std::size_t> find_column(const std::vector<std::string>& header,
                                       const std::vector<std::string>& names) {
  for (std::size_t i = 0; i < header.size(); ++i)
    for (const auto& name : names)
      if (lower_trimmed(header[i]) == name) return i;
  return std::nullopt;
}

// The curve: at each batch size, the row of highest throughput; with what the GPU's utilisation and the
// concurrencies measured say about that peak.
void add_peak_curve(ModelAnalyzerImport& out) {
  std::map<int, const ModelAnalyzerRow*> peak; // per batch size, the row of highest throughput
  for (const auto& row : out.rows) {
    auto& best = peak[row.batch_size];
    if (!best || row.throughput_per_s > best->throughput_per_s) best = &row;
  }
  for (const auto& [batch_size, row] : peak) {
    out.curve_points.emplace_back(batch_size, row->throughput_per_s);
    out.utilisation_at_peak.push_back(row->gpu_utilisation);
    if (row->gpu_utilisation && *row->gpu_utilisation > 0.0 && *row->gpu_utilisation < 0.9)
      out.notes.push_back(
          "batch " + std::to_string(batch_size) + ": the GPU was " +
          std::to_string(static_cast<int>(std::lround(100.0 * *row->gpu_utilisation))) +
          " % busy at the peak: the server, not the device, set this throughput (the device could run "
          "about " +
          std::to_string(static_cast<long>(std::lround(row->throughput_per_s / *row->gpu_utilisation))) +
          "/s); give the host work as compute_input/compute_output");
    const bool saturated_by_concurrency =
        std::any_of(out.rows.begin(), out.rows.end(), [&](const ModelAnalyzerRow& r) {
          return r.batch_size == batch_size && r.concurrency < row->concurrency;
        });
    if (!saturated_by_concurrency)
      out.notes.push_back("batch " + std::to_string(batch_size) +
                          ": only one concurrency measured, so the peak may not be the saturated rate");
  }
}

} // namespace

ModelAnalyzerImport import_model_analyzer(const std::string& path, const std::string& config) {
  const auto records = read_csv_records(path, "Model Analyzer's metrics-model-inference.csv");
  if (records.empty())
    throw MeasurementError(path, 0, "empty file; expected Model Analyzer's metrics-model-inference.csv");
  const std::vector<std::string>& header = records.front().fields;
  const auto batch = find_column(header, {"batch", "batch_size"});
  const auto concurrency = find_column(header, {"concurrency"});
  const auto throughput = find_column(header, {"throughput (infer/sec)", "perf_throughput"});
  const auto latency = find_column(header, {"p99 latency (ms)", "perf_latency_p99"});
  const auto gpu = find_column(header, {"gpu utilization (%)", "gpu_utilization"});
  const auto model = find_column(header, {"model", "model_name"});
  const auto config_column = find_column(header, {"model config path", "model_config_path"});
  for (const auto& [found, name] : {std::pair{batch, "Batch"}, std::pair{concurrency, "Concurrency"},
                                    std::pair{throughput, "Throughput (infer/sec)"}})
    if (!found)
      throw MeasurementError(path, records.front().line,
                             std::string("missing column '") + name +
                                 "'; expected Model Analyzer's metrics-model-inference.csv header");
  std::vector<ModelAnalyzerRow> all;
  for (std::size_t r = 1; r < records.size(); ++r) {
    const auto& [line, fields] = records[r];
    if (fields.size() < header.size())
      throw MeasurementError(path, line,
                             "expected " + std::to_string(header.size()) + " fields, got " +
                                 std::to_string(fields.size()));
    ModelAnalyzerRow row;
    row.line = line;
    // Batch sizes and concurrencies are whole numbers; a throughput of 0 (or above 10^12/s) is no curve
    // point.
    const auto whole = [&](std::size_t index, const char* name, double largest) {
      const double value = non_negative_number(fields[index], name, path, line);
      if (value != std::floor(value) || value < 1.0 || value > largest)
        throw MeasurementError(path, line,
                               std::string("column '") + name + "': got " + trimmed_field(fields[index]) +
                                   "; expected a whole number in 1.." +
                                   std::to_string(static_cast<long>(largest)));
      return static_cast<int>(value);
    };
    row.batch_size = whole(*batch, "Batch", 1e9);
    row.concurrency = whole(*concurrency, "Concurrency", 1e6);
    row.throughput_per_s = non_negative_number(fields[*throughput], "Throughput (infer/sec)", path, line);
    if (!(row.throughput_per_s > 0.0 && row.throughput_per_s <= 1e12))
      throw MeasurementError(path, line,
                             "column 'Throughput (infer/sec)': got " + trimmed_field(fields[*throughput]) +
                                 "; expected a throughput > 0 and at most 1e12 inferences per second");
    if (latency)
      row.p99_latency_s = non_negative_number(fields[*latency], "p99 Latency (ms)", path, line) * 1e-3;
    if (gpu)
      row.gpu_utilisation = non_negative_number(fields[*gpu], "GPU Utilization (%)", path, line) / 100.0;
    if (model) row.model = fields[*model];
    if (config_column) row.config = fields[*config_column];
    all.push_back(row);
  }
  if (all.empty()) throw MeasurementError(path, records.back().line, "no data row after the header");
  ModelAnalyzerImport out;
  for (const auto& row : all)
    if (std::find(out.configs.begin(), out.configs.end(), row.config) == out.configs.end())
      out.configs.push_back(row.config);
  out.config = config.empty() ? out.configs.front() : config;
  if (std::find(out.configs.begin(), out.configs.end(), out.config) == out.configs.end()) {
    std::string known;
    for (const auto& name : out.configs)
      known += (known.empty() ? "" : ", ") + name;
    throw MeasurementError(path, 0, "no configuration '" + out.config + "'; the file has: " + known);
  }
  for (const auto& row : all)
    if (row.config == out.config) out.rows.push_back(row);
  add_peak_curve(out);
  return out;
}

} // namespace sonicsim::measurements
