#include "sim/engine/memory_estimate.hpp"

#include "sim/metrics/number_text.hpp"
#include "sim/scenario/input_error.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace sonicsim {

namespace {

// Peak resident memory of `sonicsim run` on the default scenario (2 events per job, precision off), measured
// 2026-11-29 with the PCG64 streams (GNU time's %M): 61,668 KiB at 5,000 jobs, 84,432 at 10,000, 130,812 at
// 20,000: 4.7 kB per job over ~40 MB. A job of several threads holds a little more per thread (10,000 jobs of
// 4 threads: 112,688 KiB, 0.96 kB per extra thread); the estimate is a floor, rounded up.
constexpr double base_bytes = 40e6;
constexpr double bytes_per_job = 4.8e3;
constexpr double bytes_per_extra_thread = 1e3;

} // namespace

double estimated_run_bytes(const Scenario& scenario) {
  const double jobs = scenario.workload.jobs;
  const double threads = std::max(1, scenario.workload.threads);
  return base_bytes + jobs * (bytes_per_job + (threads - 1.0) * bytes_per_extra_thread);
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
      limit = MemoryLimit{bytes, "the process's address-space limit (ulimit -v)"};
  }
  return limit;
}

void check_run_fits(const Scenario& scenario) {
  const auto limit = memory_limit();
  if (!limit) return;
  const double needed = estimated_run_bytes(scenario);
  if (needed <= limit->bytes) {
    if (const auto notice = large_run_notice(scenario, limit); !notice.empty())
      std::fprintf(stderr, "%s\n", notice.c_str());
    return;
  }
  throw InputError("workload.jobs: " + std::to_string(scenario.workload.jobs) + " job slots need about " +
                   significant(needed / 1e9, 3) + " GB at least (" + significant(bytes_per_job / 1e3, 2) +
                   " kB per job, measured), more than the " + significant(limit->bytes / 1e9, 3) + " GB of " +
                   limit->what + "; expected fewer jobs, or a campaign simulated at a smaller scale");
}

std::string large_run_notice(const Scenario& scenario, const std::optional<MemoryLimit>& limit) {
  const double needed = estimated_run_bytes(scenario);
  if (needed < large_run_bytes) return "";
  return "run: " + std::to_string(scenario.workload.jobs) + " job slots will hold about " +
         significant(needed / 1e9, 3) + " GB (" + significant(bytes_per_job / 1e3, 2) +
         " kB per job, measured)" +
         (limit ? ", within the " + significant(limit->bytes / 1e9, 3) + " GB of " + limit->what : "") +
         "; the outputs are written when the run ends";
}

} // namespace sonicsim
