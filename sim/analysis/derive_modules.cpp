// derive_parameters, its first steps: the connection, then each module of the pipeline (CPU modules, and the
// modules sent to the servers with their request split timed on each group's curve).
#include "models/network_limit.hpp"
#include "sim/analysis/parameter_derivation.hpp"
#include "sim/policy/request_split.hpp"
#include "sim/random/distribution.hpp"
#include "sim/random/random_streams.hpp"
#include "sim/scenario/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace sonicsim::analysis::derivation {
namespace {

// The analysis draws from its own stream so that it never shares numbers with a simulated job; it only needs
// to be fixed (same scenario, same parameters), not independent of anything.
constexpr std::uint64_t stream_request_split = 0xA7A1;

std::string describe(const DistributionSpec& spec) {
  switch (spec.kind) {
  case DistributionSpec::Kind::constant:
    return "constant " + format("%g", spec.mean);
  case DistributionSpec::Kind::normal:
    return "normal mean " + format("%g", spec.mean) + " sd " + format("%g", spec.sd);
  case DistributionSpec::Kind::lognormal:
    return "lognormal mean " + format("%g", spec.mean) + " sd " + format("%g", spec.sd);
  case DistributionSpec::Kind::exponential:
    return "exponential mean " + format("%g", spec.mean);
  case DistributionSpec::Kind::uniform:
    return "uniform [" + format("%g", spec.min) + ", " + format("%g", spec.max) + "]";
  }
  return "?";
}

// Mean requests, inferences and GPU-seconds per event of one module, split by the job client's own rule
// (sim/policy/request_split.hpp).
struct SplitMeans {
  double inferences = 0.0, requests = 0.0, gpu_s = 0.0;
  int draws = 0;
};

SplitMeans mean_request_split(const Module& module, const ThroughputCurve& curve, std::uint64_t seed,
                              std::uint64_t module_index) {
  const bool random = module.inferences.kind != DistributionSpec::Kind::constant || module.group_spread > 0.0;
  const int draws = random ? request_split_draws : 1;
  auto rng = make_stream(seed, stream_request_split, module_index);
  RequestSplitter splitter;
  std::vector<double> counts, requests, gpu_s;
  for (int draw = 0; draw < draws; ++draw) {
    const std::int64_t inferences = sample_count(module.inferences, rng);
    double draw_gpu_s = 0.0;
    const std::vector<int> sizes = splitter.split(module, inferences, rng);
    for (const int size : sizes)
      draw_gpu_s += curve.batch_time_s(static_cast<double>(size));
    const auto draw_requests = static_cast<double>(sizes.size());
    counts.push_back(static_cast<double>(inferences));
    requests.push_back(draw_requests);
    gpu_s.push_back(draw_gpu_s);
  }
  auto mean = [](const std::vector<double>& values) {
    return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  };
  SplitMeans out{mean(counts), mean(requests), mean(gpu_s), draws};
  // Control variate: requests and GPU time are nearly linear in the inference count, whose mean is known
  // exactly: the mean of the counts the job client draws (each draw rounded, at least 0), not the
  // distribution's (ParticleNet AK8's uniform [0, 0.674] jets: 0.258 drawn per event, not 0.337; the
  // consistency suite found the module 12 % long). Regressing on it removes the sampling error of the count
  // (2 % for an exponential count over 2,000 draws), leaving only the error from the group weights.
  double count_variance = 0.0, requests_covariance = 0.0, gpu_covariance = 0.0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    count_variance += (counts[i] - out.inferences) * (counts[i] - out.inferences);
    requests_covariance += (counts[i] - out.inferences) * (requests[i] - out.requests);
    gpu_covariance += (counts[i] - out.inferences) * (gpu_s[i] - out.gpu_s);
  }
  if (count_variance > 0.0) {
    // Beyond a million the rounding moves nothing, and the exact sum would take a million terms.
    const double known_mean = module.inferences.plausible_max() < 1e6 ? expected_count(module.inferences)
                                                                      : module.inferences.expected();
    out.requests -= requests_covariance / count_variance * (out.inferences - known_mean);
    out.gpu_s -= gpu_covariance / count_variance * (out.inferences - known_mean);
    out.inferences = known_mean;
  }
  return out;
}

} // namespace

