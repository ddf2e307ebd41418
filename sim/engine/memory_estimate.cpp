#include "sim/engine/memory_estimate.hpp"

#include "sim/metrics/number_text.hpp"
#include "sim/scenario/input_error.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace sonicsim {

namespace {

// Peak resident memory of `sonicsim run` (GNU time's %M, KiB; 2 events per job, precision off), measured
// 2026-12-02 on the release build, each term on its own grid with the others at the default scenario's:
// - job slots: the default scenario (remote inference) 133,304 KiB at 20,000 jobs, 507,740 at 100,000,
//   982,920 at 200,000: 4.85 KiB per job; a CPU-only pipeline 280,416 at 100,000 and 530,160 at 200,000:
//   2.50 KiB per job (no connections, senders or request slots);
// - threads: 10,000 jobs of 4 threads 112,688 against 84,432 KiB at 1: 0.96 KiB per extra thread;
// - modules: 2 jobs of 1,000, 2,000 and 4,000 one-ms CPU modules 157,052, 274,888 and 514,304 KiB: 120 KiB
// per
//   module whatever the jobs (each module's recorders and histograms);
// - pods: 100 to 4,000 pods of 8 T4 41,168 to 78,320 KiB, 4,000 of 1 T4 71,756, 1,000 of 32 T4 53,992: 7.9
// KiB
//   per pod and 0.2 KiB per device;
// - WAN down windows: 2 jobs with 10,000 and 40,000 windows 63,036 and 135,096 KiB: 2.4 KiB per window;
// - models: 1,000 and 4,000 models of which one is used 50,816 and 83,892 KiB: 11 KiB per model;
// - the base: 40,308 KiB for 2 jobs of the default scenario.
// Each term is rounded up; the estimate is then a peak, not a floor: over these 16 runs (and 780,000 jobs,
// 3.74 GB) it lies 2.2-7.4 % above the measured peak, never below.
constexpr double kib = 1024.0;
constexpr double base_bytes = 41e3 * kib;
constexpr double bytes_per_served_job = 4.9 * kib;
constexpr double bytes_per_cpu_job = 2.6 * kib;
constexpr double bytes_per_extra_thread = 1.0 * kib;
constexpr double bytes_per_module = 122 * kib;
constexpr double bytes_per_pod = 8.0 * kib;
constexpr double bytes_per_device = 0.25 * kib;
constexpr double bytes_per_wan_window = 2.5 * kib;
constexpr double bytes_per_model = 12 * kib;
// What the address space holds beyond the resident pages (the allocator's arenas, SimGrid's maps and the
// stacks reserved): 20-40 MiB over the grid above (/proc's VmPeak against VmHWM), so 64 MiB and 5 %.
constexpr double address_space_reserve_bytes = 64.0 * kib * kib;
constexpr double address_space_factor = 1.05;

bool serves_remotely(const Scenario& scenario) {
  for (const auto& module : scenario.workload.pipeline)
    if (module.served()) return true;
  return false;
}

} // namespace

MemoryEstimate estimate_run_memory(const Scenario& scenario) {
  MemoryEstimate e;
  const double jobs = scenario.workload.jobs;
  const double threads = std::max(1, scenario.workload.threads);
  e.jobs_bytes = jobs * ((serves_remotely(scenario) ? bytes_per_served_job : bytes_per_cpu_job) +
                         (threads - 1.0) * bytes_per_extra_thread);
  e.modules_bytes = static_cast<double>(scenario.workload.pipeline.size()) * bytes_per_module;
  e.models_bytes = static_cast<double>(scenario.models.size()) * bytes_per_model;
  e.wan_windows_bytes = static_cast<double>(scenario.platform.wan.down.size()) * bytes_per_wan_window;
  for (const auto& group : scenario.platform.server_groups) {
    const double pods = std::max(group.pods, group.autoscaler ? group.autoscaler->max_pods : 0);
    e.pods_bytes += pods * (bytes_per_pod + group.devices_per_pod * bytes_per_device);
  }
  e.total_bytes =
      base_bytes + e.jobs_bytes + e.modules_bytes + e.models_bytes + e.wan_windows_bytes + e.pods_bytes;
  return e;
}

