#include <cmath>
#include <cstdint>
#include <sstream>

#include "sim/scenario/scenario_sections.hpp"
#include "sim/scenario/yaml_values.hpp"

namespace sonicsim::detail {
namespace {

// Tolerance on a sum of fractions: YAML decimals such as 0.64 + 0.36 are not exact in binary.
constexpr double fraction_sum_tolerance = 1e-6;

double read_fraction(const Cursor& c) {
  const double f = read_number(c);
  require(c, f >= 0.0 && f <= 1.0, "a fraction between 0 and 1");
  return f;
}

// Rates below 1 kb/s are below what the flow model resolves in a run of hours (a 9 kB patch would take over a
// minute) and make SimGrid step through events of nothing; a rate that small is a typo.
constexpr double min_rate_bps = 1e3;

double read_positive_bandwidth(const Cursor& c) {
  const double bps = read_bandwidth_bps(c);
  require(c, bps >= min_rate_bps, "a bandwidth of at least 1 kbps, e.g. \"10Gbps\"");
  return bps;
}

// A background rate: 0 (none) or at least 1 kb/s.
double read_background_rate(const Cursor& c) {
  const double bps = read_bandwidth_bps(c);
  require(c, bps == 0.0 || bps >= min_rate_bps, "a rate of 0 or at least 1 kbps, e.g. \"20Gbps\"");
  return bps;
}

void check_fractions(const Cursor& list, const std::vector<double>& fractions) {
  double sum = 0.0;
  std::ostringstream terms;
  for (std::size_t i = 0; i < fractions.size(); ++i) {
    sum += fractions[i];
    terms << (i ? " + " : "") << fractions[i];
  }
  if (std::fabs(sum - 1.0) > fraction_sum_tolerance) {
    std::ostringstream message;
    message << "the fractions sum to " << sum << " (" << terms.str() << "); expected a sum of 1 (within "
            << fraction_sum_tolerance << ")";
    list.fail(message.str());
  }
}

void require_non_empty(const Cursor& list, const std::string& what) {
  require(list, list.node().size() > 0, "a non-empty list of " + what);
}

// A mix: a non-empty list of entries, each with a fraction (default 1) read by `read_entry`, the fractions
// summing to 1.
template <typename Entry, typename ReadEntry>
std::vector<Entry> read_mix(const Cursor& c, const std::string& shape, ReadEntry read_entry) {
  require_non_empty(c, shape);
  std::vector<Entry> mix;
  std::vector<double> fractions;
  for (std::size_t i = 0; i < c.node().size(); ++i) {
    Entry entry = read_entry(c[i]);
    if (c[i]["fraction"].present()) entry.fraction = read_fraction(c[i]["fraction"]);
    mix.push_back(entry);
    fractions.push_back(entry.fraction);
  }
  check_fractions(c, fractions);
  return mix;
}

std::vector<NicClass> read_nic_mix(const Cursor& c) {
  return read_mix<NicClass>(c, "{bandwidth, fraction}", [](const Cursor& e) {
    NicClass nic;
    nic.bandwidth_bps = read_positive_bandwidth(e["bandwidth"]);
    return nic;
  });
}

std::vector<CpuType> read_cpu_mix(const Cursor& c) {
  return read_mix<CpuType>(c, "{name, fraction, speed}", [](const Cursor& e) {
    CpuType cpu;
    cpu.name = read_string(e["name"]);
    if (e["speed"].present()) cpu.speed = read_number(e["speed"]);
    // Grid CPUs differ by a few times at most; a factor of 1000 either way is a typo and would turn seconds
    // into years (or nothing).
    require(e["speed"], cpu.speed >= 1e-3 && cpu.speed <= 1e3,
            "a relative speed between 0.001 and 1000 (1 = the reference CPU)");
    return cpu;
  });
}

SiteSwitch read_site_switch(const Cursor& c) {
  SiteSwitch s;
  if (c["bandwidth"].present()) s.bandwidth_bps = read_positive_bandwidth(c["bandwidth"]);
  // Background at or above the capacity would leave nothing for the jobs: the run could never finish.
  if (c["background"].present()) {
    s.background.rate_bps = read_background_rate(c["background"]);
    require(c["background"], s.background.rate_bps < s.bandwidth_bps,
            "a background rate below the switch bandwidth");
  }
  if (c["background_schedule"].present())
    s.background.schedule = read_step_schedule(c["background_schedule"], "rate",
                                               [](const Cursor& rate) { return read_background_rate(rate); });
  if (c["background_on_off"].present()) {
    const Cursor on_off = c["background_on_off"];
    OnOffTraffic traffic;
    traffic.rate_bps = read_positive_bandwidth(on_off["rate"]);
    // Bursts and silences shorter than 1 ms are below the flow model's resolution and turn the run into a
    // storm of rate changes.
    traffic.mean_on_s = read_duration_s(on_off["mean_on"]);
    require(on_off["mean_on"], traffic.mean_on_s >= 1e-3,
            "a mean burst length of at least 1ms, e.g. \"10min\"");
    traffic.mean_off_s = read_duration_s(on_off["mean_off"]);
    require(on_off["mean_off"], traffic.mean_off_s >= 1e-3, "a mean silence of at least 1ms, e.g. \"30min\"");
    s.background.on_off = traffic;
  }
  if (s.background.peak_bps() >= s.bandwidth_bps) {
    std::ostringstream message;
    message << "the background traffic can reach " << s.background.peak_bps() / 1e9
            << " Gb/s (constant + largest scheduled rate + on/off rate), at or above the switch bandwidth of "
            << s.bandwidth_bps / 1e9 << " Gb/s; expected a background below the switch capacity";
    c.fail(message.str());
  }
  return s;
}

Wan read_wan(const Cursor& c) {
  Wan w;
  if (c["rtt"].present()) {
    w.rtt_s = read_duration_s(c["rtt"]);
    // Ten seconds is over ten times a geostationary satellite hop: anything longer is a typo.
    require(c["rtt"], w.rtt_s >= 0.0 && w.rtt_s <= 10.0,
            "a round-trip time between 0 and 10s, e.g. \"12ms\"");
  }
  if (c["bandwidth"].present()) w.bandwidth_bps = read_positive_bandwidth(c["bandwidth"]);
  if (const Cursor down = c["down"]; down.present()) {
    require(down, down.node().IsSequence() && down.node().size() > 0,
            "a non-empty list of windows {from: TIME, to: TIME}");
    for (std::size_t i = 0; i < down.node().size(); ++i) {
      const Cursor window = down[i];
      require(window, window["from"].present() && window["to"].present(),
              "a window with from and to, e.g. {from: \"120min\", to: \"130min\"}");
      Wan::DownWindow d{read_duration_s(window["from"]), read_duration_s(window["to"])};
      require(window["from"], d.from_s >= 0.0, "a time >= 0, e.g. \"2h\"");
      require(window["to"], d.to_s > d.from_s, "a time after from, e.g. \"130min\"");
      w.down.push_back(d);
    }
  }
  return w;
}

ServerGroup read_server_group(const Cursor& c, const std::string& name) {
  ServerGroup g;
  g.name = name;
  // Bounds: 10,000 pods is ten times the largest SONIC deployment; 1,024 devices or cores is more than any
  // server holds. Their products stay far inside an int.
  if (c["pods"].present()) g.pods = read_int(c["pods"], 1, 10'000);
  if (const Cursor devices = c["devices"]; devices.present()) {
    if (devices["type"].present()) g.device_type = read_string(devices["type"]);
    require(devices["type"], g.device_type != cpu_device_type,
            "an accelerator type such as T4 or A100; the host's CPU cores are host_cores, and a model runs "
            "on them with instance_group kind CPU");
    if (devices["count"].present()) g.devices_per_pod = read_int(devices["count"], 0, 1'024);
    if (devices["model_switch_time"].present()) {
      g.model_switch_s = read_duration_s(devices["model_switch_time"]);
      // A second per switch is slower than reloading a model from host memory: a typo, not a GPU.
      require(devices["model_switch_time"], g.model_switch_s >= 0.0 && g.model_switch_s <= 1.0,
              "a duration between 0 and 1s, e.g. \"0.5ms\"");
    }
    if (devices["model_switch_slowdown"].present()) {
      g.model_switch_slowdown = read_number(devices["model_switch_slowdown"]);
      // Ten times its own time is slower than running the batch on the host's CPU: a typo, not a GPU.
      require(devices["model_switch_slowdown"],
              g.model_switch_slowdown >= 0.0 && g.model_switch_slowdown <= 10.0,
              "a fraction of the batch's time between 0 and 10, e.g. 0.4");
    }
  }
  if (c["host_cores"].present()) g.host_cores = read_int(c["host_cores"], 1, 1'024);
  if (c["nic_bandwidth"].present()) g.nic_bandwidth_bps = read_positive_bandwidth(c["nic_bandwidth"]);
  if (c["on_client_nodes"].present()) {
    g.on_client_nodes = read_bool(c["on_client_nodes"]);
    if (g.on_client_nodes && c["pods"].present())
      c["pods"].fail(
          "no pods on a group on_client_nodes: it has one server per worker node, set by the jobs");
    if (g.on_client_nodes && c["nic_bandwidth"].present())
      c["nic_bandwidth"].fail("no nic_bandwidth on a group on_client_nodes: its jobs reach it without the "
                              "network");
  }
  read_group_operations(c, g);
  return g;
}

std::vector<ServerGroup> read_server_groups(const Cursor& c) {
  require(
      c, c.node().IsMap() && c.node().size() > 0,
      "at least one server group, e.g. server_groups: {t4_pods: {pods: 1, devices: {type: T4, count: 4}}}");
  std::vector<ServerGroup> groups;
  std::int64_t pods = 0;
  for (const auto& entry : c.node()) {
    const std::string name = entry.first.Scalar();
    groups.push_back(read_server_group(c[name], name));
    pods += groups.back().pods;
  }
  // The same bound as one group's: more pods than any deployment, and far inside an int.
  require(c, pods <= 10'000, "at most 10,000 pods over all groups");
  return groups;
}

// platform.client_node: the node's physical cores and how its threads share them
// (sim/policy/node_sharing.hpp).
ClientNode read_client_node(const Cursor& c) {
  require(c, c.node().IsMap(),
          "a map: {physical_cores: N, threads_per_core: 1 or 2, hyperthread_yield: Y, "
          "inference_contention: K}");
  ClientNode node;
  const Cursor cores = c["physical_cores"];
  if (!cores.present()) cores.fail("missing required key; expected the physical cores of one worker node");
  node.physical_cores = read_int(cores, 1, 4'096);
  if (c["threads_per_core"].present()) node.threads_per_core = read_int(c["threads_per_core"], 1, 8);
  if (c["hyperthread_yield"].present()) {
    node.hyperthread_yield = read_fraction(c["hyperthread_yield"]);
    if (node.threads_per_core == 1 && node.hyperthread_yield > 0.0)
      c["hyperthread_yield"].fail(
          "a yield of hardware threads, but threads_per_core is 1 (no hyper-threading)");
  }
  if (c["inference_contention"].present()) {
    node.inference_contention = read_number(c["inference_contention"]);
    require(c["inference_contention"], node.inference_contention >= 0.0 && node.inference_contention <= 10.0,
            "a slowdown per inference thread per core between 0 and 10");
  }
  return node;
}

} // namespace

Platform read_platform(const Cursor& c) {
  Platform p;
  if (!c.present()) {
    p.server_groups.push_back(ServerGroup{});
    p.server_groups.back().name = "default";
    return p;
  }
  // A node with more than 1,024 job slots does not exist (the largest have a few hundred cores).
  if (c["jobs_per_node"].present()) p.jobs_per_node = read_int(c["jobs_per_node"], 1, 1'024);
  if (c["node_cores"].present()) p.node_cores = read_int(c["node_cores"], 1, 4'096);
  if (c["client_node"].present()) p.client_node = read_client_node(c["client_node"]);
  if (c["nic_mix"].present()) p.nic_mix = read_nic_mix(c["nic_mix"]);
  if (c["cpu_mix"].present()) p.cpu_mix = read_cpu_mix(c["cpu_mix"]);
  if (c["site_switch"].present()) p.site_switch = read_site_switch(c["site_switch"]);
  if (c["wan"].present()) p.wan = read_wan(c["wan"]);
  if (c["server_groups"].present()) {
    p.server_groups = read_server_groups(c["server_groups"]);
  } else {
    // Default: one pod with one T4 (ServerGroup's defaults), named "default".
    p.server_groups.push_back(ServerGroup{});
    p.server_groups.back().name = "default";
  }
  if (c["local_gpu_fraction"].present()) p.local_gpu_fraction = read_fraction(c["local_gpu_fraction"]);
  if (c["network"].present() && c["network"]["tcp_window"].present()) {
    const Cursor window = c["network"]["tcp_window"];
    p.network.tcp_window_bytes = read_bytes(window);
    // A window smaller than one packet stalls every transfer (SimGrid reports a deadlock); 1 GB is far above
    // any TCP stack's limit.
    require(window,
            p.network.tcp_window_bytes == 0.0 ||
                (p.network.tcp_window_bytes >= 1024.0 && p.network.tcp_window_bytes <= 1e9),
            "a window of 0 (no cap) or between 1KiB and 1GB, e.g. \"3MB\"");
  }
  if (c["network"].present() && c["network"]["fast_path"].present())
    p.network.fast_path = read_bool(c["network"]["fast_path"]);
  if (c["network"].present() && c["network"]["flow_classes"].present())
    p.network.flow_classes = read_bool(c["network"]["flow_classes"]);
  if (c["network"].present() && c["network"]["one_full_link"].present())
    p.network.one_full_link = read_bool(c["network"]["one_full_link"]);
  if (c["network"].present() && c["network"]["event_calendar"].present())
    p.network.event_calendar = read_bool(c["network"]["event_calendar"]);
  if (c["network"].present() && c["network"]["small_reply_max"].present()) {
    const Cursor small_reply = c["network"]["small_reply_max"];
    p.network.small_reply_max_bytes = read_bytes(small_reply);
    require(small_reply, p.network.small_reply_max_bytes >= 0.0,
            "a size >= 0, e.g. \"64KiB\" (0 simulates every reply as a flow)");
  }
  return p;
}

} // namespace sonicsim::detail
