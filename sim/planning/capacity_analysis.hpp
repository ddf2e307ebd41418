// The analytic side of a plan: for a scenario on a given pod layout, where each shared resource saturates
// (GPU pool, pod NICs, site switch, WAN), the accelerated module's time from MVA, and the bracket a search
// starts from. Built on sim/analysis (the same parameters `sonicsim analytic` prints). Pure code.
#pragma once

#include "sim/analysis/scenario_parameters.hpp"
#include "sim/planning/pod_layout.hpp"
#include "sim/scenario/scenario.hpp"

#include <string>
#include <vector>

namespace sonicsim::planning {

// A shared resource and the running jobs at which it is full (utilisation 1) when every job takes the
// unsaturated event time t_ideal.
struct ResourceLimit {
  std::string resource; // as displayed: "GPU pool", "pod NICs", "site switch", "WAN" (group names added)
  std::string capacity; // e.g. "4 x T4", "1 x 16 Gb/s"
  double jobs_at_saturation = 0.0;
  bool network = false; // a link (not the GPUs)
  ResourceKind kind = ResourceKind::device_pool;
  std::optional<int> group; // the group whose resource it is, where it is a group's
};

struct LayoutAnalysis {
  PodLayout layout;
  double t_ideal_s = 0.0;         // event time without queueing
  double t_gpu_s = 0.0;           // GPU-seconds per event
  double module_low_load_s = 0.0; // accelerated module(s) with one job
  double ratio = 0.0;             // optimal CPU threads per GPU: t_ideal / t_GPU (arXiv:2009.04509: 68)
  int threads = 1;                // per job: each has an event in flight, so a job is `threads` CPU processes
  double job_traffic_bps = 0.0;   // outbound bits per second of one job (all its threads) at t_ideal
  std::vector<ResourceLimit> limits; // sorted: the first saturates first
  int planned_group = 0;             // index in platform.server_groups of the group the layout sizes
  const ResourceLimit& first() const { return limits.front(); }
  // Optimal jobs per GPU: the ratio over the threads of a job.
  double jobs_per_gpu() const { return ratio / threads; }
  // The tightest link: the network limit.
  const ResourceLimit& network_limit() const;
};

LayoutAnalysis analyse_layout(const Scenario& scenario, const PodLayout& layout);

// Every queueing station of the scenario's closed network (each group's devices and busy hosts, the site
// switch out, each group's pod NICs in) and the WAN, with the jobs at which each is full: the asymptotic
// bound N* = (D + Z) x servers / D_k of operational analysis, the crossing of the flat and the saturated
// asymptotes, divided by the threads per job. Sorted: the first saturates first. For plans over several
// server groups, where one GPU pool does not describe the servers.
std::vector<ResourceLimit> station_limits(const Scenario& scenario);

// MVA time of the accelerated module(s) with `jobs` jobs on the layout.
double mva_module_s(const Scenario& scenario, const PodLayout& layout, int jobs);

// Jobs at which a shared link of this layout leaves `threshold` of its capacity (saturation_threshold): the
// pods needed so that the pod NICs do not, and whether a fixed link (switch, WAN) does at `jobs` anyway.
int pods_for_network(const LayoutAnalysis& analysis, int jobs, double threshold);
// The fixed shared link (site switch or WAN, whichever is tighter): pods cannot relieve it.
const ResourceLimit& fixed_network_limit(const LayoutAnalysis& analysis);

} // namespace sonicsim::planning
