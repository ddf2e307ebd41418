#include "sim/analysis/scenario_parameters.hpp"

#include "models/network_limit.hpp"
#include "sim/policy/request_split.hpp"
#include "sim/random/distribution.hpp"
#include "sim/random/random_streams.hpp"
#include "sim/scenario/input_error.hpp"
#include "sim/scenario/server_layout.hpp"

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
  out.threads = scenario.workload.threads;
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
  const double switch_left_bps = out.switch_bandwidth_bps - out.background_bps;
  const ServerLayout layout = make_server_layout(scenario);
  // The groups that serve some model, in the order written.
  std::vector<bool> serving(platform.server_groups.size(), false);
  for (const auto& groups : layout.model_groups)
    for (const int g : groups)
      serving[static_cast<std::size_t>(g)] = true;
  out.pods = 0;
  out.n_gpu = 0;
  out.pod_nic_bandwidth_bps = std::numeric_limits<double>::infinity();
  for (std::size_t g = 0; g < serving.size(); ++g) {
    if (!serving[g]) continue;
    const ServerGroup& group = platform.server_groups[g];
    out.pods += group.pods;
    out.n_gpu += group.devices();
    // A connection is capped by its pod's NIC; with groups of different NICs the slowest is taken.
    out.pod_nic_bandwidth_bps = std::min(out.pod_nic_bandwidth_bps, group.nic_bandwidth_bps);
  }
  const double connection_cap_bps = std::min({window_rate_bps, platform.wan.bandwidth_bps,
                                              out.pod_nic_bandwidth_bps, std::max(switch_left_bps, 0.0)});
  // Expected time per bit over the NIC mix (time, not rate, is what averages).
  double seconds_per_bit = 0.0;
  for (const auto& nic : platform.nic_mix)
    seconds_per_bit += nic.fraction / std::min(nic.bandwidth_bps, connection_cap_bps);
  note("connection rate", 1.0 / seconds_per_bit, "bit/s",
       "harmonic mean over the NIC mix of min(NIC, TCP window x 8 / RTT = " +
           format("%.4g", window_rate_bps / 1e9) + " Gb/s, WAN, pod NIC, switch - background)");

  // Per group: each model's device and host demand per event, and the bytes sent to its pods per event.
  std::vector<std::vector<std::pair<std::string, double>>> device_demand(platform.server_groups.size()),
      host_demand(platform.server_groups.size());
  // Per group, parallel to device_demand: each model's GPU-kind instances per pod.
  std::vector<std::vector<int>> gpu_instances(platform.server_groups.size());
  std::vector<double> group_bytes(platform.server_groups.size(), 0.0);
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
      if (module.run_direct) {
        // Direct inference: the model on the job's CPU, like any CPU module.
        const double t_s =
            (module.preprocess_s.expected() + module.direct_s->expected()) * out.mean_inverse_cpu_speed;
        out.t_other_cpu_s += t_s;
        note("t_cpu[" + module.name + "]", t_s, "s", "direct inference: (preprocess + direct) x E[1/speed]");
        break;
      }
      out.accelerated_modules.push_back(module.name);
      const auto model = scenario.models.find(module.model);
      if (model == scenario.models.end())
        throw InputError("module '" + module.name + "': no model named '" + module.model + "'");
      const int m = layout.model_index(module.model);
      const auto& model_groups = layout.model_groups[static_cast<std::size_t>(m)];
      const double model_pods = static_cast<double>(layout.model_pods[static_cast<std::size_t>(m)].size());
      // The job client's split timed on each group's curve; the same seed gives the same draws on every
      // curve, so inferences and requests agree and only the time differs.
      SplitMeans split;
      std::vector<std::pair<int, SplitMeans>> on_group; // (group, split timed on what its instances run on)
      for (const int g : model_groups) {
        const ServerGroup& group = platform.server_groups[static_cast<std::size_t>(g)];
        const auto instances = effective_instance_groups(model->second, group);
        const bool on_cpu = std::all_of(instances.begin(), instances.end(), [](const InstanceGroup& i) {
          return i.kind == InstanceGroup::Kind::cpu;
        });
        if (!on_cpu && !std::all_of(instances.begin(), instances.end(), [](const InstanceGroup& i) {
              return i.kind == InstanceGroup::Kind::gpu;
            }))
          out.caveats.push_back("model '" + module.model + "' has both GPU and CPU instances on group '" +
                                group.name + "': the analytic models send all its work to the devices");
        const std::string type = on_cpu ? cpu_device_type : group.device_type;
        const auto curve = model->second.throughput_by_device.find(type);
        if (curve == model->second.throughput_by_device.end())
          throw InputError("model '" + module.model + "' has no throughput curve for device type '" + type +
                           "'");
        const SplitMeans timed = mean_request_split(module, curve->second, scenario.seed, module_index);
        on_group.emplace_back(g, timed);
        // With dynamic batching a saturated device runs merged batches of the largest size the batcher forms:
        // the demand the MVA's bottleneck sees is the curve's time at that size, per inference.
        const auto& batching = model->second.triton.dynamic_batching;
        double device_s = timed.gpu_s;
        if (batching.enabled && !on_cpu) {
          const int merged = batching.preferred_batch_sizes.empty()
                                 ? model->second.triton.max_batch_size
                                 : *std::max_element(batching.preferred_batch_sizes.begin(),
                                                     batching.preferred_batch_sizes.end());
          device_s = timed.inferences * curve->second.batch_time_s(merged) / merged;
          note("t_GPU_merged[" + module.name + "]", device_s, "GPU-s",
               "dynamic batching: inferences x t(" + std::to_string(merged) + ") / " +
                   std::to_string(merged) + " on " + group.device_type +
                   ", the saturated device's demand used by the MVA");
        }
        const double share = group.pods / model_pods;
        split.inferences = timed.inferences;
        split.requests = timed.requests;
        split.draws = timed.draws;
        if (!on_cpu) split.gpu_s += share * timed.gpu_s;
        device_demand[static_cast<std::size_t>(g)].push_back({module.model, on_cpu ? 0.0 : share * device_s});
        int instances_per_pod = 0;
        for (const auto& i : instances)
          if (i.kind == InstanceGroup::Kind::gpu)
            instances_per_pod +=
                i.count * (i.devices.empty() ? group.devices_per_pod : static_cast<int>(i.devices.size()));
        gpu_instances[static_cast<std::size_t>(g)].push_back(instances_per_pod);
        host_demand[static_cast<std::size_t>(g)].push_back(
            {module.model, on_cpu ? share * timed.gpu_s : 0.0});
      }
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
      // Request handling on the server hosts, per event: each request's fixed cost plus its bytes.
      const double handling_s = split.requests * (model->second.compute_input.per_request_s +
                                                  model->second.compute_output.per_request_s) +
                                input_bytes * model->second.compute_input.per_byte_s +
                                output_bytes * model->second.compute_output.per_byte_s;
      for (const auto& [g, timed] : on_group) {
        const double share = platform.server_groups[static_cast<std::size_t>(g)].pods / model_pods;
        host_demand[static_cast<std::size_t>(g)].back().second += share * handling_s;
        group_bytes[static_cast<std::size_t>(g)] += share * input_bytes;
      }
      const std::string tag = "[" + module.name + "]";
      note("t_preprocess" + tag, preprocess_s, "s", describe(module.preprocess_s) + " s x E[1/speed]");
      note("inferences" + tag, split.inferences, "/event",
           describe(module.inferences) + ", the distribution's mean");
      note("requests" + tag, split.requests, "/event",
           std::to_string(module.groups) + " groups (spread " + format("%g", module.group_spread) +
               ") in chunks of at most " + std::to_string(module.max_batch) + "; " + how);
      std::string devices;
      for (const auto& [g, timed] : on_group) {
        const auto& group = platform.server_groups[static_cast<std::size_t>(g)];
        devices += (devices.empty() ? "" : ", ") + group.device_type + " (" + group.name + ")";
      }
      note("t_GPU" + tag, split.gpu_s, "GPU-s",
           "sum over requests of batch / throughput(batch) + overhead on " + devices + "; " + how);
      note("effective throughput" + tag, split.gpu_s > 0 ? split.inferences / split.gpu_s : 0.0, "inf/s",
           "inferences / t_GPU: the curve at the request sizes");
      break;
    }
    }
  }
  if (out.accelerated_modules.empty())
    throw InputError("scenario '" + scenario.name +
                     "' has no remote_inference module: the analytic models describe inference as a service");
  // The server stations: each group's device pool, then each group's host when it has work.
  for (std::size_t g = 0; g < platform.server_groups.size(); ++g) {
    if (!serving[g]) continue;
    const ServerGroup& group = platform.server_groups[g];
    if (group.devices_per_pod == 0) continue;
    ScenarioParameters::ServerStation station{device_pool_name(layout, group),
                                              ScenarioParameters::ServerStation::Kind::devices,
                                              static_cast<int>(g),
                                              group.devices(),
                                              0.0,
                                              device_demand[g]};
    std::size_t models_on_devices = 0, only = 0;
    for (std::size_t i = 0; i < device_demand[g].size(); ++i) {
      station.demand_s += device_demand[g][i].second;
      if (device_demand[g][i].second > 0.0) {
        ++models_on_devices;
        only = i;
      }
    }
    station.device_busy_s = station.demand_s;
    station.devices = station.servers;
    if (models_on_devices == 1 && gpu_instances[g][only] > 0) {
      // Fewer instances than the work needs: with one instance per device and host handling, the instance
      // (handling + execution) saturates before the device does. Several models on one device: left to the
      // device station (a caveat says the MVA does not limit instances).
      const double held_s = device_demand[g][only].second + host_demand[g][only].second;
      const int instances = gpu_instances[g][only] * group.pods;
      if (held_s / instances > station.demand_s / station.servers) {
        station.limited_by_instances = true;
        station.servers = instances;
        station.demand_s = held_s;
      }
    }
    out.server_stations.push_back(station);
  }
  for (std::size_t g = 0; g < platform.server_groups.size(); ++g) {
    const ServerGroup& group = platform.server_groups[g];
    ScenarioParameters::ServerStation station{host_cores_name(layout, group),
                                              ScenarioParameters::ServerStation::Kind::host,
                                              static_cast<int>(g),
                                              group.pods * group.host_cores,
                                              0.0,
                                              host_demand[g]};
    for (const auto& part : host_demand[g])
      station.demand_s += part.second;
    if (station.demand_s <= 0.0) continue;
    out.t_host_s += station.demand_s;
    out.server_stations.push_back(station);
  }
  // Shared links on the way out, in terms of the jobs' total traffic: a group's NICs carry only its share.
  for (std::size_t g = 0; g < platform.server_groups.size(); ++g) {
    if (!serving[g]) continue;
    const ServerGroup& group = platform.server_groups[g];
    const double share = out.input_bytes > 0.0 ? group_bytes[g] / out.input_bytes : 1.0;
    out.pod_nics.push_back({pod_nics_name(layout, group), group.pods, group.nic_bandwidth_bps, share});
    const std::string label =
        layout.single_group ? "pod NICs (all pods)" : pod_nics_name(layout, group) + " (all its pods)";
    std::string capacity = std::to_string(group.pods) + " x " + gbps_text(group.nic_bandwidth_bps);
    if (!layout.single_group) capacity += format(" for %.3g of the traffic", share);
    out.outbound_links.push_back({pod_nics_name(layout, group), label, capacity,
                                  share > 0.0 ? group.pods * group.nic_bandwidth_bps / share
                                              : std::numeric_limits<double>::infinity()});
  }
  const std::size_t pod_links = out.outbound_links.size();
  out.outbound_links.push_back(
      {"site switch", "site switch minus background",
       gbps_text(out.switch_bandwidth_bps) + " minus " + gbps_text(out.background_bps) + " background",
       switch_left_bps});
  out.outbound_links.push_back(
      {"WAN", "WAN", gbps_text(platform.wan.bandwidth_bps), platform.wan.bandwidth_bps});
  // The tightest; on a tie the site switch, then the WAN, is named (pods can be added, they cannot).
  const ScenarioParameters::OutboundLink* tightest = &out.outbound_links[pod_links];
  if (out.outbound_links[pod_links + 1].free_bps < tightest->free_bps)
    tightest = &out.outbound_links[pod_links + 1];
  for (std::size_t i = 0; i < pod_links; ++i)
    if (out.outbound_links[i].free_bps < tightest->free_bps) tightest = &out.outbound_links[i];
  out.shared_outbound_bps = tightest->free_bps;
  out.shared_outbound_link = tightest->label;

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
  if (layout.single_group) {
    const ServerGroup& group = platform.server_groups.front();
    note("N_GPU", out.n_gpu, "GPUs",
         std::to_string(group.pods) + " pods x " + std::to_string(group.devices_per_pod) +
             " GPUs (instances per GPU share it)");
  } else {
    note("N_GPU", out.n_gpu, "devices",
         "devices of every group serving a model (instances on a device share it)");
  }
  for (const auto& station : out.server_stations) {
    std::string parts;
    for (const auto& [model, demand] : station.demand_by_model)
      if (demand > 0.0) parts += (parts.empty() ? "" : " + ") + model + " " + format("%.4g", demand);
    note("D[" + station.name + "]", station.demand_s,
         station.kind == ScenarioParameters::ServerStation::Kind::devices ? "device-s" : "core-s",
         station.limited_by_instances
             ? "demand per event on " + std::to_string(station.servers) + " instances (each held for input " +
                   "handling, execution and output handling: " + format("%.4g", station.device_busy_s) +
                   " device-s + " + format("%.4g", station.demand_s - station.device_busy_s) +
                   " handling) on " + std::to_string(station.devices) + " devices: " + parts
             : "demand per event on " + std::to_string(station.servers) +
                   (station.kind == ScenarioParameters::ServerStation::Kind::devices ? " devices: "
                                                                                     : " cores: ") +
                   parts);
  }
  note("shared outbound", out.shared_outbound_bps, "bit/s",
       "tightest shared outbound link: " + out.shared_outbound_link);

  for (std::size_t m = 0; m < layout.served_models.size(); ++m) {
    const std::string& name = layout.served_models[m];
    const Model& model = scenario.models.at(name);
    if (model.triton.dynamic_batching.enabled)
      out.caveats.push_back(
          "model '" + name +
          "' has dynamic batching: under load the server merges requests into larger batches that run faster "
          "than t_GPU assumes, so the SONIC model's knee is early; the MVA's device demand is the merged "
          "batch's (t_GPU_merged), its knee is where a saturated batcher would put it");
    for (const auto& instances : model.triton.instance_groups)
      if (instances.count > 1 && instances.kind == InstanceGroup::Kind::gpu) {
        out.caveats.push_back("model '" + name + "' runs " + std::to_string(instances.count) +
                              " instances per device: they share the device, so capacity is per device");
        break;
      }
    const auto pods = layout.model_pods[m].size();
    if (pods > 1 && model.deploy.load_balancer == LoadBalancer::random)
      out.caveats.push_back(
          "jobs are assigned to the " + std::to_string(pods) + " pods serving '" + name +
          "' at random; the models treat the devices as one pool with one queue, so the simulator "
          "queues earlier on the busier pods (per-pod imbalance)");
  }
  if (out.t_host_s > 0.0)
    out.caveats.push_back(
        "server hosts do " + format("%.4g", out.t_host_s) +
        " core-s of work per event (request handling or CPU instances): the MVA has them as "
        "stations; the SONIC model of arXiv:2009.04509 has no such term. An instance is busy for its batch's "
        "input handling, execution and output handling; the MVA limits the instances only for a model alone "
        "on its devices, so with several models and few instances per device the simulator saturates "
        "earlier");
  if (!layout.single_group)
    out.caveats.push_back(
        "several server groups: the SONIC model pools every device (N_GPU); the MVA keeps each "
        "group's devices, hosts and NICs as their own stations");
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
  for (const auto& station : server_stations)
    network.stations.push_back(models::QueueingStation{station.name, station.demand_s, station.servers});
  const double out_bits = input_bytes * 8.0;
  const double switch_left_bps = switch_bandwidth_bps - background_bps;
  double network_demand_s = 0.0;
  if (switch_left_bps > 0.0 && out_bits > 0.0) {
    network.stations.push_back(models::QueueingStation{"site switch (out)", out_bits / switch_left_bps, 1});
    network_demand_s += out_bits / switch_left_bps;
  }
  for (const auto& nics : pod_nics) {
    const double demand_s = nics.traffic_share * out_bits / nics.nic_bps;
    if (demand_s <= 0.0) continue;
    network.stations.push_back(models::QueueingStation{nics.name + " (in)", demand_s, nics.pods});
    network_demand_s += demand_s;
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