// The CPU mix, the servers' pods and devices, and the rate one connection gets.
void derive_connection(Derivation& d) {
  const Platform& platform = d.scenario.platform;
  ScenarioParameters& out = d.out;
  out.mean_inverse_cpu_speed = 0.0;
  for (const auto& cpu : platform.cpu_mix)
    out.mean_inverse_cpu_speed += cpu.fraction / cpu.speed;
  d.note("E[1/speed]", out.mean_inverse_cpu_speed, "",
         "CPU mix: sum of fraction / speed (a job's CPU durations are divided by its CPU's speed)");

  // Connection rate: a request's flow is capped by the worker NIC, the TCP window over the RTT (SimGrid CM02:
  // window / (2 x one-way latency)), the WAN, the pod's NIC and what background traffic leaves of the switch.
  d.rtt_s = platform.wan.rtt_s;
  const double rtt_s = d.rtt_s;
  const double window_rate_bps = platform.network.tcp_window_bytes > 0.0 && rtt_s > 0.0
                                     ? platform.network.tcp_window_bytes * 8.0 / rtt_s
                                     : std::numeric_limits<double>::infinity();
  out.switch_bandwidth_bps = platform.site_switch.bandwidth_bps;
  out.background_bps = platform.site_switch.background.rate_bps;
  d.switch_left_bps = out.switch_bandwidth_bps - out.background_bps;
  // The groups that serve some model, in the order written.
  for (const auto& groups : d.layout.model_groups)
    for (const int g : groups)
      d.serving[static_cast<std::size_t>(g)] = true;
  out.pods = 0;
  out.n_gpu = 0;
  out.pod_nic_bandwidth_bps = std::numeric_limits<double>::infinity();
  for (std::size_t g = 0; g < d.serving.size(); ++g) {
    if (!d.serving[g]) continue;
    const ServerGroup& group = platform.server_groups[g];
    out.pods += group.pods;
    out.n_gpu += group.devices();
    // A connection is capped by its pod's NIC; with groups of different NICs the slowest is taken.
    out.pod_nic_bandwidth_bps = std::min(out.pod_nic_bandwidth_bps, group.nic_bandwidth_bps);
  }
  const double connection_cap_bps = std::min({window_rate_bps, platform.wan.bandwidth_bps,
                                              out.pod_nic_bandwidth_bps, std::max(d.switch_left_bps, 0.0)});
  // Expected time per bit over the NIC mix (time, not rate, is what averages).
  for (const auto& nic : platform.nic_mix)
    d.seconds_per_bit += nic.fraction / std::min(nic.bandwidth_bps, connection_cap_bps);
  d.note("connection rate", 1.0 / d.seconds_per_bit, "bit/s",
         "harmonic mean over the NIC mix of min(NIC, TCP window x 8 / RTT = " +
             format("%.4g", window_rate_bps / 1e9) + " Gb/s, WAN, pod NIC, switch - background)");
}

namespace {

// " x the shared node's slowdown S" when the scenario has a client node, for a derivation's words.
std::string shared_node_words(const Derivation& d, bool inference) {
  const double slowdown = inference ? d.inference_slowdown : d.cpu_slowdown;
  if (!d.scenario.platform.client_node.enabled()) return "";
  return format(" x the shared client node's mean slowdown %.4g", slowdown) +
         (inference ? " (inference work)" : " (CPU work)");
}

} // namespace

// A module that runs on the job's CPU: a CPU module, local inference, or a remote module run directly.
void derive_cpu_module(Derivation& d, const Module& module) {
  ScenarioParameters& out = d.out;
  switch (module.type) {
  case Module::Type::cpu: {
    const double work_s = module.duration_s.expected() * out.mean_inverse_cpu_speed;
    d.cpu_work_s += work_s;
    const double t_s = work_s * d.cpu_slowdown;
    out.t_other_cpu_s += t_s;
    d.note("t_cpu[" + module.name + "]", t_s, "s",
           describe(module.duration_s) + " s x E[1/speed]" + shared_node_words(d, false));
    break;
  }
  case Module::Type::local_inference: {
    // The job client counts the whole piece (preprocessing included) as inference on the node.
    const double work_s =
        (module.preprocess_s.expected() + module.inferences.expected() * module.local_time_per_inference_s) *
        out.mean_inverse_cpu_speed;
    d.inference_work_s += work_s;
    const double t_s = work_s * d.inference_slowdown;
    out.t_other_cpu_s += t_s;
    d.note("t_cpu[" + module.name + "]", t_s, "s",
           "local inference: (preprocess + inferences x time per inference) x E[1/speed]" +
               shared_node_words(d, true));
    break;
  }
  case Module::Type::remote_inference: {
    // Direct inference: the model on the job's CPU, like any CPU module; its preprocessing is not inference.
    const double preprocess_s = module.preprocess_s.expected() * out.mean_inverse_cpu_speed;
    const double direct_s = module.direct_s->expected() * out.mean_inverse_cpu_speed;
    d.cpu_work_s += preprocess_s;
    d.inference_work_s += direct_s;
    const double t_s = preprocess_s * d.cpu_slowdown + direct_s * d.inference_slowdown;
    out.t_other_cpu_s += t_s;
    // Each part at its own slowdown, as the sum above takes them.
    d.note("t_cpu[" + module.name + "]", t_s, "s",
           d.scenario.platform.client_node.enabled()
               ? "direct inference: preprocess x E[1/speed]" + shared_node_words(d, false) +
                     " + direct x E[1/speed]" + shared_node_words(d, true)
               : "direct inference: (preprocess + direct) x E[1/speed]");
    break;
  }
  }
}

