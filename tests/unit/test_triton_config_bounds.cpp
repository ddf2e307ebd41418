// A config.pbtxt's values are held to the bounds the scenario's YAML keys have, and reported at their line:
// protobuf accepts values no Triton deployment has (negative device indices, 2^64 us delays).
#include "sim/measurements/measurement_error.hpp"
#include "sim/measurements/triton_config.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

using namespace sonicsim::measurements;

namespace {

std::string error_of(const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "sonicsim_triton_bounds_unit";
  std::filesystem::create_directories(dir);
  const auto path = (dir / "config.pbtxt").string();
  std::ofstream(path) << text;
  try {
    read_triton_config(path);
  } catch (const MeasurementError& e) {
    return e.what();
  }
  return "no error";
}

} // namespace

TEST_CASE("config.pbtxt values out of bounds are refused at their line") {
  const std::string head =
      "max_batch_size: 64\ninput [ { name: \"x\" data_type: TYPE_FP32 dims: [ 16 ] } ]\n";
  CHECK(error_of(head + "instance_group [ { count: 1 gpus: [ -1 ] } ]\n")
            .find("config.pbtxt:3: field 'instance_group.gpus': got -1") != std::string::npos);
  CHECK(error_of(head + "instance_group [ { count: 1 gpus: [ 0, -2147483648 ] } ]\n")
            .find("config.pbtxt:3: field 'instance_group.gpus': got -2147483648") != std::string::npos);
  CHECK(error_of(head + "instance_group [\n  { count: 1000000000 }\n]\n")
            .find("config.pbtxt:4: field 'instance_group.count': got 1000000000") != std::string::npos);
  CHECK(error_of(head + "dynamic_batching {\n  max_queue_delay_microseconds: 18446744073709551615\n}\n")
            .find("config.pbtxt:4: field 'dynamic_batching.max_queue_delay_microseconds'") !=
        std::string::npos);
  CHECK(error_of(head + "dynamic_batching { default_queue_policy {\n max_queue_size: 4294967295 } }\n")
            .find("config.pbtxt:4: field 'dynamic_batching.default_queue_policy.max_queue_size'") !=
        std::string::npos);
  CHECK(error_of(head + "dynamic_batching { preferred_batch_size: [ 4, 128 ] }\n")
            .find("field 'dynamic_batching.preferred_batch_size': got 128; expected a batch size in "
                  "1..max_batch_size "
                  "(64)") != std::string::npos);
  CHECK(error_of("max_batch_size: 8\ninput [ { name: \"x\" data_type: TYPE_FP32 dims: [ 0 ] } ]\n")
            .find("config.pbtxt:2: field 'input.dims': got 0") != std::string::npos);
  CHECK(
      error_of("max_batch_size: 8\ninput [ { name: \"x\" data_type: TYPE_FP32 dims: [ 100000, 100000 ] } ]\n")
          .find("input tensors: ") != std::string::npos);
  CHECK(error_of("max_batch_size: -3\n").find("config.pbtxt:1: field 'max_batch_size': got -3") !=
        std::string::npos);
}

TEST_CASE("a config.pbtxt nested deeper than any Triton configuration is refused before parsing") {
  std::string deep = "max_batch_size: 8\noptimization ";
  for (int i = 0; i < 100000; ++i)
    deep += "{ x ";
  deep += std::string(100000, '}');
  CHECK(error_of(deep).find("config.pbtxt:2: nested more than 64 levels deep") != std::string::npos);
  // A valid variable dim (-1) and Triton's default instance count (0) are not errors.
  CHECK(error_of("max_batch_size: 8\ninput [ { name: \"x\" data_type: TYPE_FP32 dims: [ -1 ] } ]\n"
                 "instance_group [ { count: 0 } ]\n") == "no error");
}