double estimated_run_bytes(const Scenario& scenario) {
  return estimate_run_memory(scenario).total_bytes;
}

std::optional<MemoryLimit> memory_limit() {
  std::optional<MemoryLimit> limit;
  const long pages = ::sysconf(_SC_PHYS_PAGES), page_bytes = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_bytes > 0)
    limit = MemoryLimit{static_cast<double>(pages) * static_cast<double>(page_bytes), "the machine's memory"};
  rlimit address_space{};
  if (::getrlimit(RLIMIT_AS, &address_space) == 0 && address_space.rlim_cur != RLIM_INFINITY) {
    const double bytes = static_cast<double>(address_space.rlim_cur);
    if (!limit || bytes < limit->bytes)
      limit = MemoryLimit{bytes, "the process's address-space limit (ulimit -v)", true};
  }
  return limit;
}

void check_run_fits(const Scenario& scenario) {
  const auto limit = memory_limit();
  if (!limit) return;
  const MemoryEstimate e = estimate_run_memory(scenario);
  const bool address_space = limit->address_space;
  const double needed =
      address_space ? e.total_bytes * address_space_factor + address_space_reserve_bytes : e.total_bytes;
  if (needed <= limit->bytes) {
    if (const auto notice = large_run_notice(scenario, limit); !notice.empty())
      std::fprintf(stderr, "%s\n", notice.c_str());
    return;
  }
  // Named by what takes most of it: the key, how many, and the measured cost of one.
  struct Term {
    double bytes;
    const char* key;
    std::string count;
    double bytes_each;
    const char* each;
  };
  const double jobs = std::max(1, scenario.workload.jobs);
  const Term terms[] = {
      {e.jobs_bytes, "workload.jobs", std::to_string(scenario.workload.jobs) + " job slots",
       e.jobs_bytes / jobs, "job"},
      {e.modules_bytes, "workload.pipeline", std::to_string(scenario.workload.pipeline.size()) + " modules",
       bytes_per_module, "module"},
      {e.models_bytes, "models", std::to_string(scenario.models.size()) + " models", bytes_per_model,
       "model"},
      {e.wan_windows_bytes, "platform.wan.down",
       std::to_string(scenario.platform.wan.down.size()) + " windows", bytes_per_wan_window, "window"},
      {e.pods_bytes, "platform.server_groups", "the pods", bytes_per_pod, "pod"}};
  const Term& largest = *std::max_element(std::begin(terms), std::end(terms),
                                          [](const Term& a, const Term& b) { return a.bytes < b.bytes; });
  const std::string key = largest.key;
  const std::string what = largest.count + " hold about " + significant(largest.bytes / 1e9, 3) + " GB (" +
                           significant(largest.bytes_each / 1e3, 2) + " kB per " + largest.each +
                           ", measured)";
  throw InputError(key + ": " + what + "; the run needs about " + significant(needed / 1e9, 3) +
                   " GB at its peak" + (address_space ? " of address space" : "") + ", more than the " +
                   significant(limit->bytes / 1e9, 3) + " GB of " + limit->what +
                   "; expected a smaller run (fewer jobs, modules, models, windows or pods, or a campaign "
                   "simulated at a smaller "
                   "scale)");
}

std::string large_run_notice(const Scenario& scenario, const std::optional<MemoryLimit>& limit) {
  const double needed = estimated_run_bytes(scenario);
  if (needed < large_run_bytes) return "";
  return "run: " + std::to_string(scenario.workload.jobs) + " job slots will hold about " +
         significant(needed / 1e9, 3) + " GB (" +
         significant(estimate_run_memory(scenario).jobs_bytes / std::max(1, scenario.workload.jobs) / 1e3,
                     2) +
         " kB per job, measured)" +
         (limit ? ", within the " + significant(limit->bytes / 1e9, 3) + " GB of " + limit->what : "") +
         "; the outputs are written when the run ends";
}

} // namespace sonicsim
