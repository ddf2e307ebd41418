#include "sim/measurements/triton_config.hpp"

#include "sim/measurements/measurement_error.hpp"
#include "triton_model_config.pb.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <fstream>
#include <set>
#include <sstream>

namespace sonicsim::measurements {
namespace {

namespace pb = google::protobuf;

// Collects the parser's errors and warnings with their lines (the parser counts from 0).
class Collector : public pb::io::ErrorCollector {
public:
  void AddError(int line, pb::io::ColumnNumber column, const std::string& message) override {
    if (!error) error = Entry{line + 1, static_cast<int>(column) + 1, message};
  }
  void AddWarning(int line, pb::io::ColumnNumber column, const std::string& message) override {
    warnings.push_back(Entry{line + 1, static_cast<int>(column) + 1, message});
  }
  struct Entry {
    int line = 0;
    int column = 0;
    std::string message;
  };
  std::optional<Entry> error;
  std::vector<Entry> warnings;
};

double data_type_bytes(triton::DataType type) {
  switch (type) {
  case triton::TYPE_BOOL:
  case triton::TYPE_UINT8:
  case triton::TYPE_INT8:
    return 1;
  case triton::TYPE_UINT16:
  case triton::TYPE_INT16:
  case triton::TYPE_FP16:
  case triton::TYPE_BF16:
    return 2;
  case triton::TYPE_UINT32:
  case triton::TYPE_INT32:
  case triton::TYPE_FP32:
    return 4;
  case triton::TYPE_UINT64:
  case triton::TYPE_INT64:
  case triton::TYPE_FP64:
    return 8;
  default:
    return 0; // TYPE_STRING, TYPE_INVALID: no fixed size
  }
}

// Sum over tensors of product(dims) x size of the type; none (with a note) when one is not fixed.
template <typename Tensors>
std::optional<double> bytes_per_inference(const Tensors& tensors, const char* what,
                                          std::vector<std::string>& notes) {
  double total = 0.0;
  for (const auto& tensor : tensors) {
    const double size = data_type_bytes(tensor.data_type());
    double elements = 1.0;
    bool fixed = size > 0;
    for (const auto dim : tensor.dims()) {
      if (dim < 0) fixed = false;
      elements *= static_cast<double>(dim);
    }
    if (!fixed) {
      notes.push_back(std::string(what) + " '" + tensor.name() +
                      "' has a variable dim (-1) or no fixed-size type: "
                      "its bytes per inference are not in the file; the scenario's " +
                      what + "_bytes_per_inference is used");
      return std::nullopt;
    }
    total += elements * size;
  }
  if (tensors.empty()) return std::nullopt;
  return total;
}

// The fields set in `message` (recursively) that sonicsim does not simulate, as "path".
void note_unused(const pb::Message& message, const std::string& prefix, const std::set<std::string>& used,
                 std::vector<std::string>& notes) {
  const auto* reflection = message.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);
  for (const auto* field : fields) {
    const std::string path = prefix.empty() ? field->name() : prefix + "." + field->name();
    if (used.count(path)) {
      if (field->type() == pb::FieldDescriptor::TYPE_MESSAGE) {
        if (field->is_repeated()) {
          for (int i = 0; i < reflection->FieldSize(message, field); ++i)
            note_unused(reflection->GetRepeatedMessage(message, field, i), path, used, notes);
        } else {
          note_unused(reflection->GetMessage(message, field), path, used, notes);
        }
      }
      continue;
    }
    notes.push_back("'" + path + "' is set but not simulated");
  }
}

} // namespace

TritonConfig read_triton_config(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw MeasurementError(path, 0, "cannot open the file; expected a Triton config.pbtxt");
  std::ostringstream text;
  text << in.rdbuf();
  triton::ModelConfig config;
  Collector collector;
  pb::TextFormat::Parser parser;
  parser.RecordErrorsTo(&collector);
  // Fields of Triton's ModelConfig that sonicsim's subset does not declare are skipped (and named below), so
  // that any real config.pbtxt parses.
  parser.AllowUnknownField(true);
  if (!parser.ParseFromString(text.str(), &config)) {
    const auto& error = collector.error;
    throw MeasurementError(path, error ? error->line : 0,
                           (error ? "column " + std::to_string(error->column) + ": " + error->message
                                  : std::string("cannot parse")) +
                               "; expected Triton's model configuration in protobuf text format");
  }
  TritonConfig out;
  for (const auto& warning : collector.warnings) {
    // The parser's message names the field: 'Message type "..." has no field named "NAME".'
    const std::string marker = "has no field named \"";
    const auto at = warning.message.find(marker);
    const std::string field =
        at == std::string::npos
            ? warning.message
            : warning.message.substr(at + marker.size(),
                                     warning.message.find('"', at + marker.size()) - at - marker.size());
    out.notes.push_back("line " + std::to_string(warning.line) + ": '" + field + "' is not simulated");
  }
  static const std::set<std::string> used{
      "max_batch_size",
      "input",
      "input.name",
      "input.data_type",
      "input.dims",
      "output",
      "output.name",
      "output.data_type",
      "output.dims",
      "instance_group",
      "instance_group.kind",
      "instance_group.count",
      "instance_group.gpus",
      "dynamic_batching",
      "dynamic_batching.preferred_batch_size",
      "dynamic_batching.max_queue_delay_microseconds",
      "dynamic_batching.default_queue_policy",
      "dynamic_batching.default_queue_policy.timeout_action",
      "dynamic_batching.default_queue_policy.default_timeout_microseconds",
      "dynamic_batching.default_queue_policy.max_queue_size"};
  note_unused(config, "", used, out.notes);
  if (config.max_batch_size() < 0)
    throw MeasurementError(path, 0, "max_batch_size is negative; expected >= 0");
  out.max_batch_size = config.max_batch_size();
  for (const auto& group : config.instance_group()) {
    TritonConfig::InstanceGroup g;
    g.count = group.count() > 0 ? group.count() : 1; // Triton's default count is 1
    g.cpu = group.kind() == triton::ModelInstanceGroup::KIND_CPU;
    g.automatic = group.kind() == triton::ModelInstanceGroup::KIND_AUTO;
    if (group.kind() == triton::ModelInstanceGroup::KIND_MODEL)
      out.notes.push_back(
          "instance_group kind KIND_MODEL (the model places itself) is simulated as KIND_GPU");
    for (const int gpu : group.gpus())
      g.gpus.push_back(gpu);
    out.instance_groups.push_back(g);
  }
  if (config.has_dynamic_batching()) {
    const auto& batching = config.dynamic_batching();
    out.dynamic_batching = true;
    for (const int size : batching.preferred_batch_size())
      out.preferred_batch_sizes.push_back(size);
    out.max_queue_delay_s = static_cast<double>(batching.max_queue_delay_microseconds()) * 1e-6;
    if (batching.has_default_queue_policy()) {
      const auto& policy = batching.default_queue_policy();
      if (policy.max_queue_size() > 0) out.max_queue_size = static_cast<int>(policy.max_queue_size());
      if (policy.default_timeout_microseconds() > 0) {
        if (policy.timeout_action() == triton::ModelQueuePolicy::DELAY)
          out.notes.push_back(
              "default_queue_policy.timeout_action DELAY is not simulated: the timeout is ignored");
        else
          out.timeout_s = static_cast<double>(policy.default_timeout_microseconds()) * 1e-6;
      }
    }
  }
  out.input_bytes_per_inference = bytes_per_inference(config.input(), "input", out.notes);
  out.output_bytes_per_inference = bytes_per_inference(config.output(), "output", out.notes);
  return out;
}

} // namespace sonicsim::measurements
