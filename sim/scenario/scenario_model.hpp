// A served model as a scenario describes it (models:): its bytes per inference, its throughput curve on each
// device type, Triton's settings for it, the host and client work per request, and where it is deployed.
// Part of the typed scenario (scenario.hpp); SI units, defaults next to each field.
#pragma once

#include "models/throughput_curve.hpp"
#include "sim/measurements/perf_analyzer.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

// How a job's connection to a model goes to one of the pods serving it (sim/policy/load_balancer.hpp),
// for the job's lifetime, as gRPC does.
enum class LoadBalancer {
  random,            // a pod drawn uniformly per connection (a Service's default kube-proxy behaviour)
  round_robin,       // job i to pod i mod pods
  least_connections, // the pod with the fewest open connections to this model (lowest index on ties)
  client_node,       // the server on the job's own node (a group on_client_nodes): set by the loader
};

// The name written in scenarios and in summary.json.
inline const char* load_balancer_name(LoadBalancer policy) {
  switch (policy) {
  case LoadBalancer::round_robin:
    return "round_robin";
  case LoadBalancer::least_connections:
    return "least_connections";
  case LoadBalancer::client_node:
    return "client_node";
  case LoadBalancer::random:
    break;
  }
  return "random";
}

// Throughput of one model on one device type by executed batch size (models/throughput_curve.hpp).
using ThroughputCurve = models::ThroughputCurve;

struct QueuePolicy {
  std::optional<int> max_queue_size; // requests waiting per model per pod; default unlimited
  std::optional<double> timeout_s;   // a request waiting longer is rejected; default none
};

// Triton's dynamic_batching section: present (and not `enabled: false`) turns the dynamic batcher on.
struct DynamicBatching {
  bool enabled = false;                   // default off: no dynamic_batching section
  std::vector<int> preferred_batch_sizes; // preferred_batch_size; default none (max_batch_size is the target)
  double max_queue_delay_s = 0.0;         // default 0: dispatch as soon as an instance is free
  QueuePolicy queue_policy;               // default_queue_policy
};

// One entry of Triton's instance_group: `count` instances of the model on each listed device of a pod (kind
// GPU: all of the pod's devices when `devices` is empty), or `count` instances on the host's cores (kind
// CPU).
struct InstanceGroup {
  enum class Kind { gpu, cpu };
  int count = 1;
  Kind kind = Kind::gpu;
  std::vector<int> devices; // Triton's `gpus`: device indices within a pod; empty: every device
};

struct TritonSettings {
  int max_batch_size = 0; // largest request (and batch) the model accepts, in inferences; required
  // Default (no instance_group): one instance on each device of the pod, or one on the CPU when the pod has
  // none, as Triton does.
  std::vector<InstanceGroup> instance_groups;
  DynamicBatching dynamic_batching;
};

// Work per request outside the device: on the server host, perf_analyzer's "Server Compute Input" (decoding
// the request, copying inputs to the device) and "Server Compute Output", each one host core for per_request
// + bytes x per_byte; on the client, its Client Send + Recv, on the job's thread. Defaults 0: free.
struct HostCost {
  double per_request_s = 0.0;
  double per_byte_s = 0.0;
  double time_s(double bytes) const { return per_request_s + bytes * per_byte_s; }
  bool is_free() const { return per_request_s == 0.0 && per_byte_s == 0.0; }
};

// Where a model is served: one or more server groups, and how jobs' connections are spread over their pods.
struct Deployment {
  std::vector<std::string> groups; // names of platform.server_groups; required
  LoadBalancer load_balancer = LoadBalancer::random;
};

struct Model {
  std::string name;
  double input_bytes_per_inference = 0.0;  // bytes sent per inference (e.g. 48x48 FP32 patch: 9216 B)
  double output_bytes_per_inference = 0.0; // bytes returned per inference
  // The device catalogue of this model: its throughput curve on each device type it can run on (T4, A100,
  // an FPGA, ..., and "CPU" for one CPU instance), each with its source in a comment of the scenario.
  std::map<std::string, ThroughputCurve> throughput_by_device;
  std::map<std::string, double> throughput_scale; // per device type: throughput.<device>.scale, if written
  // Per device type, the perf_analyzer files a curve was read from (throughput.<device>.perf_analyzer) and
  // how they were read (throughput.<device>.perf_analyzer_reading).
  std::map<std::string, std::vector<std::string>> perf_analyzer_files;
  std::map<std::string, measurements::DeviceTimeMapping> perf_analyzer_readings;
  // The device whose perf_analyzer files a cost was fitted to (compute_input: {perf_analyzer: T4}).
  std::string compute_input_perf_analyzer, compute_output_perf_analyzer, client_call_perf_analyzer;
  TritonSettings triton;
  std::string triton_config_file;               // triton_config: the config.pbtxt the settings came from
  std::vector<std::string> triton_config_notes; // its fields the simulation does not use, by name
  Deployment deploy;
  HostCost compute_input;  // on the input bytes of a request (as sent, after any compression)
  HostCost compute_output; // on the output bytes
  HostCost client_call;    // on the job's thread per request sent: perf_analyzer's Client Send + Recv
};

} // namespace sonicsim
