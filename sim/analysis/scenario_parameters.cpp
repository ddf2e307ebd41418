#include "sim/analysis/scenario_parameters.hpp"

#include "models/network_limit.hpp"
#include "sim/policy/request_split.hpp"
#include "sim/random/distribution.hpp"
#include "sim/random/random_streams.hpp"
#include "sim/scenario/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numeric>

namespace sonicsim::analysis {
namespace {

// The analysis draws from its own stream so that it never shares numbers with a simulated job; it only needs
// to be fixed (same scenario, same parameters), not independent of anything.
constexpr std::uint64_t stream_request_split = 0xA7A1;

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

std::string gbps_text(double bps) {
  return format("%g Gb/s", bps / 1e9);
}

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
  // (the distribution's). Regressing on it removes the sampling error of the count (2 % for an exponential
  // count over 2,000 draws), leaving only the error from the group weights.
  double count_variance = 0.0, requests_covariance = 0.0, gpu_covariance = 0.0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    count_variance += (counts[i] - out.inferences) * (counts[i] - out.inferences);
    requests_covariance += (counts[i] - out.inferences) * (requests[i] - out.requests);
    gpu_covariance += (counts[i] - out.inferences) * (gpu_s[i] - out.gpu_s);
  }
  if (count_variance > 0.0) {
    const double known_mean = module.inferences.expected();
    out.requests -= requests_covariance / count_variance * (out.inferences - known_mean);
    out.gpu_s -= gpu_covariance / count_variance * (out.inferences - known_mean);
    out.inferences = known_mean;
  }
  return out;
}

} // namespace

