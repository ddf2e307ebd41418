// A run's figures over independent replications (--replications R on run, sweep and compare): each figure's
// mean and 95 % Student-t interval, and the files that hold them (replications.json, replications.csv).
// Replication r runs with seed replication_seed(scenario seed, r) (sim/random/replication_seed.hpp), so
// replication 0 is the plain run. Pure code.
#pragma once

#include "sim/metrics/confidence_interval.hpp"
#include "sim/metrics/figure_table.hpp"
#include "sim/metrics/run_summary.hpp"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sonicsim {

struct ReplicatedFigure {
  std::string name; // the figure table's name ("event_mean_s", "module_mean_s:EmTrkMichelId"), or a named
                    // resource's, dotted, unit last ("groups.triton.device_utilisation")
  std::vector<double> values; // one per replication that reports it, in replication order
  ConfidenceInterval interval;
};

struct ReplicatedRun {
  std::vector<std::uint64_t> seeds;
  std::vector<ReplicatedFigure> figures; // in the order a summary prints them
  // How many replications named each resource the bottleneck, most frequent first (ties: by name).
  std::vector<std::pair<std::string, int>> bottlenecks;
  BottleneckVote bottleneck; // the figure table's aggregator of bottlenecks
};

// Every figure the summaries report: the figure table's (each module's, then the run's; the context says
// which modules module_mean_s sums and gives the prices of the cost), then utilisations of groups, models
// and links, direct inference and campaign traffic when present. A figure missing from some replications (a
// campaign fit that was not determined) is averaged over those that report it, and its n says how many.
ReplicatedRun replicate(const std::vector<std::uint64_t>& seeds, const std::vector<RunSummary>& replications,
                        const FigureContext& context = {});

// The figure with this name (or its name from before the figure table); throws std::out_of_range naming it
// when absent.
const ReplicatedFigure& figure(const ReplicatedRun& run, const std::string& name);

// replications.json: {"replications": R, "seeds": [...], "interval": "...", "figures": {name: {mean,
// half_width, low, high, sd, n, values}}, "bottlenecks": {name: count}}.
nlohmann::ordered_json replicated_to_json(const ReplicatedRun& run);
// replications.csv: figure,mean,half_width,low,high,sd,n (6 significant digits, like sweep.csv).
void write_replicated_csv(std::ostream& out, const ReplicatedRun& run);

} // namespace sonicsim
