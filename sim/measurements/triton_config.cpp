#include "sim/measurements/triton_config.hpp"

#include "sim/text/input_file.hpp"

#include "sim/measurements/measurement_error.hpp"
#include "triton_model_config.pb.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

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

// protobuf's ParseInfoTree index for a field that is not repeated (its own convention).
constexpr int not_repeated = -1;

// Where each field was read (protobuf's parse-info tree), so that a value out of bounds is reported at its
// line. Lines count from 1; 0 when the parser recorded none.
class Locations {
public:
  Locations(const std::string& path, const pb::TextFormat::ParseInfoTree* tree, int enclosing_line = 0)
      : path_(path), tree_(tree), enclosing_line_(enclosing_line) {}
  Locations nested(const pb::Message& message, const char* field, int index = not_repeated) const {
    const auto* descriptor = message.GetDescriptor()->FindFieldByName(field);
    return Locations(path_, tree_ && descriptor ? tree_->GetTreeForNested(descriptor, index) : nullptr,
                     line(message, field, index));
  }
  // The parser records one location per element of a list written as [a, b] only for some elements: the
  // list's first element, then the enclosing message, stand in.
  int line(const pb::Message& message, const char* field, int index = not_repeated) const {
    const auto* descriptor = message.GetDescriptor()->FindFieldByName(field);
    if (tree_ && descriptor)
      for (const int at : {index, index > 0 ? 0 : index}) {
        const auto location = tree_->GetLocation(descriptor, at);
        if (location.line >= 0) return location.line + 1;
      }
    return enclosing_line_;
  }
  // Throws "FILE:LINE: field 'NAME': got VALUE; expected EXPECTED" unless `ok`.
  template <typename Value>
  void require(bool ok, const pb::Message& message, const char* field, int index, const std::string& name,
               Value value, const std::string& expected) const {
    if (ok) return;
    throw MeasurementError(path_, line(message, field, index),
                           "field '" + name + "': got " + std::to_string(value) + "; expected " + expected);
  }

private:
  std::string path_;
  const pb::TextFormat::ParseInfoTree* tree_;
  int enclosing_line_ = 0;
};

// Bounds on what sonicsim simulates, the same as the scenario's YAML keys for the same settings
// (docs/scenario_reference.md): values protobuf accepts but no Triton deployment has.
constexpr std::int64_t max_batch_size_limit = 1'000'000'000;
constexpr int max_instances_per_device = 64;
constexpr int max_device_index = 1'023;
constexpr std::uint64_t max_duration_us = 315'576'000'000'000ULL; // 10 years: longer is a typo
constexpr std::uint64_t max_queue_size_limit = 1'000'000'000;
constexpr double max_bytes_per_inference = 1e9; // 1 GB per inference is a typo
constexpr int max_nesting_depth = 64;           // Triton's own configurations nest a few levels

// Deepest nesting of { } and < > in the text, read with protobuf's own tokenizer (so strings and comments
// are skipped as the parser skips them), refused before parsing: the text parser recurses per level.
void check_nesting(const std::string& path, const std::string& text) {
  pb::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()));
  class Quiet : public pb::io::ErrorCollector {
  public:
    void AddError(int, pb::io::ColumnNumber, const std::string&) override {}
  } quiet;
  pb::io::Tokenizer tokenizer(&input, &quiet);
  tokenizer.set_comment_style(pb::io::Tokenizer::SH_COMMENT_STYLE);
  int depth = 0;
  while (tokenizer.Next()) {
    const auto& token = tokenizer.current();
    if (token.type != pb::io::Tokenizer::TYPE_SYMBOL) continue;
    if (token.text == "{" || token.text == "<" || token.text == "[") {
      if (++depth > max_nesting_depth)
        throw MeasurementError(path, token.line + 1,
                               "nested more than " + std::to_string(max_nesting_depth) +
                                   " levels deep; expected a Triton model configuration (a few levels)");
    } else if (token.text == "}" || token.text == ">" || token.text == "]") {
      depth = std::max(0, depth - 1);
    }
  }
}

template <typename Tensor> void check_dims(const Tensor& tensor, const Locations& where, const char* what) {
  for (int i = 0; i < tensor.dims_size(); ++i)
    where.require(tensor.dims(i) == -1 || (tensor.dims(i) >= 1 && tensor.dims(i) <= max_batch_size_limit),
                  tensor, "dims", i, std::string(what) + ".dims", tensor.dims(i),
                  "a size in 1..1000000000 (or -1 for a variable size)");
}

