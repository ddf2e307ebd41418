// Triton's model configuration (config.pbtxt, protobuf text format), parsed with the protobuf library against
// sonicsim's subset of Triton's ModelConfig (triton_model_config.proto), and what it means for a scenario's
// model. Pure code: no simulation.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sonicsim::measurements {

struct TritonConfig {
  int max_batch_size = 0; // 0: the model does not batch (Triton's meaning)
  struct InstanceGroup {
    int count = 1;
    bool cpu = false; // KIND_CPU; KIND_GPU and KIND_AUTO run on the devices (KIND_AUTO: on the CPU without)
    bool automatic = false;
    std::vector<int> gpus;
  };
  std::vector<InstanceGroup> instance_groups;
  bool dynamic_batching = false; // the section is present
  std::vector<int> preferred_batch_sizes;
  double max_queue_delay_s = 0.0;
  std::optional<int> max_queue_size;
  std::optional<double> timeout_s;
  // Bytes per inference from the inputs' (outputs') dims and data types, without the batch dimension; none
  // when a dim is variable (-1) or a tensor is TYPE_STRING.
  std::optional<double> input_bytes_per_inference;
  std::optional<double> output_bytes_per_inference;
  // Every field set in the file that the simulation does not use, and every field it does not know, by name
  // and line; and what the bytes could not be computed from.
  std::vector<std::string> notes;
};

// Throws MeasurementError with the file and line on a syntax error, a wrong value type or an unreadable file.
TritonConfig read_triton_config(const std::string& path);

} // namespace sonicsim::measurements