ScenarioParameters derive_parameters(const Scenario& scenario) {
  const auto& platform = scenario.platform;
  ScenarioParameters out;
  out.scenario_name = scenario.name;
  auto note = [&out](std::string symbol, double value, std::string unit, std::string derivation) {
    out.quantities.push_back(
        DerivedQuantity{std::move(symbol), value, std::move(unit), std::move(derivation)});
  };

  out.mean_inverse_cpu_speed = 0.0;
  for (const auto& cpu : platform.cpu_mix)
    out.mean_inverse_cpu_speed += cpu.fraction / cpu.speed;
  note("E[1/speed]", out.mean_inverse_cpu_speed, "",
       "CPU mix: sum of fraction / speed (a job's CPU durations are divided by its CPU's speed)");

  // Connection rate: a request's flow is capped by the worker NIC, the TCP window over the RTT (SimGrid CM02:
  // window / (2 x one-way latency)), the WAN, the pod's NIC and what background traffic leaves of the switch.
  const double rtt_s = platform.wan.rtt_s;
  const double window_rate_bps = platform.network.tcp_window_bytes > 0.0 && rtt_s > 0.0
                                     ? platform.network.tcp_window_bytes * 8.0 / rtt_s
                                     : std::numeric_limits<double>::infinity();
  out.switch_bandwidth_bps = platform.site_switch.bandwidth_bps;
  out.background_bps = platform.site_switch.background.rate_bps;
  out.pod_nic_bandwidth_bps = platform.pods.nic_bandwidth_bps;
  out.pods = platform.pods.count;
  out.n_gpu = platform.pods.count * platform.pods.gpus_per_pod;
  const double switch_left_bps = out.switch_bandwidth_bps - out.background_bps;
  out.outbound_links = {
      {"pod NICs", "pod NICs (all pods)",
       std::to_string(out.pods) + " x " + gbps_text(out.pod_nic_bandwidth_bps),
       out.pods * out.pod_nic_bandwidth_bps},
      {"site switch", "site switch minus background",
       gbps_text(out.switch_bandwidth_bps) + " minus " + gbps_text(out.background_bps) + " background",
       switch_left_bps},
      {"WAN", "WAN", gbps_text(platform.wan.bandwidth_bps), platform.wan.bandwidth_bps}};
  // The tightest; on a tie the site switch, then the WAN, is named (pods can be added, they cannot).
  const ScenarioParameters::OutboundLink* tightest = &out.outbound_links[1];
  for (const auto* link : {&out.outbound_links[2], &out.outbound_links[0]})
    if (link->free_bps < tightest->free_bps) tightest = link;
  out.shared_outbound_bps = tightest->free_bps;
  out.shared_outbound_link = tightest->label;
  const double connection_cap_bps = std::min({window_rate_bps, platform.wan.bandwidth_bps,
                                              out.pod_nic_bandwidth_bps, std::max(switch_left_bps, 0.0)});
  // Expected time per bit over the NIC mix (time, not rate, is what averages).
  double seconds_per_bit = 0.0;
  for (const auto& nic : platform.nic_mix)
    seconds_per_bit += nic.fraction / std::min(nic.bandwidth_bps, connection_cap_bps);
  note("connection rate", 1.0 / seconds_per_bit, "bit/s",
       "harmonic mean over the NIC mix of min(NIC, TCP window x 8 / RTT = " +
           format("%.4g", window_rate_bps / 1e9) + " Gb/s, WAN, pod NIC, switch - background)");

  std::uint64_t module_index = 0;
  for (const auto& module : scenario.workload.pipeline) {
    ++module_index;
    switch (module.type) {
    case Module::Type::cpu: {
      const double t_s = module.duration_s.expected() * out.mean_inverse_cpu_speed;
      out.t_other_cpu_s += t_s;
      note("t_cpu[" + module.name + "]", t_s, "s", describe(module.duration_s) + " s x E[1/speed]");
      break;
    }
    case Module::Type::local_inference: {
      const double t_s = (module.preprocess_s.expected() +
                          module.inferences.expected() * module.local_time_per_inference_s) *
                         out.mean_inverse_cpu_speed;
      out.t_other_cpu_s += t_s;
      note("t_cpu[" + module.name + "]", t_s, "s",
           "local inference: (preprocess + inferences x time per inference) x E[1/speed]");
      break;
    }
    case Module::Type::remote_inference: {
      out.accelerated_modules.push_back(module.name);
      const auto model = scenario.models.find(module.model);
      if (model == scenario.models.end())
        throw InputError("module '" + module.name + "': no model named '" + module.model + "'");
      const auto curve = model->second.throughput_by_gpu.find(platform.pods.gpu_type);
      if (curve == model->second.throughput_by_gpu.end())
        throw InputError("model '" + module.model + "' has no throughput curve for GPU type '" +
                         platform.pods.gpu_type + "'");
      const SplitMeans split = mean_request_split(module, curve->second, scenario.seed, module_index);
      const std::string how = split.draws > 1
                                  ? "mean of " + std::to_string(split.draws) +
                                        " draws of the job client's split (fixed seed), regressed "
                                        "on the known mean inference count"
                                  : "the job client's split (deterministic)";
      // Compression (a what-if): fewer bytes on the wire, CPU time per uncompressed byte added to
      // preprocessing, as the job client does.
      const double raw_input_bytes = split.inferences * model->second.input_bytes_per_inference;
      const double preprocess_s =
          (module.preprocess_s.expected() + raw_input_bytes * module.compression_time_per_byte_s) *
          out.mean_inverse_cpu_speed;
      out.t_preprocess_s += preprocess_s;
      out.inferences += split.inferences;
      out.requests += split.requests;
      out.t_gpu_s += split.gpu_s;
      const double input_bytes = raw_input_bytes / module.compression_ratio;
      const double output_bytes = split.inferences * model->second.output_bytes_per_inference;
      out.input_bytes += input_bytes;
      out.output_bytes += output_bytes;
      const std::string tag = "[" + module.name + "]";
      note("t_preprocess" + tag, preprocess_s, "s", describe(module.preprocess_s) + " s x E[1/speed]");
      note("inferences" + tag, split.inferences, "/event",
           describe(module.inferences) + ", the distribution's mean");
      note("requests" + tag, split.requests, "/event",
           std::to_string(module.groups) + " groups (spread " + format("%g", module.group_spread) +
               ") in chunks of at most " + std::to_string(module.max_batch) + "; " + how);
      note("t_GPU" + tag, split.gpu_s, "GPU-s",
           "sum over requests of batch / throughput(batch) + overhead on " + platform.pods.gpu_type + "; " +
               how);
      note("effective throughput" + tag, split.gpu_s > 0 ? split.inferences / split.gpu_s : 0.0, "inf/s",
           "inferences / t_GPU: the curve at the request sizes");
      break;
    }
    }
  }
  if (out.accelerated_modules.empty())
    throw InputError("scenario '" + scenario.name +
                     "' has no remote_inference module: the analytic models describe inference as a service");
  out.mean_request_size = out.requests > 0 ? out.inferences / out.requests : 0.0;
  out.t_transmit_s = (out.input_bytes + out.output_bytes) * 8.0 * seconds_per_bit;
  out.t_travel_s = out.requests * rtt_s;
  note("t_other_cpu", out.t_other_cpu_s, "s", "sum of the CPU modules outside the accelerated module(s)");
  note("t_preprocess", out.t_preprocess_s, "s", "preprocessing of the accelerated module(s), counted once");
  note("mean request size", out.mean_request_size, "inferences", "inferences / requests");
  note("t_GPU", out.t_gpu_s, "GPU-s", "GPU time per event at the request batch sizes (no merging)");
  note("bytes out", out.input_bytes, "B/event", "inferences x input bytes per inference");
  note("bytes back", out.output_bytes, "B/event", "inferences x output bytes per inference");
  note("t_transmit", out.t_transmit_s, "s", "(bytes out + back) x 8 x E[1 / connection rate]");
  note("t_travel", out.t_travel_s, "s", "requests x RTT (" + format("%g", rtt_s * 1e3) + " ms)");
  note("N_GPU", out.n_gpu, "GPUs",
       std::to_string(platform.pods.count) + " pods x " + std::to_string(platform.pods.gpus_per_pod) +
           " GPUs (instances per GPU share it)");
  note("shared outbound", out.shared_outbound_bps, "bit/s",
       "tightest shared outbound link: " + out.shared_outbound_link);

  for (const auto& [name, model] : scenario.models) {
    if (model.triton.dynamic_batching.enabled)
      out.caveats.push_back(
          "model '" + name +
          "' has dynamic batching: under load the server merges requests into larger batches "
          "that run faster than t_GPU assumes, so the simulated knee can be later");
    if (model.triton.instances_per_gpu > 1)
      out.caveats.push_back("model '" + name + "' runs " + std::to_string(model.triton.instances_per_gpu) +
                            " instances per GPU: they share the GPU, so capacity is per GPU");
  }
  if (out.pods > 1 && platform.pods.load_balancer == LoadBalancer::random)
    out.caveats.push_back(
        "jobs are assigned to the " + std::to_string(out.pods) +
        " pods at random; the models treat the GPUs as one pool with one queue, so the simulator "
        "queues earlier on the busier pods (per-pod imbalance)");
  if (platform.jobs_per_node > 1)
    out.caveats.push_back(
        "jobs on one node share its NIC; t_transmit assumes one transfer at a time per NIC");
  if (scenario.workload.client.asynchronous)
    out.caveats.push_back(
        "asynchronous requests overlap; the models assume blocking requests one after another");
  if (switch_left_bps <= 0.0)
    out.caveats.push_back("background traffic fills the site switch: no job can transmit");
  return out;
}