// The job client's split timed on each group's curve; the same seed gives the same draws on every curve, so
// inferences and requests agree and only the time differs. Adds each group's device and host demand and
// instances; returns the split with the GPU time averaged over the groups' shares of the pods.
namespace {

SplitMeans time_on_groups(Derivation& d, const Module& module, const Model& model, std::uint64_t module_index,
                          const std::vector<int>& model_groups, double model_pods,
                          std::vector<std::pair<int, SplitMeans>>& on_group) {
  const Platform& platform = d.scenario.platform;
  const Scenario& scenario = d.scenario;
  ScenarioParameters& out = d.out;
  auto& device_demand = d.device_demand;
  auto& host_demand = d.host_demand;
  auto& gpu_instances = d.gpu_instances;
  SplitMeans split;
  for (const int g : model_groups) {
    const ServerGroup& group = platform.server_groups[static_cast<std::size_t>(g)];
    const auto instances = effective_instance_groups(model, group);
    const bool on_cpu = std::all_of(instances.begin(), instances.end(), [](const InstanceGroup& i) {
      return i.kind == InstanceGroup::Kind::cpu;
    });
    if (!on_cpu && !std::all_of(instances.begin(), instances.end(),
                                [](const InstanceGroup& i) { return i.kind == InstanceGroup::Kind::gpu; }))
      out.caveats.push_back("model '" + module.model + "' has both GPU and CPU instances on group '" +
                            group.name + "': the analytic models send all its work to the devices");
    const std::string type = on_cpu ? cpu_device_type : group.device_type;
    const auto curve = model.throughput_by_device.find(type);
    if (curve == model.throughput_by_device.end())
      throw InputError("model '" + module.model + "' has no throughput curve for device type '" + type + "'");
    const SplitMeans timed = mean_request_split(module, curve->second, scenario.seed, module_index);
    on_group.emplace_back(g, timed);
    // With dynamic batching a saturated device runs merged batches of the largest size the batcher forms:
    // the demand the MVA's bottleneck sees is the curve's time at that size, per inference.
    const auto& batching = model.triton.dynamic_batching;
    double device_s = timed.gpu_s;
    double batches = timed.requests;
    if (batching.enabled && !on_cpu) {
      const int merged = batching.preferred_batch_sizes.empty()
                             ? model.triton.max_batch_size
                             : *std::max_element(batching.preferred_batch_sizes.begin(),
                                                 batching.preferred_batch_sizes.end());
      device_s = timed.inferences * curve->second.batch_time_s(merged) / merged;
      batches = timed.inferences / merged;
      d.note("t_GPU_merged[" + module.name + "]", device_s, "GPU-s",
             "dynamic batching: inferences x t(" + std::to_string(merged) + ") / " + std::to_string(merged) +
                 " on " + group.device_type + ", the saturated device's demand used by the MVA");
    }
    const double share = group.pods / model_pods;
    split.inferences = timed.inferences;
    split.requests = timed.requests;
    split.draws = timed.draws;
    if (!on_cpu) split.gpu_s += share * timed.gpu_s;
    if (!on_cpu) d.out.t_gpu_merging_saving_s += share * std::max(0.0, timed.gpu_s - device_s);
    device_demand[static_cast<std::size_t>(g)].push_back({module.model, on_cpu ? 0.0 : share * device_s});
    d.device_batches[static_cast<std::size_t>(g)].push_back(on_cpu ? 0.0 : share * batches);
    d.device_requests[static_cast<std::size_t>(g)].push_back(on_cpu ? 0.0 : share * timed.requests);
    int instances_per_pod = 0;
    for (const auto& i : instances)
      if (i.kind == InstanceGroup::Kind::gpu)
        instances_per_pod +=
            i.count * (i.devices.empty() ? group.devices_per_pod : static_cast<int>(i.devices.size()));
    gpu_instances[static_cast<std::size_t>(g)].push_back(instances_per_pod);
    host_demand[static_cast<std::size_t>(g)].push_back({module.model, on_cpu ? share * timed.gpu_s : 0.0});
  }
  return split;
}

} // namespace

