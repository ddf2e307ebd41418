// The typed scenario: what a YAML file in configs/ becomes after parsing and checking.
// Every physical quantity is stored in SI units (seconds, bytes, bits per second) and says so in its name.
// Defaults are written next to each field; the loader (scenario_loader.hpp) fills them and documents them in
// docs/scenario_reference.md.
#pragma once

#include "models/throughput_curve.hpp"
#include "sim/random/distribution_spec.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
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
};

// How Kubernetes assigns a job's connection to a pod (sim/policy/load_balancer.hpp applies it).
enum class LoadBalancer {
  random,      // a pod drawn uniformly per connection (a Service's default kube-proxy behaviour)
  round_robin, // job i to pod i mod pods
};

// The name written in scenarios and in summary.json.
inline const char* load_balancer_name(LoadBalancer policy) {
  return policy == LoadBalancer::round_robin ? "round_robin" : "random";
}

struct ServerPods {
  int count = 1;                   // number of pods (Triton servers) behind the load balancer; default 1
  int gpus_per_pod = 1;            // GPUs per pod; default 1
  std::string gpu_type = "T4";     // must have a throughput curve in every model used
  double nic_bandwidth_bps = 16e9; // per-pod (per-VM) NIC cap; default 16 Gb/s (GCP 2020 maximum per VM)
  LoadBalancer load_balancer = LoadBalancer::random; // how a job's connection is assigned to a pod
};

struct NetworkSettings {
  // Per-connection TCP window: one stream is capped at window / RTT. Default 3 MB, which at 12 ms gives the
  // 2 Gb/s per client connection seen in the 2020 study. 0 disables the cap.
  double tcp_window_bytes = 3e6;
  // Replies up to this size are not simulated as SimGrid flows: the client gets them after the path's latency
  // plus size / path rate (its narrowest link, and window / RTT), which is how SimGrid times a flow that
  // shares no link. Replies travel on the inbound direction, which carries nothing but replies; a small one
  // lasts microseconds, so they seldom overlap, and an overlap could delay one by at most another's transfer
  // time. Skipping their flows cuts the simulator's cost per request by a third. Default 64 KiB; 0 simulates
  // every reply as a flow.
  double small_reply_max_bytes = 65536.0;
};

struct Platform {
  int jobs_per_node = 1; // job slots per worker node; jobs on one node share its NIC; default 1
  std::vector<NicClass> nic_mix{NicClass{}};
  std::vector<CpuType> cpu_mix{CpuType{"reference", 1.0, 1.0}};
  SiteSwitch site_switch;
  Wan wan;
  ServerPods pods;
  NetworkSettings network;
  // Share of worker slots whose node has its own GPU (of pods.gpu_type): their jobs run remote_inference
  // modules locally, with no network transfer. Default 0.
  double local_gpu_fraction = 0.0;
};

// Throughput of one model on one GPU type as a function of the executed batch size
// (models/throughput_curve.hpp: the one curve the simulation and the analytic models share).
using ThroughputCurve = models::ThroughputCurve;

struct DynamicBatching {
  bool enabled = false;                   // default off (as in the 2020 scaling study)
  std::vector<int> preferred_batch_sizes; // default none: the largest preferred size is max_batch_size
  double max_queue_delay_s = 0.0;         // default 0: dispatch as soon as an instance is free
};

struct QueuePolicy {
  std::optional<int> max_queue_size; // requests waiting per model per pod; default unlimited
  std::optional<double> timeout_s;   // a request waiting longer is rejected; default none
};

struct TritonSettings {
  int max_batch_size = 0; // largest request (and batch) the model accepts, in inferences; required
  int instances_per_gpu = 1;
  DynamicBatching dynamic_batching;
  QueuePolicy queue_policy;
};

struct Model {
  std::string name;
  double input_bytes_per_inference = 0.0;  // bytes sent per inference (e.g. 48x48 FP32 patch: 9216 B)
  double output_bytes_per_inference = 0.0; // bytes returned per inference
  std::map<std::string, ThroughputCurve> throughput_by_gpu; // keyed by GPU type
  TritonSettings triton;
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
};

struct ClientSettings {
  int retries = 3;              // retries of a rejected request before the event is counted as failed
  double retry_backoff_s = 1.0; // wait before a retry; default 1 s
  bool asynchronous = false;    // default false: synchronous blocking calls, as in LArSoft
  int max_in_flight = 1;        // asynchronous only: requests in flight per job
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
};

struct Workload {
  int jobs = 1;                // concurrent jobs; required, > 0
  int events_per_job = 1;      // events each job processes; default 1
  int warmup_events = 0;       // first events of each job left out of the statistics; default 0
  double start_spread_s = 0.0; // job start times uniform in [0, start_spread]; default 0 (all at once)
  ClientSettings client;
  std::vector<Module> pipeline;
  std::optional<Campaign> campaign; // default none: every job starts at once and runs events_per_job events
};

struct OutputSettings {
  double timeseries_interval_s = 60.0; // width of a timeseries.csv row; default 60 s
};

// Prices for `sonicsim plan` and `compare` (costs:), plain numbers in US dollars per hour of one device.
// Each is optional; a command that computes a cost requires both.
struct Costs {
  std::optional<double> gpu_hour_usd; // one GPU for one hour
  std::optional<double> cpu_hour_usd; // one job slot (one CPU core) for one hour
};

// A named what-if (variants:): overrides applied on top of the scenario, like --set arguments.
struct Variant {
  std::string name;
  std::string description;
  std::vector<std::string> overrides; // "key.path=value" (value as flow YAML), in the order written
  std::string origin;                 // where it was written: "FILE:LINE:COL", for error messages
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
  std::optional<Costs> costs;    // default none: no cost figures
  std::vector<Variant> variants; // default none; in the order written
};

} // namespace sonicsim