models::SonicLatencyModel ScenarioParameters::latency_model() const {
  return models::SonicLatencyModel::from_components(t_other_cpu_s, t_preprocess_s, t_gpu_s, t_transmit_s,
                                                    t_travel_s, static_cast<double>(n_gpu));
}

models::ClosedNetwork ScenarioParameters::closed_network() const {
  models::ClosedNetwork network;
  network.stations.push_back(models::QueueingStation{"GPU pool", t_gpu_s, n_gpu});
  const double out_bits = input_bytes * 8.0;
  const double switch_left_bps = switch_bandwidth_bps - background_bps;
  double network_demand_s = 0.0;
  if (switch_left_bps > 0.0 && out_bits > 0.0) {
    network.stations.push_back(models::QueueingStation{"site switch (out)", out_bits / switch_left_bps, 1});
    network_demand_s += out_bits / switch_left_bps;
  }
  if (pod_nic_bandwidth_bps > 0.0 && out_bits > 0.0) {
    network.stations.push_back(
        models::QueueingStation{"pod NICs (in)", out_bits / pod_nic_bandwidth_bps, pods});
    network_demand_s += out_bits / pod_nic_bandwidth_bps;
  }
  const double delay_s = t_other_cpu_s + t_preprocess_s + t_transmit_s + t_travel_s - network_demand_s;
  network.think_time_s = std::max(0.0, delay_s);
  return network;
}

double ScenarioParameters::network_limited_jobs(double event_time_s) const {
  return models::jobs_filling_link(shared_outbound_bps,
                                   models::per_job_traffic_bps(input_bytes * 8.0, event_time_s));
}

double ScenarioParameters::jobs_filling(const OutboundLink& link, double event_time_s) const {
  return models::jobs_filling_link(link.free_bps,
                                   models::per_job_traffic_bps(input_bytes * 8.0, event_time_s));
}

} // namespace sonicsim::analysis
