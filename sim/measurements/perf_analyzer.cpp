#include "sim/measurements/perf_analyzer.hpp"

#include "models/fits.hpp"
#include "sim/measurements/measurement_error.hpp"
#include "sim/measurements/measurement_fields.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <regex>

namespace sonicsim::measurements {
namespace {

constexpr double seconds_per_us = 1e-6;

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

std::string format(const char* pattern, double value) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

// per_request + bytes x per_byte through (bytes, seconds), both coefficients kept >= 0: a negative intercept
// is refitted through the origin, a negative slope replaced by the mean.
HostCostFit fit_cost(const std::vector<double>& bytes, const std::vector<double>& seconds) {
  HostCostFit fit;
  const bool distinct = bytes.size() >= 2 &&
                        std::any_of(bytes.begin(), bytes.end(), [&](double b) { return b != bytes.front(); });
  // Without distinct sizes, or when the line slopes down, the cost is a constant: the mean per request.
  bool use_mean = !distinct;
  if (distinct) {
    const auto line = models::fit_line(bytes, seconds);
    fit.per_request_s = line.intercept;
    fit.per_byte_s = line.slope;
    if (fit.per_byte_s < 0.0) {
      use_mean = true;
    } else if (fit.per_request_s < 0.0) {
      double xy = 0.0, xx = 0.0;
      for (std::size_t i = 0; i < bytes.size(); ++i) {
        xy += bytes[i] * seconds[i];
        xx += bytes[i] * bytes[i];
      }
      fit.per_request_s = 0.0;
      fit.per_byte_s = xx > 0.0 ? xy / xx : 0.0;
    }
  }
  if (use_mean) {
    fit.per_byte_s = 0.0;
    double sum = 0.0;
    for (const double s : seconds)
      sum += s;
    fit.per_request_s = seconds.empty() ? 0.0 : sum / static_cast<double>(seconds.size());
  }
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const double predicted = fit.per_request_s + bytes[i] * fit.per_byte_s;
    if (seconds[i] > 0.0)
      fit.max_relative_residual =
          std::max(fit.max_relative_residual, std::fabs(predicted - seconds[i]) / seconds[i]);
  }
  return fit;
}

// One data row of the table, each cell bounded (a corrupted cell is told at its line and column).
PerfAnalyzerRow read_row(const std::string& path, int line, const std::vector<std::string>& fields,
                         const std::map<std::string, std::size_t>& column) {
  // Bounds: a count of requests in flight is a whole number a client can hold; a time above 10^12 us (11.6
  // days per request) or a rate above 10^12 per second is a corrupted cell, and would overflow the sums.
  const auto value = [&](const char* name) {
    const double number = non_negative_number(fields[column.at(name)], name, path, line);
    if (number > 1e12)
      throw MeasurementError(path, line,
                             std::string("column '") + name + "': got " +
                                 trimmed_field(fields[column.at(name)]) +
                                 "; expected at most 1e12 (microseconds, or inferences per second)");
    // perf_analyzer writes whole microseconds: a time in (0, 0.001 us) is a corrupted cell, and relative
    // residuals against it overflow.
    if (number > 0.0 && number < 1e-3)
      throw MeasurementError(path, line,
                             std::string("column '") + name + "': got " +
                                 trimmed_field(fields[column.at(name)]) +
                                 "; expected 0 or at least 0.001 (perf_analyzer writes whole microseconds)");
    return number;
  };
  PerfAnalyzerRow row;
  row.line = line;
  const double concurrency = value("Concurrency");
  if (concurrency != std::floor(concurrency) || concurrency < 1.0 || concurrency > 100000.0)
    throw MeasurementError(path, line,
                           "column 'Concurrency': got " + trimmed_field(fields[column.at("Concurrency")]) +
                               "; expected a whole number of requests in flight in 1..100000");
  row.concurrency = static_cast<int>(concurrency);
  row.inferences_per_s = value("Inferences/Second");
  row.client_send_s = value("Client Send") * seconds_per_us;
  row.network_s = value("Network+Server Send/Recv") * seconds_per_us;
  row.queue_s = value("Server Queue") * seconds_per_us;
  row.compute_input_s = value("Server Compute Input") * seconds_per_us;
  row.compute_infer_s = value("Server Compute Infer") * seconds_per_us;
  row.compute_output_s = value("Server Compute Output") * seconds_per_us;
  row.client_recv_s = value("Client Recv") * seconds_per_us;
  row.p50_s = value("p50 latency") * seconds_per_us;
  row.p90_s = value("p90 latency") * seconds_per_us;
  row.p95_s = value("p95 latency") * seconds_per_us;
  row.p99_s = value("p99 latency") * seconds_per_us;
  // The curve is batch / compute infer: a device time below 1 ns per request (or 0) gives no finite curve.
  if (row.compute_infer_s < 1e-9)
    throw MeasurementError(path, line,
                           "column 'Server Compute Infer': got " +
                               trimmed_field(fields[column.at("Server Compute Infer")]) +
                               " us; expected a device time of at least 0.001 us to build a curve from");
  return row;
}

// Each row checked against the end-to-end figure, with one instance executing requests one at a time: what
// the mapping of perf_analyzer's times to a device curve should know.
void add_row_notes(const PerfAnalyzerFile& file, std::vector<std::string>& notes) {
  const double b = file.batch_size;
  for (const auto& row : file.rows) {
    const double one_instance_per_s = b / (row.compute_input_s + row.compute_infer_s + row.compute_output_s);
    const double device_per_s = b / row.compute_infer_s;
    const std::string where = file.path + ":" + std::to_string(row.line) + ": ";
    if (row.inferences_per_s > 1.2 * one_instance_per_s)
      notes.push_back(where + format("%.4g inferences/s measured, above the ", row.inferences_per_s) +
                      format("%.4g/s that one instance running one request at a time allows: requests were "
                             "merged (dynamic batching) or several instances ran",
                             one_instance_per_s));
    if (row.queue_s > 0.0 && device_per_s > 1.5 * row.inferences_per_s &&
        row.compute_output_s > row.compute_infer_s)
      notes.push_back(where +
                      format("requests queued, yet the device curve (%.4g/s) is far above ", device_per_s) +
                      format("the measured %.4g/s and Compute Output exceeds Compute Infer: an asynchronous "
                             "backend's device time may sit in Compute Output",
                             row.inferences_per_s));
  }
}

} // namespace

