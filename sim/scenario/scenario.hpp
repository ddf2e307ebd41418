// The typed scenario: what a YAML file in configs/ becomes after parsing and checking.
// Every physical quantity is stored in SI units (seconds, bytes, bits per second) and says so in its name.
// Defaults are written next to each field; the loader (scenario_loader.hpp) fills them and documents them in
// docs/scenario_reference.md.
#pragma once

#include "sim/random/distribution_spec.hpp"
#include "sim/scenario/operations.hpp"
#include "sim/scenario/scenario_model.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sonicsim {

struct CpuType {
  std::string name;
  double fraction = 1.0; // share of jobs on this CPU type; all fractions sum to 1
  double speed = 1.0;    // relative speed: a CPU duration d takes d / speed on this type
};

struct NicClass {
  double bandwidth_bps = 10e9; // worker-node NIC bandwidth
  double fraction = 1.0;       // share of worker nodes with this NIC; all fractions sum to 1
};

// A value that changes at given times: from[i] on, the value is value[i] (until from[i+1]). Times increase.
struct StepSchedule {
  std::vector<double> from_s;
  std::vector<double> value;
  // The value in force at time t (the first value before the first step).
  double at(double t_s) const {
    double v = value.empty() ? 0.0 : value.front();
    for (std::size_t i = 0; i < from_s.size() && from_s[i] <= t_s; ++i)
      v = value[i];
    return v;
  }
  double maximum() const {
    double m = 0.0;
    for (const double v : value)
      m = v > m ? v : m;
    return m;
  }
};

// Another user's traffic that alternates between bursts at a fixed rate and silences, with exponentially
// distributed durations (a random on/off process).
struct OnOffTraffic {
  double rate_bps = 0.0;   // while on
  double mean_on_s = 0.0;  // mean burst length
  double mean_off_s = 0.0; // mean silence
};

// Background traffic through the site's outbound switch from other users: the sum of a constant rate, a
// piecewise-constant schedule and a random on/off process (each optional).
struct BackgroundTraffic {
  double rate_bps = 0.0;                // default 0: no constant background
  std::optional<StepSchedule> schedule; // rates in bits/s; default none
  std::optional<OnOffTraffic> on_off;   // default none
  // The most the background can take at once: the loader requires it below the switch capacity.
  double peak_bps() const {
    return rate_bps + (schedule ? schedule->maximum() : 0.0) + (on_off ? on_off->rate_bps : 0.0);
  }
};

struct SiteSwitch {
  double bandwidth_bps = 100e9; // outbound (and inbound) capacity of the site switch; default 100 Gb/s
  BackgroundTraffic background;
};

struct Wan {
  double rtt_s = 0.012; // round-trip time between site and server pods; default 12 ms (FNAL to GCP Iowa)
  double bandwidth_bps = 400e9; // capacity of the wide-area path in each direction; default 400 Gb/s
  // Windows [from, to) in which the wide-area path is down: a request sent, or a reply leaving a server, in
  // one is lost (its client's timeout notices). Default none.
  struct DownWindow {
    double from_s = 0.0, to_s = 0.0;
  };
  std::vector<DownWindow> down;
  bool down_at(double t_s) const {
    for (const auto& w : down)
      if (t_s >= w.from_s && t_s < w.to_s) return true;
    return false;
  }
};

// The device type name for Triton instances on the server host's CPU cores (instance_group kind CPU); a
// model's curve under this name is the throughput of one CPU instance.
inline constexpr const char* cpu_device_type = "CPU";

// A Kubernetes Deployment of Triton servers: identical pods, each a VM (or node) with its own devices, host
// cores and NIC. Every model deployed on the group is loaded by every one of its pods.
struct ServerGroup {
  std::string name;
  int pods = 1;                    // default 1
  std::string device_type = "T4";  // accelerator type of every device in a pod; a key of the models' curves
  int devices_per_pod = 1;         // default 1; 0: a CPU-only server
  int host_cores = 16;             // cores of the pod's host for request handling and CPU instances
  double nic_bandwidth_bps = 16e9; // per-pod (per-VM) NIC cap; default 16 Gb/s (GCP 2020 maximum per VM)
  // A fallback server on every client node (CMS's CPU fallback): one pod per worker node, on host_cores taken
  // from the node's free cores, reached without the network. Its pods are set from the jobs by the loader.
  bool on_client_nodes = false;
  // Time a device loses when it executes a batch of another model than the batch before it (devices.
  // model_switch_time; sim/policy/server_resources.hpp). Default 0: models share a device perfectly.
  double model_switch_s = 0.0;
  // The same as a fraction of the batch's time (devices.model_switch_slowdown: 1 + this x it); default 0.
  double model_switch_slowdown = 0.0;
  // Operations (sim/scenario/operations.hpp), each default none. With an autoscaler the group has
  // autoscaler.max_pods pods, of which min_pods serve at the start.
  std::optional<AutoscalerSettings> autoscaler;
  std::optional<PodFailures> failures;
  std::optional<ProxySettings> proxy;
  // A SuperSONIC values file the autoscaler, pods and proxy were read from (supersonic_values: PATH,
  // relative to the scenario file), and what it said the simulation does not use. Empty: none.
  std::string supersonic_values_file;
  std::vector<std::string> supersonic_values_notes;
  std::string supersonic_chart; // the version it was read as: "0.3.1" or "main"
  int devices() const { return pods * devices_per_pod; }
  // Its pods serve, start, drain and fail in time: the server pool (sim/components/server_pool.hpp) runs it.
  bool pooled() const { return autoscaler || failures || proxy; }
};

