#include "sim/app/run/run_sensitivity.hpp"

#include "sim/execution/local_pool.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/metrics/json_fields.hpp"
#include "sim/metrics/number_text.hpp"
#include "sim/scenario/input_error.hpp"
#include "sim/scenario/provenance.hpp"
#include "sim/scenario/scenario_error.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace sonicsim {
namespace {

struct Swing {
  Provenance entry;
  RunSummary low, high;
  double event_s_swing = 0.0; // |event time at high - at low|
};

// The run's own 95 % half-width of the mean time per event (batch means), 0 where it has none.
double event_half_width_s(const RunSummary& summary) {
  for (const auto& figure : summary.precision.intervals.figures)
    if (figure.figure == "event_mean_s") return figure.half_width;
  return 0.0;
}

Scenario at_end(const ScenarioSource& source, const Scenario& scenario, const Provenance& entry,
                const std::string& value) {
  try {
    Scenario moved = source.load({entry.key + "=" + value});
    moved.seed = scenario.seed; // the same streams: the swing is the value's, not the seed's
    return moved;
  } catch (const ScenarioError& error) {
    throw InputError(entry.origin + ": provenance of " + entry.key + ": range end '" + value +
                     "' refused: " + error.message);
  }
}

nlohmann::ordered_json ends_json(const RunSummary& low, const RunSummary& high) {
  return {{"event_mean_s", {low.event.mean_s, high.event.mean_s}},
          {"events_per_s_per_job", {low.events_per_s_per_job, high.events_per_s_per_job}}};
}

} // namespace

SensitivityRuns sensitivity_runs(const ScenarioSource& source, const Scenario& scenario) {
  SensitivityRuns runs{ranged_in_use(scenario), {}};
  if (runs.ranged.empty())
    throw InputError("--sensitivity: no value this scenario uses gives a range in its provenance "
                     "(provenance: {KEY: {assumed: WHY, range: {low: V, high: V, why: SOURCE}}}): nothing "
                     "to rank");
  for (const auto& entry : runs.ranged)
    for (const auto& value : {entry.range_low, entry.range_high})
      runs.ends.push_back({at_end(source, scenario, entry, value), {}, {}});
  return runs;
}

void run_sensitivity(const SensitivityRuns& runs, const Scenario& scenario, const RunSummary& base,
                     const std::filesystem::path& output_dir, int parallel, bool quiet, bool print) {
  const auto& ranged = runs.ranged;
  const auto outcomes = run_here(runs.ends, parallel, "run: sensitivity", quiet);
  std::vector<Swing> swings;
  for (std::size_t i = 0; i < ranged.size(); ++i) {
    for (const std::size_t k : {2 * i, 2 * i + 1})
      if (!outcomes[k].ok)
        throw std::runtime_error("--sensitivity: the run with " + ranged[i].key + " at " +
                                 (k % 2 ? ranged[i].range_high : ranged[i].range_low) +
                                 " failed: " + outcomes[k].error);
    Swing s{ranged[i], outcomes[2 * i].summary, outcomes[2 * i + 1].summary, 0.0};
    s.event_s_swing = std::abs(s.high.event.mean_s - s.low.event.mean_s);
    swings.push_back(std::move(s));
  }
  std::stable_sort(swings.begin(), swings.end(),
                   [](const Swing& a, const Swing& b) { return a.event_s_swing > b.event_s_swing; });
  const double noise_s = event_half_width_s(base);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& s : swings)
    rows.push_back({{"key", s.entry.key},
                    {"kind", provenance_kind_name(s.entry.kind)},
                    {"low", s.entry.range_low},
                    {"high", s.entry.range_high},
                    {"why_range", s.entry.range_why},
                    {"at", ends_json(s.low, s.high)},
                    {"event_mean_s_swing", s.event_s_swing},
                    {"within_noise", s.event_s_swing <= noise_s}});
  const nlohmann::ordered_json out{
      {"scenario", scenario.name},
      {"seed", std::to_string(scenario.seed)},
      {"answer", {{"event_mean_s", base.event.mean_s}, {"events_per_s_per_job", base.events_per_s_per_job}}},
      {"event_mean_s_half_width", noise_s},
      {"ranked_by", "event_mean_s swing, largest first"},
      {"values", rows}};
  write_file_atomically(output_dir / "sensitivity.json", json_text(out, 1) + "\n");
  if (!print) return;
  std::printf(
      "\nwhat the answer rests on, ranked: each value at the two ends of its range (same seed), largest "
      "swing in the time per event first\n");
  std::printf("  %-52s %-22s %21s %8s %17s\n", "value (kind)", "range", "event time (s) low..high", "swing",
              "events/s per job");
  for (std::size_t i = 0; i < swings.size(); ++i) {
    const auto& s = swings[i];
    const std::string name =
        std::to_string(i + 1) + ". " + s.entry.key + " (" + provenance_kind_name(s.entry.kind) + ")";
    std::printf("  %-52s %-22s %10s..%-10s %8s %8s..%-8s%s\n", name.c_str(),
                (s.entry.range_low + " .. " + s.entry.range_high).c_str(),
                significant(s.low.event.mean_s).c_str(), significant(s.high.event.mean_s).c_str(),
                significant(s.event_s_swing).c_str(), significant(s.low.events_per_s_per_job).c_str(),
                significant(s.high.events_per_s_per_job).c_str(),
                s.event_s_swing <= noise_s ? "  (within the run's noise)" : "");
  }
  std::printf("  the answer: %s s per event +- %s (95 %%, batch means); each range's source is in "
              "sensitivity.json\n",
              significant(base.event.mean_s).c_str(), significant(noise_s).c_str());
}

} // namespace sonicsim