std::optional<int> batch_size_from_name(const std::string& file_name) {
  static const std::regex pattern(R"((?:^|[_\-.])(?:batch|b)(\d{1,7})(?:[_\-.]|$))", std::regex::icase);
  std::smatch match;
  const std::string stem = std::filesystem::path(file_name).filename().string();
  if (!std::regex_search(stem, match, pattern)) return std::nullopt;
  const int batch = std::stoi(match[1].str());
  if (batch < 1) return std::nullopt;
  return batch;
}

PerfAnalyzerFile read_perf_analyzer_file(const std::string& path, std::optional<int> batch_size) {
  PerfAnalyzerFile file;
  file.path = path;
  if (batch_size) {
    file.batch_size = *batch_size;
  } else if (const auto from_name = batch_size_from_name(path)) {
    file.batch_size = *from_name;
  } else {
    throw MeasurementError(path, 0,
                           "cannot find the batch size: the file name states none (expected e.g. "
                           "model_batch64.csv); give it with --batch (perf_analyzer's -b)");
  }
  const auto records = read_csv_records(path, "perf_analyzer's -f CSV");
  if (records.empty()) throw MeasurementError(path, 0, "empty file; expected perf_analyzer's -f CSV");
  std::map<std::string, std::size_t> column;
  const std::vector<std::string>& header = records.front().fields;
  static const std::vector<std::string> required{
      "Concurrency",  "Inferences/Second",    "Client Send",          "Network+Server Send/Recv",
      "Server Queue", "Server Compute Input", "Server Compute Infer", "Server Compute Output",
      "Client Recv",  "p50 latency",          "p90 latency",          "p95 latency",
      "p99 latency"};
  for (std::size_t i = 0; i < header.size(); ++i)
    column[trimmed_field(header[i])] = i;
  for (const auto& name : required)
    if (!column.count(name))
      throw MeasurementError(path, records.front().line,
                             "missing column '" + name +
                                 "'; expected perf_analyzer's -f CSV header "
                                 "(Concurrency,Inferences/Second,Client Send,...)");
  for (std::size_t r = 1; r < records.size(); ++r) {
    const auto& [line, fields] = records[r];
    // perf_analyzer appends other tables (server-side metrics) after a blank line: stop at a line that is not
    // a data row of this table.
    if (fields.size() < header.size()) {
      if (file.rows.empty())
        throw MeasurementError(path, line,
                               "expected " + std::to_string(header.size()) + " fields, got " +
                                   std::to_string(fields.size()));
      break;
    }
    file.rows.push_back(read_row(path, line, fields, column));
  }
  if (file.rows.empty()) throw MeasurementError(path, records.back().line, "no data row after the header");
  return file;
}