struct NetworkSettings {
  // Per-connection TCP window: one stream is capped at window / RTT. Default 3 MB, which at 12 ms gives the
  // 2 Gb/s per client connection seen in the 2020 study. 0 disables the cap.
  double tcp_window_bytes = 3e6;
  // Replies up to this size are not simulated as SimGrid flows: the client gets them after the path's latency
  // plus size / path rate (its narrowest link, and window / RTT), which is how SimGrid times a flow that
  // shares no link. Replies travel inbound, which carries nothing else; a small one lasts microseconds, so
  // they seldom overlap, and an overlap could delay one by at most another's transfer time. Skipping their
  // flows cuts the cost per request by a third. Default 64 KiB; 0 simulates every reply as a flow.
  double small_reply_max_bytes = 65536.0;
  // Flows whose every link has room for all flows on it at their caps are timed without SimGrid's solver
  // (sim/kernel/kernel_flows.hpp); false sends every flow to SimGrid. Default true.
  bool fast_path = true;
  // Flows in SimGrid on the same links with the same cap are one comm with k times a flow's weight and bound
  // (sim/kernel/kernel_flows.hpp): exact under max-min sharing. false: a comm per flow. Default true.
  bool flow_classes = true;
  // A link that only its own flows' caps overfill, each of them with room everywhere else, shares them by
  // water-filling without SimGrid's solver (sim/kernel/kernel_flows.hpp, "One full link"): exact under
  // max-min sharing. false: SimGrid shares them. Default true.
  bool one_full_link = true;
  // Events run without stepping SimGrid while it has no flow (sim/kernel/event_calendar.hpp). Default true.
  bool event_calendar = true;
};

// A client node's cores as its threads share them (platform.client_node; sim/policy/node_sharing.hpp says
// how). Off unless physical_cores is given: every job thread then runs at its CPU speed whatever else runs.
struct ClientNode {
  int physical_cores = 0;            // of one worker node
  int threads_per_core = 1;          // 2 with hyper-threading (SMT) on
  double hyperthread_yield = 0.0;    // what a core's second busy thread adds to its throughput, 0..1
  double inference_contention = 0.0; // slowdown of every thread per inference thread per physical core
  bool enabled() const { return physical_cores > 0; }
};

struct Platform {
  int jobs_per_node = 1; // job slots per worker node; jobs on one node share its NIC; default 1
  // Cores of a worker node; 0 (default): exactly what its jobs' threads take (jobs_per_node x threads).
  int node_cores = 0;
  ClientNode client_node;
  std::vector<NicClass> nic_mix{NicClass{}};
  std::vector<CpuType> cpu_mix{CpuType{"reference", 1.0, 1.0}};
  SiteSwitch site_switch;
  Wan wan;
  std::vector<ServerGroup> server_groups; // in the order written; pods are numbered group by group
  NetworkSettings network;
  // Share of worker slots whose node has its own GPU: their jobs run remote_inference modules locally, with
  // no network transfer, on the device type of the first group serving the model. Default 0.
  double local_gpu_fraction = 0.0;
  // The group named `name`, or null.
  const ServerGroup* group(const std::string& name) const {
    for (const auto& g : server_groups)
      if (g.name == name) return &g;
    return nullptr;
  }
};

