// From a scenario to the parameters of the analytic models (models/): the SONIC latency model of
// arXiv:2009.04509 (t_CPU, t_preprocess, t_GPU, t_transmit, t_travel, N_GPU), the network-saturation limit
// and the closed queueing network solved by MVA. Everything is derived from exactly what the simulator runs
// (the same pipeline, the same request split, the same throughput curve and links), so analytic and simulated
// curves share their inputs. Pure code: no SimGrid.
#pragma once

#include "models/mean_value_analysis.hpp"
#include "models/sonic_latency_model.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/server_layout.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sonicsim::analysis {

// One derived number, with its unit and how it was obtained (printed by `sonicsim analytic`).
struct DerivedQuantity {
  std::string symbol;
  double value = 0.0;
  std::string unit;
  std::string derivation;
};

// Monte Carlo draws of the request split when it is random (inference count or group weights); a
// deterministic split is evaluated once. 2,000 draws put the standard error of the mean request count well
// below 1 %.
constexpr int request_split_draws = 2000;

struct ScenarioParameters {
  std::string scenario_name;
  std::vector<std::string> accelerated_modules; // the remote_inference modules, in pipeline order

  double mean_inverse_cpu_speed =
      1.0; // E[1/speed] over the CPU mix: a duration d takes d E[1/speed] on average

  // Per event, summed over the remote-inference modules.
  double t_other_cpu_s = 0.0;  // cpu and local_inference modules on the CPU (preprocessing excluded)
  double t_preprocess_s = 0.0; // preprocessing of the remote-inference modules (stays on the CPU)
  double inferences = 0.0;     // inferences sent
  double requests = 0.0;       // requests sent (groups chunked by max_batch)
  double mean_request_size = 0.0;
  double t_gpu_s = 0.0;      // GPU-seconds: sum over requests of batch / throughput(batch) + overhead
  double input_bytes = 0.0;  // sent to the servers
  double output_bytes = 0.0; // returned
  double t_transmit_s = 0.0; // (input + output) bits / one connection's bottleneck rate, averaged over NICs
  double t_travel_s = 0.0;   // requests x RTT
  int n_gpu = 1;             // devices of the groups serving the models (instances on a device share it)
  int pods = 1;              // pods of those groups
  double t_host_s = 0.0;     // core-seconds per event on server hosts (request handling, CPU instances)
  // Dynamic batching: device-seconds per event the MVA's merged demand saves against the requests run alone
  // (t_GPU - t_GPU_merged, summed over the batched models). At low load requests do run alone, so the MVA's
  // module time there is short by up to this much; the SONIC model's t_GPU is the low-load one.
  double t_gpu_merging_saving_s = 0.0;
  // Models sharing a device with a switch time: device-seconds per event the switches add when each request
  // runs alone (low load). The MVA's device demand has them (at its merged batches); Eq. 1-5 do not.
  double t_model_switch_s = 0.0;
  // Events a job runs at once (workload.threads): each thread is a customer of the closed network, so the
  // models are solved for jobs x threads customers and job counts are customers / threads.
  int threads = 1;

  // The servers as queueing stations: per server group, its device pool and its host cores, each visited by
  // every model deployed there (a job's requests to model m go to group g with the share of the model's
  // pods that g holds, as every load balancer spreads connections evenly in expectation). One job class:
  // every job runs the whole pipeline, so a shared device is one station whose demand is the sum of its
  // models' demands; demand_by_model keeps each model's part.
  struct ServerStation {
    enum class Kind { devices, host };
    std::string name; // as the simulator's summary names it: "GPU pool", "host cores of cpu_pods", ...
    Kind kind = Kind::devices;
    int group = 0;   // index in platform.server_groups
    int servers = 1; // devices, or pods x host cores
    double demand_s = 0.0;
    std::vector<std::pair<std::string, double>> demand_by_model;
    // Devices: their busy seconds per event and their number (the station's demand and servers, unless the
    // model's instances limit it first: see limited_by_instances).
    double device_busy_s = 0.0;
    int devices = 0;
    // One model alone on the devices with fewer instances than its work needs: an instance is held for its
    // batch's input handling, execution and output handling, so the station is the instances (servers) and
    // their demand (device + handling per event).
    bool limited_by_instances = false;
  };
  std::vector<ServerStation> server_stations; // devices of each group first, then hosts with work
  // Per server group serving a model: its pods' NICs (requests in) and the share of the bytes sent per event
  // that reach them.
  struct PodNics {
    std::string name; // "pod NICs", or "pod NICs of GROUP"
    int group = 0;    // index in platform.server_groups
    int pods = 1;
    double nic_bps = 0.0;
    double traffic_share = 1.0;
  };
  std::vector<PodNics> pod_nics;

  // Shared links crossed by every request.
  double switch_bandwidth_bps = 0.0;
  double background_bps = 0.0;
  double pod_nic_bandwidth_bps = 0.0;
  // Every shared link a request crosses on its way out, with the capacity left for the jobs: the pod NICs
  // (all pods together), the site switch (minus background) and the WAN. The planner's resource limits and
  // the network limit below are both read from this list.
  struct OutboundLink {
    std::string resource; // "pod NICs", "site switch", "WAN"
    std::string
        label; // as `sonicsim analytic` names it: "pod NICs (all pods)", "site switch minus background"
    std::string capacity; // e.g. "4 x 16 Gb/s", "100 Gb/s minus 0 Gb/s background"
    double free_bps = 0.0;
    ResourceKind kind = ResourceKind::site_switch;
    std::optional<int> group; // pod NICs: the group whose pods they are
  };
  std::vector<OutboundLink> outbound_links;
  double shared_outbound_bps = 0.0; // capacity left for the jobs on the tightest of them
  std::string shared_outbound_link; // its label

  std::vector<DerivedQuantity> quantities; // every number above with its derivation, in reading order
  std::vector<std::string> caveats;        // what the analytic models leave out for this scenario

  // The SONIC model in the component convention (preprocessing counted once).
  models::SonicLatencyModel latency_model() const;
  // Jobs as a delay station (CPU, preprocessing, per-connection transmission and round trips); the server
  // stations above (a device pool: its devices sharing one queue), the site's outbound link and each group's
  // pod NICs as queueing stations, in that order. The network demands are taken out of the delay so that one
  // job alone sees exactly t_ideal plus its host time.
  models::ClosedNetwork closed_network() const;
  // What each station of closed_network() is, in the same order: its kind and, where it is a group's, the
  // group.
  struct StationResource {
    ResourceKind kind = ResourceKind::device_pool;
    std::optional<int> group;
  };
  std::vector<StationResource> closed_network_resources() const;
  // Running jobs that fill the tightest shared outbound link at an event time of event_time_s; 0 when the
  // background traffic alone fills it.
  double network_limited_jobs(double event_time_s) const;
  // The same for one of outbound_links.
  double jobs_filling(const OutboundLink& link, double event_time_s) const;
};

// Throws InputError when the pipeline has no remote_inference module or a model lacks a throughput curve for
// the pods' GPU type (the loader normally rejects the latter).
ScenarioParameters derive_parameters(const Scenario& scenario);

} // namespace sonicsim::analysis
