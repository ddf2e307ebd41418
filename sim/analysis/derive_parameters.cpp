// derive_parameters: the analytic models' inputs from a scenario, each with how it was derived, in steps:
// the connection and each module (derive_modules.cpp), then here the server stations, the outbound links, the
// totals in words and the caveats.
#include "models/network_limit.hpp"
#include "sim/analysis/client_node_sharing.hpp"
#include "sim/analysis/parameter_derivation.hpp"
#include "sim/policy/request_split.hpp"
#include "sim/random/distribution.hpp"
#include "sim/random/random_streams.hpp"
#include "sim/scenario/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace sonicsim::analysis {
namespace {

using namespace derivation;

// Models sharing a device with a model-switch time: a batch follows another model's batch with the
// probability that a batch drawn at random is of another model (1 - p_m, p_m: model m's share of the
// device's batches), as when the models' batches interleave at random; each such batch adds the switch.
void add_model_switches(Derivation& d, std::size_t g, ScenarioParameters::ServerStation& station) {
  const ServerGroup& group = d.scenario.platform.server_groups[g];
  if (group.model_switch_s <= 0.0 && group.model_switch_slowdown <= 0.0) return;
  double batches = 0.0;
  for (const double b : d.device_batches[g])
    batches += b;
  if (batches <= 0.0) return;
  double switches = 0.0;
  for (std::size_t i = 0; i < d.device_batches[g].size(); ++i) {
    const double b = d.device_batches[g][i];
    const double model_switches = b * (1.0 - b / batches);
    switches += model_switches;
    // The slowdown lengthens each such batch by a fraction of its mean time (the model's demand over its
    // batches).
    const double added_s = model_switches * group.model_switch_s + (1.0 - b / batches) *
                                                                       group.model_switch_slowdown *
                                                                       station.demand_by_model[i].second;
    station.demand_by_model[i].second += added_s;
    station.demand_s += added_s;
  }
  // The same at low load, where each request is its own batch: what the SONIC model leaves out.
  double requests = 0.0;
  for (const double r : d.device_requests[g])
    requests += r;
  for (std::size_t i = 0; i < d.device_requests[g].size() && requests > 0.0; ++i) {
    const double r = d.device_requests[g][i];
    d.out.t_model_switch_s += r * (1.0 - r / requests) * group.model_switch_s;
  }
  d.note("model_switches[" + group.name + "]", switches, "switches/event",
         "sum over the models on the devices of batches x (1 - their share of the batches): batches of "
         "models interleaved at random; each adds model_switch_time and model_switch_slowdown x its time");
}

void derive_device_stations(Derivation& d) {
  const Platform& platform = d.scenario.platform;
  const ServerLayout& layout = d.layout;
  // The server stations: each group's device pool, then each group's host when it has work.
  for (std::size_t g = 0; g < platform.server_groups.size(); ++g) {
    if (!d.serving[g]) continue;
    const ServerGroup& group = platform.server_groups[g];
    if (group.devices_per_pod == 0) continue;
    ScenarioParameters::ServerStation station{device_pool_name(layout, group),
                                              ScenarioParameters::ServerStation::Kind::devices,
                                              static_cast<int>(g),
                                              group.devices(),
                                              0.0,
                                              d.device_demand[g]};
    std::size_t models_on_devices = 0, only = 0;
    for (std::size_t i = 0; i < d.device_demand[g].size(); ++i) {
      station.demand_s += d.device_demand[g][i].second;
      if (d.device_demand[g][i].second > 0.0) {
        ++models_on_devices;
        only = i;
      }
    }
    add_model_switches(d, g, station);
    station.device_busy_s = station.demand_s;
    station.devices = station.servers;
    if (models_on_devices == 1 && d.gpu_instances[g][only] > 0) {
      // Fewer instances than the work needs: with one instance per device and host handling, the instance
      // (handling + execution) saturates before the device does. Several models on one device: left to the
      // device station (a caveat says the MVA does not limit instances).
      const double held_s = d.device_demand[g][only].second + d.host_demand[g][only].second;
      const int instances = d.gpu_instances[g][only] * group.pods;
      if (held_s / instances > station.demand_s / station.servers) {
        station.limited_by_instances = true;
        station.servers = instances;
        station.demand_s = held_s;
        // Named as the simulator's summary names this limit (the recorder's instance occupancy).
        station.name = "instances of " + d.device_demand[g][only].first;
      }
    }
    d.out.server_stations.push_back(station);
  }
}

void derive_host_stations(Derivation& d) {
  const Platform& platform = d.scenario.platform;
  const ServerLayout& layout = d.layout;
  for (std::size_t g = 0; g < platform.server_groups.size(); ++g) {
    const ServerGroup& group = platform.server_groups[g];
    ScenarioParameters::ServerStation station{host_cores_name(layout, group),
                                              ScenarioParameters::ServerStation::Kind::host,
                                              static_cast<int>(g),
                                              group.pods * group.host_cores,
                                              0.0,
                                              d.host_demand[g]};
    for (const auto& part : d.host_demand[g])
      station.demand_s += part.second;
    if (station.demand_s <= 0.0) continue;
    d.out.t_host_s += station.demand_s;
    d.out.server_stations.push_back(station);
  }
}

// Shared links on the way out, in terms of the jobs' total traffic: a group's NICs carry only its share.
void derive_outbound_links(Derivation& d) {
  const Platform& platform = d.scenario.platform;
  const ServerLayout& layout = d.layout;
  ScenarioParameters& out = d.out;
  for (std::size_t g = 0; g < platform.server_groups.size(); ++g) {
    if (!d.serving[g]) continue;
    const ServerGroup& group = platform.server_groups[g];
    const double share = out.input_bytes > 0.0 ? d.group_bytes[g] / out.input_bytes : 1.0;
    out.pod_nics.push_back(
        {pod_nics_name(layout, group), static_cast<int>(g), group.pods, group.nic_bandwidth_bps, share});
    const std::string label =
        layout.single_group ? "pod NICs (all pods)" : pod_nics_name(layout, group) + " (all its pods)";
    std::string capacity = std::to_string(group.pods) + " x " + gbps_text(group.nic_bandwidth_bps);
    if (!layout.single_group) capacity += format(" for %.3g of the traffic", share);
    out.outbound_links.push_back(
        {pod_nics_name(layout, group), label, capacity,
         share > 0.0 ? group.pods * group.nic_bandwidth_bps / share : std::numeric_limits<double>::infinity(),
         ResourceKind::pod_nics, static_cast<int>(g)});
  }
  const std::size_t pod_links = out.outbound_links.size();
  out.outbound_links.push_back(
      {"site switch", "site switch minus background",
       gbps_text(out.switch_bandwidth_bps) + " minus " + gbps_text(out.background_bps) + " background",
       d.switch_left_bps, ResourceKind::site_switch, std::nullopt});
  out.outbound_links.push_back({"WAN", "WAN", gbps_text(platform.wan.bandwidth_bps),
                                platform.wan.bandwidth_bps, ResourceKind::wan, std::nullopt});
  // The tightest; on a tie the site switch, then the WAN, is named (pods can be added, they cannot).
  const ScenarioParameters::OutboundLink* tightest = &out.outbound_links[pod_links];
  if (out.outbound_links[pod_links + 1].free_bps < tightest->free_bps)
    tightest = &out.outbound_links[pod_links + 1];
  for (std::size_t i = 0; i < pod_links; ++i)
    if (out.outbound_links[i].free_bps < tightest->free_bps) tightest = &out.outbound_links[i];
  out.shared_outbound_bps = tightest->free_bps;
  out.shared_outbound_link = tightest->label;
}

// The per-event totals the SONIC model takes, and each station's demand, in words.
void note_event_totals(Derivation& d) {
  const Platform& platform = d.scenario.platform;
  const ServerLayout& layout = d.layout;
  ScenarioParameters& out = d.out;
  out.mean_request_size = out.requests > 0 ? out.inferences / out.requests : 0.0;
  out.t_transmit_s = (out.input_bytes + out.output_bytes) * 8.0 * d.seconds_per_bit;
  out.t_travel_s = out.requests * d.rtt_s;
  d.note("t_other_cpu", out.t_other_cpu_s, "s", "sum of the CPU modules outside the accelerated module(s)");
  d.note("t_preprocess", out.t_preprocess_s, "s", "preprocessing of the accelerated module(s), counted once");
  d.note("mean request size", out.mean_request_size, "inferences", "inferences / requests");
  d.note("t_GPU", out.t_gpu_s, "GPU-s", "GPU time per event at the request batch sizes (no merging)");
  d.note("bytes out", out.input_bytes, "B/event", "inferences x input bytes per inference");
  d.note("bytes back", out.output_bytes, "B/event", "inferences x output bytes per inference");
  d.note("t_transmit", out.t_transmit_s, "s", "(bytes out + back) x 8 x E[1 / connection rate]");
  d.note("t_travel", out.t_travel_s, "s", "requests x RTT (" + format("%g", d.rtt_s * 1e3) + " ms)");
  if (layout.single_group) {
    const ServerGroup& group = platform.server_groups.front();
    d.note("N_GPU", out.n_gpu, "GPUs",
           std::to_string(group.pods) + " pods x " + std::to_string(group.devices_per_pod) +
               " GPUs (instances per GPU share it)");
  } else {
    d.note("N_GPU", out.n_gpu, "devices",
           "devices of every group serving a model (instances on a device share it)");
  }
  for (const auto& station : out.server_stations) {
    std::string parts;
    for (const auto& [model, demand] : station.demand_by_model)
      if (demand > 0.0) parts += (parts.empty() ? "" : " + ") + model + " " + format("%.4g", demand);
    d.note("D[" + station.name + "]", station.demand_s,
           station.kind == ScenarioParameters::ServerStation::Kind::devices ? "device-s" : "core-s",
           station.limited_by_instances
               ? "demand per event on " + std::to_string(station.servers) +
                     " instances (each held for input " +
                     "handling, execution and output handling: " + format("%.4g", station.device_busy_s) +
                     " device-s + " + format("%.4g", station.demand_s - station.device_busy_s) +
                     " handling) on " + std::to_string(station.devices) + " devices: " + parts
               : "demand per event on " + std::to_string(station.servers) +
                     (station.kind == ScenarioParameters::ServerStation::Kind::devices ? " devices: "
                                                                                       : " cores: ") +
                     parts);
  }
  d.note("shared outbound", out.shared_outbound_bps, "bit/s",
         "tightest shared outbound link: " + out.shared_outbound_link);
}

// What the analytic models leave out for this scenario, said next to their answers.
void add_caveats(Derivation& d) {
  const Scenario& scenario = d.scenario;
  const Platform& platform = d.scenario.platform;
  const ServerLayout& layout = d.layout;
  ScenarioParameters& out = d.out;
  for (std::size_t m = 0; m < layout.served_models.size(); ++m) {
    const std::string& name = layout.served_models[m];
    const Model& model = scenario.models.at(name);
    if (model.triton.dynamic_batching.enabled)
      out.caveats.push_back(
          "model '" + name +
          "' has dynamic batching: under load the server merges requests into larger batches that run faster "
          "than t_GPU assumes, so the SONIC model's knee is early; the MVA's device demand is the merged "
          "batch's (t_GPU_merged), its knee is where a saturated batcher would put it");
  }
  if (out.t_gpu_merging_saving_s > 0.0) {
    // Measured by tests/consistency (the shipped CMS configs): at low load the run's module time lies at the
    // SONIC model's (plus host handling), above the MVA's by this saving.
    const double sonic_module_s = out.t_preprocess_s + out.t_gpu_s + out.t_transmit_s + out.t_travel_s;
    out.caveats.push_back(
        "below the knee the server rarely has two requests to merge, so requests run alone: there the "
        "MVA's module time is short by up to " +
        format("%.4g", out.t_gpu_merging_saving_s) + " s per event (t_GPU - t_GPU_merged, " +
        format("%.0f", 100.0 * out.t_gpu_merging_saving_s / sonic_module_s) +
        " % of the SONIC model's module time) and its GPU utilisation low by the same device time; at low "
        "load read the SONIC model's module time, near and past the knee the MVA's");
  }
  for (std::size_t m = 0; m < layout.served_models.size(); ++m) {
    const std::string& name = layout.served_models[m];
    const Model& model = scenario.models.at(name);
    for (const auto& instances : model.triton.instance_groups)
      if (instances.count > 1 && instances.kind == InstanceGroup::Kind::gpu) {
        out.caveats.push_back("model '" + name + "' runs " + std::to_string(instances.count) +
                              " instances per device: they share the device, so capacity is per device");
        break;
      }
    const auto pods = layout.model_pods[m].size();
    // A pooled group's proxy balances each request (no per-job assignment to be unlucky with).
    const bool per_request =
        std::any_of(layout.model_groups[m].begin(), layout.model_groups[m].end(), [&](int g) {
          return scenario.platform.server_groups[static_cast<std::size_t>(g)].pooled();
        });
    if (pods > 1 && model.deploy.load_balancer == LoadBalancer::random && !per_request)
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
  if (out.t_model_switch_s > 0.0)
    out.caveats.push_back(
        "models share a device with a switch time: at low load each request follows another "
        "model's with the probability its share leaves, " +
        format("%.4g", out.t_model_switch_s) +
        " s per event; the MVA's device demand has the switches (at its merged batches), the "
        "SONIC model of arXiv:2009.04509 has none");
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
  if (d.switch_left_bps <= 0.0)
    out.caveats.push_back("background traffic fills the site switch: no job can transmit");
}

} // namespace

namespace {

// One derivation at given client-node slowdowns; `work` (optional) gets the thread's CPU and inference work
// at its speed alone on a core.
ScenarioParameters derive_at(const Scenario& scenario, const ClientNodeSlowdown& slowdown,
                             std::pair<double, double>* work) {
  Derivation d(scenario);
  d.out.scenario_name = scenario.name;
  d.out.threads = scenario.workload.threads;
  d.cpu_slowdown = slowdown.cpu;
  d.inference_slowdown = slowdown.inference;
  derive_connection(d);
  std::uint64_t module_index = 0;
  for (const auto& module : scenario.workload.pipeline) {
    ++module_index;
    if (module.type == Module::Type::remote_inference && !module.run_direct)
      derive_remote_module(d, module, module_index);
    else
      derive_cpu_module(d, module);
  }
  if (d.out.accelerated_modules.empty())
    throw InputError("scenario '" + scenario.name +
                     "' has no remote_inference module: the analytic models describe inference as a service");
  // The server stations: each group's device pool, then each group's host when it has work.
  derive_device_stations(d);
  derive_host_stations(d);
  derive_outbound_links(d);
  note_event_totals(d);
  add_caveats(d);
  if (work) *work = {d.cpu_work_s, d.inference_work_s};
  return d.out;
}

// The client node's mean slowdowns, what they rest on, and its caveat.
void note_client_node(ScenarioParameters& out, const Scenario& scenario, const ClientNodeSlowdown& s,
                      double cpu_work_s, double inference_work_s) {
  const ClientNode& node = scenario.platform.client_node;
  char text[640];
  std::snprintf(text, sizeof text,
                "%d threads on %d physical cores x %d (yield %.3g, inference contention %.3g): mean field at "
                "the fixed point, busy %.1f %% of the time (%.1f %% in inference)",
                s.threads_on_node, node.physical_cores, node.threads_per_core, node.hyperthread_yield,
                node.inference_contention, 100.0 * s.busy_share, 100.0 * s.inference_share);
  out.quantities.push_back({"client-node slowdown (CPU work)", s.cpu, "", text});
  out.quantities.push_back({"client-node slowdown (inference)", s.inference, "", text});
  std::snprintf(text, sizeof text,
                "jobs share client nodes (platform.client_node): the models take every node full (%d jobs x "
                "%d threads) and its threads busy independently, so a thread's CPU work per event is %.4g s "
                "where alone on a core it is %.4g s; fewer jobs than a node holds run faster, and the "
                "simulator's threads on one node are not independent (docs/model.md, \"Client nodes\")",
                scenario.platform.jobs_per_node, scenario.workload.threads,
                cpu_work_s * s.cpu + inference_work_s * s.inference, cpu_work_s + inference_work_s);
  out.caveats.push_back(text);
  for (const auto& group : scenario.platform.server_groups)
    if (group.on_client_nodes)
      out.caveats.push_back("group '" + group.name +
                            "' runs on the client nodes: its instances' work slows the jobs' threads in the "
                            "simulator; the models leave it out of the node's load");
}

} // namespace

ScenarioParameters derive_parameters(const Scenario& scenario) {
  const ClientNode& node = scenario.platform.client_node;
  std::pair<double, double> work{0.0, 0.0};
  ScenarioParameters alone = derive_at(scenario, ClientNodeSlowdown{}, &work);
  if (!node.enabled()) return alone;
  // The rest of an event at low load: transfers, round trips and the servers' time, unchanged by the node.
  // Eq. 2's sum, written out: the latency model refuses t_GPU = 0 (its knee divides by it), which a scenario
  // whose every model runs on CPU instances has.
  const double t_ideal_s =
      alone.t_other_cpu_s + alone.t_preprocess_s + alone.t_gpu_s + alone.t_transmit_s + alone.t_travel_s;
  const double wait_s = t_ideal_s + alone.t_host_s - work.first - work.second;
  const int threads_on_node = scenario.platform.jobs_per_node * scenario.workload.threads;
  const ClientNodeSlowdown slowdown =
      client_node_slowdown(node, threads_on_node, work.first, work.second, wait_s);
  ScenarioParameters out = derive_at(scenario, slowdown, nullptr);
  note_client_node(out, scenario, slowdown, work.first, work.second);
  return out;
}

} // namespace sonicsim::analysis
