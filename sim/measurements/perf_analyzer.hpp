// Triton's perf_analyzer measurements (`perf_analyzer -f FILE`) as sonicsim reads them, and the device curve
// and server host costs they stand for. Pure code.
//
// Each column is read as perf_analyzer's documentation defines it (all per request, in microseconds in the
// file, seconds here):
//   - Server Compute Infer: time the backend spends executing the batch: the device time of the request's
//     batch. The curve is batch / compute infer.
//   - Server Compute Input / Output: preparing the input tensors (copies to the device) and the output
//     tensors: work on the server host per request, fitted as per request + per byte.
//   - Server Queue: waiting for an instance. Not a cost.
//   - Client Send / Client Recv: the client's own work per request (serialising it, the gRPC call, reading
//     the reply), on the calling thread: fitted as per request + per byte of the request's inputs.
//   - Inferences/Second at the measured concurrency: an end-to-end figure to check a re-simulation against,
//     not the curve.
// What the files cannot tell: how many requests the dynamic batcher merged into one execution (perf_analyzer
// reports per-request averages), how many instances the model had, and whether the backend returns before the
// device has finished (an asynchronous backend's device time then shows up in Compute Output instead of
// Compute Infer). docs/measurements.md says how each shows.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sonicsim::measurements {

// One row of a perf_analyzer CSV: one concurrency level.
struct PerfAnalyzerRow {
  int line = 0;        // in its file
  int concurrency = 0; // requests in flight (or request rate, for -f with --request-rate-range)
  double inferences_per_s = 0.0;
  double client_send_s = 0.0, network_s = 0.0, queue_s = 0.0;
  double compute_input_s = 0.0, compute_infer_s = 0.0, compute_output_s = 0.0, client_recv_s = 0.0;
  double p50_s = 0.0, p90_s = 0.0, p95_s = 0.0, p99_s = 0.0;
};

// The rows of one file, with the client batch size they were taken at.
struct PerfAnalyzerFile {
  std::string path;
  int batch_size = 0;
  std::vector<PerfAnalyzerRow> rows;
};

// The batch size a file name states: "..._batch64.csv", "...-b64.csv" or "..._b64_..."; none when absent.
std::optional<int> batch_size_from_name(const std::string& file_name);

// Reads one file. `batch_size` overrides the name (required when the name states none). Throws
// MeasurementError naming the file and line for a missing column, a non-numeric or negative value, no data
// row, or an unknown batch size.
PerfAnalyzerFile read_perf_analyzer_file(const std::string& path,
                                         std::optional<int> batch_size = std::nullopt);

// A host cost per request fitted over the batch sizes: per_request + bytes x per_byte (both >= 0).
struct HostCostFit {
  double per_request_s = 0.0;
  double per_byte_s = 0.0;
  double max_relative_residual = 0.0; // the largest |fit - measured| / measured over the files
};

// How a file's columns become device time.
enum class DeviceTimeMapping {
  // perf_analyzer's definitions: Server Compute Infer is the device time of a batch of the client's size;
  // Compute Input and Output are host work.
  compute_infer,
  // For an asynchronous backend (PyTorch returns before the GPU has finished; the wait shows up in Compute
  // Output) served by one instance with dynamic batching: the device time is Compute Infer + Compute Output,
  // of an executed batch of k x batch, where k = Inferences/Second / (batch / (input + infer + output)) >= 1
  // is
  // how many requests the batcher merged (one instance is busy for input + infer + output per execution, so
  // it
  // can only reach the measured rate by executing k requests at once). Compute Output is then not host work.
  merged_async,
};

const char* device_time_mapping_name(DeviceTimeMapping mapping);

struct PerfAnalyzerImport {
  std::vector<PerfAnalyzerFile> files; // sorted by batch size
  // (batch size, inferences per second on the device) = (b, b / compute infer), one point per batch size (the
  // median over a file's rows), sorted.
  std::vector<std::pair<double, double>> curve_points;
  HostCostFit compute_input;  // per input byte of a request (needs input bytes per inference)
  HostCostFit compute_output; // per output byte
  // The client's side of a call (Client Send + Client Recv: serialising the request, the gRPC call and
  // reading the reply), per input byte of the client's request of b inferences: work on the calling thread.
  HostCostFit client_call;
  std::vector<std::string> notes; // what the files suggest the import cannot capture
};

// Reads the files (each its own batch size, or several rows of one) and derives the curve and host costs.
// Bytes per inference are the model's (as sent); 0 fits the per-request cost alone. Throws MeasurementError
// when two files have the same batch size or there are none.
PerfAnalyzerImport import_perf_analyzer(const std::vector<std::string>& paths, std::optional<int> batch_size,
                                        double input_bytes_per_inference, double output_bytes_per_inference,
                                        DeviceTimeMapping mapping = DeviceTimeMapping::compute_infer);

} // namespace sonicsim::measurements