const char* device_time_mapping_name(DeviceTimeMapping mapping) {
  return mapping == DeviceTimeMapping::merged_async ? "merged-async" : "compute-infer";
}

PerfAnalyzerImport import_perf_analyzer(const std::vector<std::string>& paths, std::optional<int> batch_size,
                                        double input_bytes_per_inference, double output_bytes_per_inference,
                                        DeviceTimeMapping mapping) {
  PerfAnalyzerImport out;
  if (paths.empty()) throw MeasurementError("perf_analyzer", 0, "no files given");
  for (const auto& path : paths)
    out.files.push_back(read_perf_analyzer_file(path, batch_size));
  std::stable_sort(
      out.files.begin(), out.files.end(),
      [](const PerfAnalyzerFile& a, const PerfAnalyzerFile& b) { return a.batch_size < b.batch_size; });
  for (std::size_t i = 1; i < out.files.size(); ++i)
    if (out.files[i].batch_size == out.files[i - 1].batch_size)
      throw MeasurementError(out.files[i].path, 0,
                             "batch size " + std::to_string(out.files[i].batch_size) + " again (also in " +
                                 out.files[i - 1].path + "); expected one file per batch size");
  std::vector<double> input_bytes, input_s, output_bytes, output_s;
  std::vector<double> client_bytes, client_s; // per client request, whatever the batcher merged
  for (const auto& file : out.files) {
    std::vector<double> infer_s, in_s, out_s, merged, call_s;
    const double b = file.batch_size;
    for (const auto& row : file.rows) {
      call_s.push_back(row.client_send_s + row.client_recv_s);
      infer_s.push_back(row.compute_infer_s);
      in_s.push_back(row.compute_input_s);
      out_s.push_back(row.compute_output_s);
      merged.push_back(std::max(1.0, row.inferences_per_s *
                                         (row.compute_input_s + row.compute_infer_s + row.compute_output_s) /
                                         b));
    }
    client_bytes.push_back(b * input_bytes_per_inference);
    client_s.push_back(median(call_s));
    if (mapping == DeviceTimeMapping::compute_infer) {
      out.curve_points.emplace_back(b, b / median(infer_s));
      input_bytes.push_back(b * input_bytes_per_inference);
      input_s.push_back(median(in_s));
      output_bytes.push_back(b * output_bytes_per_inference);
      output_s.push_back(median(out_s));
    } else {
      // An execution of k requests: k b inferences in infer + output; its input handling covers k requests.
      const double k = median(merged);
      out.curve_points.emplace_back(k * b, k * b / (median(infer_s) + median(out_s)));
      input_bytes.push_back(k * b * input_bytes_per_inference);
      input_s.push_back(median(in_s));
      output_bytes.push_back(k * b * output_bytes_per_inference);
      output_s.push_back(0.0);
    }
    add_row_notes(file, out.notes);
  }
  if (mapping == DeviceTimeMapping::merged_async) {
    // Executed batch sizes must increase for a curve: merging can make two client sizes land close.
    std::vector<std::size_t> order(out.curve_points.size());
    for (std::size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return out.curve_points[a].first < out.curve_points[b].first;
    });
    std::vector<std::pair<double, double>> points;
    std::vector<double> bytes, seconds;
    for (const std::size_t i : order) {
      if (!points.empty() && out.curve_points[i].first <= points.back().first) {
        out.notes.push_back("merged-async: executed batch " + format("%.4g", out.curve_points[i].first) +
                            " is not above the previous one; the point is left out");
        continue;
      }
      points.push_back(out.curve_points[i]);
      bytes.push_back(input_bytes[i]);
      seconds.push_back(input_s[i]);
    }
    out.curve_points = points;
    input_bytes = bytes;
    input_s = seconds;
    output_bytes.assign(bytes.size(), 0.0);
    output_s.assign(bytes.size(), 0.0);
  }
  out.compute_input = fit_cost(input_bytes, input_s);
  out.compute_output = fit_cost(output_bytes, output_s);
  out.client_call = fit_cost(client_bytes, client_s);
  return out;
}

} // namespace sonicsim::measurements