// A module sent to the servers: its requests, bytes and device time per event, and each group's share.
void derive_remote_module(Derivation& d, const Module& module, std::uint64_t module_index) {
  const Platform& platform = d.scenario.platform;
  const Scenario& scenario = d.scenario;
  ScenarioParameters& out = d.out;
  const ServerLayout& layout = d.layout;
  out.accelerated_modules.push_back(module.name);
  const auto model = scenario.models.find(module.model);
  if (model == scenario.models.end())
    throw InputError("module '" + module.name + "': no model named '" + module.model + "'");
  // A module sent to the servers calls a served model (the layout lists every model a module calls).
  const std::size_t m = layout.model_index(module.model).value();
  const auto& model_groups = layout.model_groups[m];
  const double model_pods = static_cast<double>(layout.model_pods[m].size());
  std::vector<std::pair<int, SplitMeans>> on_group; // (group, split timed on what its instances run on)
  const SplitMeans split =
      time_on_groups(d, module, model->second, module_index, model_groups, model_pods, on_group);
  const std::string how = split.draws > 1 ? "mean of " + std::to_string(split.draws) +
                                                " draws of the job client's split (fixed seed), regressed "
                                                "on the known mean inference count"
                                          : "the job client's split (deterministic)";
  // Compression (a what-if): fewer bytes on the wire, CPU time per uncompressed byte added to
  // preprocessing, as the job client does; so is the client's side of each call (models.NAME.client_call).
  const double raw_input_bytes = split.inferences * model->second.input_bytes_per_inference;
  const HostCost& call = model->second.client_call;
  const double preprocess_work_s =
      (module.preprocess_s.expected() + raw_input_bytes * module.compression_time_per_byte_s +
       split.requests * call.per_request_s + raw_input_bytes / module.compression_ratio * call.per_byte_s) *
      out.mean_inverse_cpu_speed;
  d.cpu_work_s += preprocess_work_s;
  const double preprocess_s = preprocess_work_s * d.cpu_slowdown;
  out.t_preprocess_s += preprocess_s;
  out.inferences += split.inferences;
  out.requests += split.requests;
  out.t_gpu_s += split.gpu_s;
  const double input_bytes = raw_input_bytes / module.compression_ratio;
  const double output_bytes = split.inferences * model->second.output_bytes_per_inference;
  out.input_bytes += input_bytes;
  out.output_bytes += output_bytes;
  // Request handling on the server hosts, per event: each request's fixed cost plus its bytes.
  const double handling_s = split.requests * (model->second.compute_input.per_request_s +
                                              model->second.compute_output.per_request_s) +
                            input_bytes * model->second.compute_input.per_byte_s +
                            output_bytes * model->second.compute_output.per_byte_s;
  for (const auto& [g, timed] : on_group) {
    const double share = platform.server_groups[static_cast<std::size_t>(g)].pods / model_pods;
    d.host_demand[static_cast<std::size_t>(g)].back().second += share * handling_s;
    d.group_bytes[static_cast<std::size_t>(g)] += share * input_bytes;
  }
  const std::string tag = "[" + module.name + "]";
  d.note("t_preprocess" + tag, preprocess_s, "s",
         describe(module.preprocess_s) + " s" + (call.is_free() ? "" : " + the client's side of each call") +
             " x E[1/speed]");
  d.note("inferences" + tag, split.inferences, "/event",
         describe(module.inferences) + ", the mean of the counts drawn (each rounded, at least 0)");
  d.note("requests" + tag, split.requests, "/event",
         std::to_string(module.groups) + " groups (spread " + format("%g", module.group_spread) +
             ") in chunks of at most " + std::to_string(module.max_batch) + "; " + how);
  std::string devices;
  for (const auto& [g, timed] : on_group) {
    const auto& group = platform.server_groups[static_cast<std::size_t>(g)];
    devices += (devices.empty() ? "" : ", ") + group.device_type + " (" + group.name + ")";
  }
  d.note("t_GPU" + tag, split.gpu_s, "GPU-s",
         "sum over requests of batch / throughput(batch) + overhead on " + devices + "; " + how);
  d.note("effective throughput" + tag, split.gpu_s > 0 ? split.inferences / split.gpu_s : 0.0, "inf/s",
         "inferences / t_GPU: the curve at the request sizes");
}

} // namespace sonicsim::analysis::derivation
