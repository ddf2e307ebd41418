// Figures a plan or a comparison reads from a simulated run: the accelerated module's time, the GPU time per
// event, the CPU:GPU ratio and the cost per event. Pure code.
#pragma once

#include "sim/metrics/run_summary.hpp"
#include "sim/scenario/scenario.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

// GPU-seconds per event: busy GPU-seconds per inference measured at the server in the run's window, times the
// scenario's mean inferences per event. Measured per inference (not per completed event) because both the
// busy time and the inferences are counted at the server over the same window.
double gpu_seconds_per_event(const RunSummary& summary, double inferences_per_event);

// The CPU:GPU ratio of arXiv:2009.04509: unsaturated event time / GPU-seconds per event; none when either is
// undefined or no GPU time was spent.
std::optional<double> cpu_gpu_ratio(std::optional<double> unsaturated_event_s,
                                    std::optional<double> gpu_s_per_event);

// Names of the price keys the scenario lacks for a cost ("costs.device_hour.A100", "costs.cpu_hour"): one
// per device type its groups use, and the job slot's.
std::vector<std::string> missing_prices(const Scenario& scenario);

// One line of a cost bill: something held for the whole run at an hourly price.
struct BillItem {
  std::string item;      // "T4 devices", "server pods' hosts", "job CPU cores"
  std::string price_key; // where its price comes from: "costs.device_hour.T4"
  double count = 0.0;    // how many are held
  double usd_per_hour_each = 0.0;
  double usd_per_hour = 0.0;  // count x each
  double usd_per_event = 0.0; // usd_per_hour / (events/s x 3600)
  std::string held;           // how the count was held over the run: "all run", "mean over the window"
};

// What running the scenario costs at a throughput: every priced item held for the time the events take.
// Devices at their type's price (costs.device_hour.TYPE), the server pods' hosts (costs.pod_hour, when
// given), the CPU cores the jobs hold (jobs x threads per job; costs.cpu_hour is one core's hour) and the
// cores a fallback server reserves on each client node (host_cores x nodes, at the same price). Each count
// is what was held on average: a campaign's job slots over its window (its running jobs, not its peak), a
// pooled group's pods over the run.
struct CostBill {
  std::vector<BillItem> items;
  std::vector<std::string> unpriced; // held but not priced (no costs.pod_hour): not in the total
  double events_per_s = 0.0;
  double usd_per_hour = 0.0;
  double usd_per_event = 0.0;
  double device_hours_per_event = 0.0;
  double cpu_core_hours_per_event = 0.0;
};
// None when a required price is missing (missing_prices) or the rate is not positive. With `operations`, a
// group whose pods change in time is billed for the pods it held on average over the run.
std::optional<CostBill> cost_bill(const Scenario& scenario, double events_per_s,
                                  const OperationsSummary* operations = nullptr,
                                  const CampaignSummary* campaign = nullptr);
// The bill of a run as it went: its events/s, its pools' pods and its campaign's running jobs.
std::optional<CostBill> cost_bill(const Scenario& scenario, const RunSummary& summary);

} // namespace sonicsim