struct Module {
  enum class Type { cpu, remote_inference, local_inference };
  std::string name;
  Type type = Type::cpu;
  // cpu: the duration on a CPU of speed 1.
  DistributionSpec duration_s;
  // remote_inference / local_inference:
  std::string model;             // remote: key into Scenario::models
  DistributionSpec preprocess_s; // CPU time before inference (stays on the CPU); default 0
  DistributionSpec inferences;   // inferences per event
  int groups = 1;                // planes/groups the inferences are split into (each chunked separately)
  double group_spread = 0.0;     // lognormal sigma of the group weights; 0 = equal groups
  int max_batch = 1;             // remote: the client sends chunks of at most this many inferences
  double local_time_per_inference_s = 0.0; // local: CPU time per inference on a CPU of speed 1
  // remote: inputs are compressed before sending: bytes / ratio go on the wire, at a CPU cost per input byte
  // (on a CPU of speed 1). Defaults 1 and 0: no compression.
  double compression_ratio = 1.0;
  double compression_time_per_byte_s = 0.0;
  // remote: the module's inference time per event when the model runs on the job's own CPU instead (direct
  // inference, on a CPU of speed 1): the baseline every SONIC figure is compared with. Default none.
  std::optional<DistributionSpec> direct_s;
  // remote: runs as direct inference (module or workload key `inference: direct`): no server is called.
  bool run_direct = false;
  // A remote_inference module whose requests go to the servers.
  bool served() const { return type == Type::remote_inference && !run_direct; }
};

struct ClientSettings {
  int retries = 3;              // retries of a rejected request before the event is counted as failed
  double retry_backoff_s = 1.0; // wait before a retry; default 1 s
  bool asynchronous = false;    // default false: synchronous blocking calls, as in LArSoft
  int max_in_flight = 1;        // asynchronous only: requests in flight per job
  // SonicTriton's reaction to a failing server: a request unanswered after timeout_s is given up (default
  // none: wait for ever) and retried (`retries`), on the same server or, through a proxy, on another; once
  // the retries are spent, the request goes to the fallback group's server on the job's own node (a group
  // on_client_nodes; default none: the event fails).
  std::optional<double> timeout_s;
  bool retry_other_server = false; // retry_on: other (default same)
  std::string fallback_group;
};

// Campaign mode: a production campaign of many events, split into jobs, that a batch system starts as grid
// slots free up, under a cap on concurrent jobs. workload.jobs is then the number of grid slots at their
// peak.
struct Campaign {
  std::optional<std::int64_t> total_events; // events of the whole campaign; default: unbounded (needs window)
  std::optional<StepSchedule> max_concurrent; // cap on running jobs over time; default none (uncapped)
  std::optional<StepSchedule> slots; // fraction (0..1) of workload.jobs available over time; default 1
  double slots_repeat_s = 0.0;       // the slot schedule repeats with this period; default 0: no repeat
  // Instead of a schedule: the grid's share for the campaign fluctuates. The fraction of workload.jobs on
  // offer is drawn uniformly in [min, max], held for an exponential time of mean mean_hold, drawn again, and
  // so on (seeded). Exclusive with `slots`.
  struct RandomSlots {
    double min_fraction = 0.0;
    double max_fraction = 1.0;
    double mean_hold_s = 3600.0;
  };
  std::optional<RandomSlots> slots_random;
  DistributionSpec start_delay_s; // from slot grant to the job's first event; default 0
  std::optional<double> window_s; // simulated time after which the run stops; default none
  double warmup_s = 0.0;          // events starting earlier are left out of the statistics
  double scale = 1.0; // fraction of the site simulated (0 < scale <= 1); results are reported at full scale
  double histogram_bin_s = 1.0; // bin width of the per-event time histogram; default 1 s
  // The campaign time at which this simulation starts: the slots, the cap and the background schedule are
  // read at start + t. A time window of a longer campaign (`run --campaign-windows`); default 0.
  double start_s = 0.0;
  // Seed of the random slot share (slots_random), so that every window of one campaign sees the same grid;
  // default: the scenario's seed.
  std::optional<std::uint64_t> schedule_seed;
  // At the window's end, go on (the grid as scheduled, so the site stays loaded) until the events started
  // before it have ended, and count them; events starting later are not recorded. Each time window of a
  // campaign counts the events that start in it, so an event crossing a window's end is counted once.
  // Default false: the run stops at the window's end.
  bool finish_events = false;
};

struct Workload {
  int jobs = 1;           // concurrent jobs; required, > 0
  int events_per_job = 1; // events each job processes; default 1
  int warmup_events = 0;  // first events of each job left out of the statistics; default 0
  // Events a job processes at once (CMSSW streams, one per thread on its own core): each thread takes the
  // job's next event when it has finished one; a blocking call holds only its own thread. Default 1.
  int threads = 1;
  // inference: direct: every remote_inference module runs its model on the job's own CPU (its `direct`
  // time), no server is called. Default false (inference as a service).
  bool direct_inference = false;
  double start_spread_s = 0.0; // job start times uniform in [0, start_spread]; default 0 (all at once)
  ClientSettings client;
  std::optional<JobPreemption> preemption; // default none: jobs run to their end
  std::vector<Module> pipeline;
  std::optional<Campaign> campaign; // default none: every job starts at once and runs events_per_job events
};