// dynamic_batching: preferred sizes, the queue delay and the default queue policy, each checked where
// written.
void read_dynamic_batching(const triton::ModelConfig& config, const Locations& where, TritonConfig& out) {
  const auto& batching = config.dynamic_batching();
  const Locations in_batching = where.nested(config, "dynamic_batching");
  out.dynamic_batching = true;
  const int largest = std::max(1, config.max_batch_size());
  for (int k = 0; k < batching.preferred_batch_size_size(); ++k) {
    const int size = batching.preferred_batch_size(k);
    in_batching.require(size >= 1 && size <= largest, batching, "preferred_batch_size", k,
                        "dynamic_batching.preferred_batch_size", size,
                        "a batch size in 1..max_batch_size (" + std::to_string(largest) + ")");
    out.preferred_batch_sizes.push_back(size);
  }
  in_batching.require(batching.max_queue_delay_microseconds() <= max_duration_us, batching,
                      "max_queue_delay_microseconds", not_repeated,
                      "dynamic_batching.max_queue_delay_microseconds",
                      batching.max_queue_delay_microseconds(), "a delay of at most 10 years");
  out.max_queue_delay_s = static_cast<double>(batching.max_queue_delay_microseconds()) * 1e-6;
  if (batching.has_default_queue_policy()) {
    const auto& policy = batching.default_queue_policy();
    const Locations in_policy = in_batching.nested(batching, "default_queue_policy");
    in_policy.require(policy.max_queue_size() <= max_queue_size_limit, policy, "max_queue_size", not_repeated,
                      "dynamic_batching.default_queue_policy.max_queue_size", policy.max_queue_size(),
                      "a queue size in 0..1000000000 (0: no limit)");
    in_policy.require(policy.default_timeout_microseconds() <= max_duration_us, policy,
                      "default_timeout_microseconds", not_repeated,
                      "dynamic_batching.default_queue_policy.default_timeout_microseconds",
                      policy.default_timeout_microseconds(), "a timeout of at most 10 years (0: none)");
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

// What the file sets that the simulation does not use: fields sonicsim's subset of ModelConfig does not
// declare (the parser's warnings) and declared fields it does not read.
void note_not_simulated(const Collector& collector, const triton::ModelConfig& config,
                        std::vector<std::string>& notes) {
  for (const auto& warning : collector.warnings) {
    // The parser's message names the field: 'Message type "..." has no field named "NAME".'
    const std::string marker = "has no field named \"";
    const auto at = warning.message.find(marker);
    const std::string field =
        at == std::string::npos
            ? warning.message
            : warning.message.substr(at + marker.size(),
                                     warning.message.find('"', at + marker.size()) - at - marker.size());
    notes.push_back("line " + std::to_string(warning.line) + ": '" + field + "' is not simulated");
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
  note_unused(config, "", used, notes);
}

} // namespace

TritonConfig read_triton_config(const std::string& path) {
  std::ostringstream text;
  try {
    text << read_input_file(path);
  } catch (const std::runtime_error& e) {
    throw MeasurementError(path, 0, std::string(e.what()) + "; expected a Triton config.pbtxt");
  }
  triton::ModelConfig config;
  Collector collector;
  pb::TextFormat::Parser parser;
  parser.RecordErrorsTo(&collector);
  // Fields of Triton's ModelConfig that sonicsim's subset does not declare are skipped (and named below), so
  // that any real config.pbtxt parses.
  parser.AllowUnknownField(true);
  check_nesting(path, text.str());
  parser.SetRecursionLimit(max_nesting_depth + 1);
  pb::TextFormat::ParseInfoTree tree;
  parser.WriteLocationsTo(&tree);
  if (!parser.ParseFromString(text.str(), &config)) {
    const auto& error = collector.error;
    throw MeasurementError(path, error ? error->line : 0,
                           (error ? "column " + std::to_string(error->column) + ": " + error->message
                                  : std::string("cannot parse")) +
                               "; expected Triton's model configuration in protobuf text format");
  }
  TritonConfig out;
  note_not_simulated(collector, config, out.notes);
  const Locations where(path, &tree);
  where.require(config.max_batch_size() >= 0 && config.max_batch_size() <= max_batch_size_limit, config,
                "max_batch_size", not_repeated, "max_batch_size", config.max_batch_size(),
                "a batch size in 0..1000000000 (0: the model does not batch)");
  out.max_batch_size = config.max_batch_size();
  for (int i = 0; i < config.instance_group_size(); ++i) {
    const auto& group = config.instance_group(i);
    const Locations in_group = where.nested(config, "instance_group", i);
    in_group.require(group.count() >= 0 && group.count() <= max_instances_per_device, group, "count",
                     not_repeated, "instance_group.count", group.count(),
                     "an instance count in 0..64 (0: Triton's default 1)");
    TritonConfig::InstanceGroup g;
    g.count = group.count() > 0 ? group.count() : 1; // Triton's default count is 1
    g.cpu = group.kind() == triton::ModelInstanceGroup::KIND_CPU;
    g.automatic = group.kind() == triton::ModelInstanceGroup::KIND_AUTO;
    if (group.kind() == triton::ModelInstanceGroup::KIND_MODEL)
      out.notes.push_back(
          "instance_group kind KIND_MODEL (the model places itself) is simulated as KIND_GPU");
    for (int k = 0; k < group.gpus_size(); ++k) {
      in_group.require(group.gpus(k) >= 0 && group.gpus(k) <= max_device_index, group, "gpus", k,
                       "instance_group.gpus", group.gpus(k), "a device index within a pod, in 0..1023");
      g.gpus.push_back(group.gpus(k));
    }
    out.instance_groups.push_back(g);
  }
  if (config.has_dynamic_batching()) read_dynamic_batching(config, where, out);
  for (int i = 0; i < config.input_size(); ++i)
    check_dims(config.input(i), where.nested(config, "input", i), "input");
  for (int i = 0; i < config.output_size(); ++i)
    check_dims(config.output(i), where.nested(config, "output", i), "output");
  out.input_bytes_per_inference = bytes_per_inference(config.input(), "input", out.notes);
  out.output_bytes_per_inference = bytes_per_inference(config.output(), "output", out.notes);
  for (const auto& [bytes, what, field] : {std::tuple{out.input_bytes_per_inference, "input", "input"},
                                           std::tuple{out.output_bytes_per_inference, "output", "output"}})
    if (bytes && *bytes > max_bytes_per_inference)
      throw MeasurementError(path, where.line(config, field, 0),
                             std::string(what) + " tensors: " + std::to_string(*bytes) +
                                 " bytes per inference from their dims and data types; expected at most 1GB");
  return out;
}

} // namespace sonicsim::measurements