// The precision rule's headline figures (sim/metrics/run_precision.hpp), by their names in summary.json.
inline constexpr std::array<std::string_view, 4> headline_figures{"events_per_s", "event_mean_s",
                                                                  "module_mean_s", "gpu_utilisation"};

// Bounds on one of the precision rule's headline figures (output.stop_beyond).
struct FigureBounds {
  std::optional<double> above, below;
};

struct OutputSettings {
  double timeseries_interval_s = 60.0; // width of a timeseries.csv row; default 60 s
  // The precision rule (sim/metrics/run_precision.hpp): a run is extended until the 95 % interval of each
  // headline figure is within this fraction of it, to at most max_extension x workload.events_per_job.
  // 0: off. 2 % by default: a plan's relative targets (1.05x) are then decided by 2.5 times the noise.
  double precision_relative = 0.02;
  double max_extension = 16.0;
  // A run may stop short of the precision rule once one headline figure's 95 % interval lies wholly above
  // (or below) a bound given here: `sonicsim plan` gives its candidates the failing side of its targets, so
  // a candidate that clearly fails is not run longer to be told so more precisely. Keyed by the rule's
  // figure names (events_per_s, event_mean_s, module_mean_s, gpu_utilisation). Default none.
  std::map<std::string, FigureBounds> stop_beyond;
  // The figures the precision rule holds (output.precision_figures; RunPrecision::ruled); empty: all.
  std::vector<std::string> precision_figures;
  // true: a fixed run stops where its steady-state window ends (the first job's end), its module and event
  // times the window's like its rates (sim/components/window_stop.hpp). Default false: every job runs to its
  // last event, and the times are over every event past its job's warm-up (docs/model.md).
  bool stop_at_window_end = false;
};

// Prices for `sonicsim plan` and `compare` (costs:), plain numbers in US dollars per hour of one device.
// Priced per device type, so that a plan or a --set that moves a group to another device type never reuses
// the first type's price. Each is optional; a command that computes a cost requires the job slot's price and
// one for every device type the groups use.
struct Costs {
  std::map<std::string, double> device_hour_usd; // one device of this type (T4, A100, ...) for one hour
  std::optional<double> cpu_hour_usd;            // one CPU core of a job for one hour (a job holds `threads`)
  std::optional<double> pod_hour_usd;            // one server pod's host (without its devices) for one hour
};

// A named what-if (variants:): overrides applied on top of the scenario, like --set arguments.
struct Variant {
  std::string name;
  std::string description;
  std::vector<std::string> overrides; // "key.path=value" (value as flow YAML), in the order written
  std::string origin;                 // where it was written: "FILE:LINE:COL", for error messages
};

// Where a scenario value comes from (provenance:), keyed by its key path as --set writes it. Answers that
// rest on an assumed value list it (sim/scenario/provenance.hpp).
struct Provenance {
  // calibrated: fitted by `sonicsim calibrate` to measured series; the text names them and the interval.
  enum class Kind { measured, derived, assumed, calibrated };
  std::string key; // "models.emtrkmichelid.throughput.A100"
  Kind kind = Kind::assumed;
  std::string text;   // the source of a measurement, how it was derived, or why it was assumed
  std::string origin; // "FILE:LINE:COL", for messages
  // range: {low, high, why}: --set values at the ends of what it may be (`run --sensitivity`); "": none.
  std::string range_low, range_high, range_why;
};

struct Scenario {
  std::string name;
  std::string description;
  std::string source_file; // where it was read from ("<embedded default>" for the built-in one)
  uint64_t seed = 1;       // every random stream derives from this; default 1
  Platform platform;
  std::map<std::string, Model> models;
  Workload workload;
  OutputSettings output;
  std::optional<Costs> costs;         // default none: no cost figures
  std::vector<Variant> variants;      // default none; in the order written
  std::vector<Provenance> provenance; // default none; in the order written
};

// Whether a run stops at its steady-state window's end (sim/components/window_stop.hpp):
// output.stop_at_window_end, in a fixed run (not a campaign, whose window is its own), not one with
// preemption (its events add up to jobs x events_per_job as written). The recorder keeps the window's times
// for exactly these runs.
inline bool stops_at_window_end(const Scenario& scenario) {
  return scenario.output.stop_at_window_end && !scenario.workload.campaign && !scenario.workload.preemption;
}

// The instances of `model` in each pod of `group`: its instance_group, or Triton's default (one instance on
// each device, or one on the CPU when the pods have no device).
inline std::vector<InstanceGroup> effective_instance_groups(const Model& model, const ServerGroup& group) {
  if (!model.triton.instance_groups.empty()) return model.triton.instance_groups;
  InstanceGroup one;
  one.kind = group.devices_per_pod > 0 ? InstanceGroup::Kind::gpu : InstanceGroup::Kind::cpu;
  return {one};
}

} // namespace sonicsim
