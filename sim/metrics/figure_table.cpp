#include "sim/metrics/figure_table.hpp"

#include "sim/metrics/run_figures.hpp"
#include "sim/scenario/input_error.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace sonicsim {
namespace {

using F = Figure;

// A figure summed over the pooled groups; none without any.
std::optional<double> pool_total(const RunSummary& s, Figure figure) {
  if (!s.operations || s.operations->pools.empty()) return std::nullopt;
  double total = 0.0;
  for (const auto& p : s.operations->pools)
    total += figure == Figure::device_hours               ? p.device_hours
             : figure == Figure::static_peak_device_hours ? p.static_peak_device_hours
             : figure == Figure::mean_held_pods           ? p.mean_held_pods
                                                          : p.peak_pods;
  return total;
}
constexpr auto lower = Better::lower;
constexpr auto higher = Better::higher;

// Names from before the table, still read from the files and options users have.
const std::vector<OldFigureName> old_names{
    {"event_time", F::event_mean_s, "plan --target"},
    {"event_time_p95", F::event_p95_s, "plan --target"},
    {"module_time", F::module_mean_s, "plan --target"},
    {"throughput", F::events_per_s,
     "plan --target (was jobs x threads / event time; now the events completed)"},
    {"cost_per_event", F::cost_usd_per_event, "plan --target"},
    {"event", F::event_mean_s, "calibrate --observable"},
    {"module:NAME", F::module_mean_s, "calibrate --observable (now module_mean_s:NAME)"},
    {"event_s", F::event_mean_s, "compare.json, plan.json runs"},
    {"module_s", F::module_mean_s, "compare.json, plan.json runs"},
    {"throughput_events_per_s", F::events_per_s, "plan.json runs"},
    {"event.mean_s", F::event_mean_s, "replications.json and .csv"},
    {"event.p50_s", F::event_p50_s, "replications.json and .csv"},
    {"event.p95_s", F::event_p95_s, "replications.json and .csv"},
    {"event.p99_s", F::event_p99_s, "replications.json and .csv"},
    {"modules.NAME.mean_s", F::module_mean_s,
     "replications.json and .csv (now module_mean_s:NAME, and so "
     "p50, p95, p99)"},
    {"peak_replicas", F::peak_pods, "summary.json, sweep.csv, compare.json (pods have one name)"},
    {"mean_held_replicas", F::mean_held_pods, "summary.json, sweep.csv (pods have one name)"},
};
// replications.json named a module's figures "modules.NAME.mean_s" (now "module_mean_s:NAME").
const std::vector<std::pair<const char*, Figure>> old_module_suffixes{{".mean_s", F::module_mean_s},
                                                                      {".p50_s", F::module_p50_s},
                                                                      {".p95_s", F::module_p95_s},
                                                                      {".p99_s", F::module_p99_s}};

double module_statistic(const RunSummary& summary, const std::vector<std::string>& modules,
                        double TimeStatistics::*statistic, bool* found) {
  double total = 0.0;
  for (const auto& [name, stats] : summary.modules)
    if (std::find(modules.begin(), modules.end(), name) != modules.end()) {
      total += stats.*statistic;
      *found = true;
    }
  return total;
}

} // namespace

std::vector<Figure> figures_shown_in(FigureTables shown) {
  std::vector<Figure> out;
  for (const auto& spec : figure_table())
    if (spec.shown_in & shown) out.push_back(spec.figure);
  return out;
}

const std::vector<FigureSpec>& figure_table() {
  // Built on first use: other files' globals list figures from it (sweep.csv's and compare's columns) while
  // the program starts, in an order across files C++ does not fix.
  static const std::vector<FigureSpec> table{
      {F::module_mean_s, "module_mean_s", "module time", "s", lower, true, true,
       "mean time per event in the modules (summed), from the job's side",
       in_sweep | in_sweep_interval | in_compare},
      {F::module_p50_s, "module_p50_s", "module time, median", "s", lower, true, true,
       "median time per event in one module", in_sweep},
      {F::module_p95_s, "module_p95_s", "module time, 95th percentile", "s", lower, true, true,
       "95th percentile of the time in one module", in_sweep},
      {F::module_p99_s, "module_p99_s", "module time, 99th percentile", "s", lower, true, true,
       "99th percentile of the time in one module"},
      {F::event_mean_s, "event_mean_s", "event time", "s", lower, false, true, "mean time per event",
       in_sweep | in_sweep_interval | in_compare},
      {F::event_p50_s, "event_p50_s", "event time, median", "s", lower, false, true, "median time per event",
       in_sweep},
      {F::event_p95_s, "event_p95_s", "event time, 95th percentile", "s", lower, false, true,
       "95th percentile of the time per event", in_sweep | in_sweep_interval},
      {F::event_p99_s, "event_p99_s", "event time, 99th percentile", "s", lower, false, true,
       "99th percentile of the time per event"},
      {F::events_per_s, "events_per_s", "throughput", "events/s", higher, false, true,
       "events completed per second in the steady-state window, all jobs",
       in_sweep | in_sweep_interval | in_compare},
      {F::events_per_s_per_job, "events_per_s_per_job", "throughput per job", "events/s", higher, false, true,
       "events_per_s / jobs"},
      {F::direct_events_per_s_per_job, "direct_events_per_s_per_job", "direct-inference throughput per job",
       "events/s", higher, false, false,
       "events/s per job of the same jobs with every model run directly on their CPUs (the baseline run "
       "simulates beside a run with remote inference)"},
      {F::direct_inference_gain, "direct_inference_gain", "gain over direct inference", "fraction", higher,
       false, true,
       "events_per_s_per_job / direct_events_per_s_per_job - 1: what inference as a service gains per job"},
      {F::inferences_per_s, "inferences_per_s", "inference rate", "inferences/s", higher, false, true,
       "inferences executed by the servers per second in the window", in_sweep},
      {F::gpu_utilisation, "gpu_utilisation", "GPU utilisation", "fraction", lower, false, true,
       "busy GPU-seconds / (GPUs x window), every group's devices",
       in_sweep | in_sweep_interval | in_compare},
      {F::bottleneck_utilisation, "bottleneck_utilisation", "bottleneck utilisation", "fraction", lower,
       false, false, "utilisation of the busiest shared resource", in_sweep},
      {F::switch_utilisation, "switch_utilisation", "site switch utilisation", "fraction", lower, false,
       false,
       "the site switch's outbound utilisation over the window: what fills when many jobs send (not relieved "
       "by more devices)",
       in_sweep},
      {F::mean_request_size, "mean_request_size", "mean request size", "inferences", higher, false, false,
       "mean inferences per request", in_sweep},
      {F::mean_executed_batch, "mean_executed_batch", "mean executed batch", "inferences", higher, false,
       false, "mean inferences per executed batch", in_sweep | in_compare},
      {F::mean_queue_wait_s, "mean_queue_wait_s", "mean queue wait", "s", lower, false, true,
       "mean wait of a request in the server's queue"},
      {F::gpu_s_per_event, "gpu_s_per_event", "GPU time per event", "GPU-s/event", lower, false, false,
       "busy GPU-seconds per inference x the scenario's inferences per event"},
      {F::cost_usd_per_event, "cost_usd_per_event", "cost per event", "USD", lower, false, false,
       "devices and job slots held for one event at events_per_s, at the scenario's prices",
       in_sweep_pool | in_compare},
      {F::events_completed, "events_completed", "events completed", "count", higher, false, false,
       "events completed in the window (warm-up and failures aside)", in_sweep},
      {F::events_failed, "events_failed", "events failed", "count", lower, false, true, "events failed",
       in_sweep},
      {F::requests_rejected, "requests_rejected", "requests rejected", "count", lower, false, true,
       "requests the servers rejected", in_sweep},
      {F::device_hours, "device_hours", "device-hours held", "device-h", lower, false, false,
       "device-hours held by the groups with an autoscaler, failures or a proxy, over the run (operations)",
       in_sweep_pool | in_compare_pool},
      {F::static_peak_device_hours, "static_peak_device_hours", "device-hours of a static peak", "device-h",
       lower, false, false,
       "device-hours a static deployment of those groups' peak size would hold over the run", in_sweep_pool},
      {F::peak_pods, "peak_pods", "peak pods held", "count", lower, false, false,
       "the most pods those groups held at once (their sum)", in_sweep_pool | in_compare_pool},
      {F::mean_held_pods, "mean_held_pods", "mean pods held", "count", lower, false, false,
       "pods those groups held on average over the run, starting, serving, draining or failed (their sum)",
       in_sweep_pool},
      {F::events_with_fallback, "events_with_fallback", "events with a fallback", "count", lower, false, true,
       "events (warm-up included) a request of which was served by the fallback server"},
      {F::requests_timed_out, "requests_timed_out", "requests timed out", "count", lower, false, true,
       "requests given up by their client after workload.client.timeout"},
  };
  return table;
}
const std::vector<OldFigureName>& old_figure_names() {
  return old_names;
}

std::optional<ConfidenceInterval> aggregate_defined(const std::vector<std::optional<double>>& values) {
  std::vector<double> defined;
  for (const auto& value : values) {
    if (!value) return std::nullopt;
    defined.push_back(*value);
  }
  if (defined.empty()) return std::nullopt;
  return aggregate(defined);
}

const FigureSpec& spec_of(Figure figure) {
  for (const auto& spec : figure_table())
    if (spec.figure == figure) return spec;
  throw std::logic_error("figure missing from the figure table");
}

std::string figure_title(Figure figure, bool as_percent) {
  const FigureSpec& spec = spec_of(figure);
  return std::string(spec.label) + " (" + (as_percent ? "%" : spec.unit) + ")";
}

FigureContext served_figure_context(const Scenario& scenario) {
  FigureContext context;
  context.scenario = &scenario;
  for (const auto& module : scenario.workload.pipeline)
    if (module.served()) context.modules.push_back(module.name);
  return context;
}

std::optional<double> value_of(Figure figure, const RunSummary& s, const FigureContext& context) {
  const bool events = s.event.count > 0;
  switch (figure) {
  case F::module_mean_s:
  case F::module_p50_s:
  case F::module_p95_s:
  case F::module_p99_s: {
    // A percentile of a sum is not the sum of percentiles: those are defined for one module only.
    if (figure != F::module_mean_s && context.modules.size() != 1) return std::nullopt;
    bool found = false;
    const auto statistic = figure == F::module_mean_s  ? &TimeStatistics::mean_s
                           : figure == F::module_p50_s ? &TimeStatistics::p50_s
                           : figure == F::module_p95_s ? &TimeStatistics::p95_s
                                                       : &TimeStatistics::p99_s;
    const double value = module_statistic(s, context.modules, statistic, &found);
    if (!found) return std::nullopt;
    return value;
  }
  case F::event_mean_s:
    return events ? std::optional<double>(s.event.mean_s) : std::nullopt;
  case F::event_p50_s:
    return events ? std::optional<double>(s.event.p50_s) : std::nullopt;
  case F::event_p95_s:
    return events ? std::optional<double>(s.event.p95_s) : std::nullopt;
  case F::event_p99_s:
    return events ? std::optional<double>(s.event.p99_s) : std::nullopt;
  case F::events_per_s:
    return s.events_per_s;
  case F::events_per_s_per_job:
    return s.events_per_s_per_job;
  case F::direct_events_per_s_per_job:
    return s.direct_inference ? std::optional<double>(s.direct_inference->events_per_s_per_job)
                              : std::nullopt;
  case F::direct_inference_gain:
    return s.direct_inference ? std::optional<double>(s.direct_inference->gain) : std::nullopt;
  case F::inferences_per_s:
    return s.inferences_per_s;
  case F::gpu_utilisation:
    return s.gpu_utilisation;
  case F::bottleneck_utilisation:
    return s.bottleneck.utilisation;
  case F::switch_utilisation:
    for (const auto& link : s.links)
      if (link.kind == ResourceKind::site_switch) return link.utilisation;
    return std::nullopt;
  case F::mean_request_size:
    return s.mean_request_size;
  case F::mean_executed_batch:
    return s.mean_executed_batch;
  case F::mean_queue_wait_s:
    return s.mean_queue_wait_s;
  case F::gpu_s_per_event:
    if (!(context.inferences_per_event > 0.0)) return std::nullopt;
    return gpu_seconds_per_event(s, context.inferences_per_event);
  case F::cost_usd_per_event: {
    if (!context.scenario) return std::nullopt;
    const auto bill = cost_bill(*context.scenario, s);
    return bill ? std::optional<double>(bill->usd_per_event) : std::nullopt;
  }
  case F::events_completed:
    return static_cast<double>(s.events_completed);
  case F::events_failed:
    return static_cast<double>(s.events_failed);
  case F::requests_rejected:
    return static_cast<double>(s.requests_rejected);
  case F::device_hours:
  case F::static_peak_device_hours:
  case F::peak_pods:
  case F::mean_held_pods:
    return pool_total(s, figure);
  case F::events_with_fallback:
    return s.operations
               ? std::optional<double>(static_cast<double>(s.operations->events.completed_with_fallback))
               : std::nullopt;
  case F::requests_timed_out:
    return s.operations ? std::optional<double>(static_cast<double>(s.operations->requests_timed_out))
                        : std::nullopt;
  }
  return std::nullopt;
}

std::string FigureName::text() const {
  return module.empty() ? spec_of(figure).name : std::string(spec_of(figure).name) + ":" + module;
}

std::string figure_names_text() {
  std::string names;
  for (const auto& spec : figure_table())
    names += (names.empty() ? "" : ", ") + std::string(spec.name);
  return names + " (a module figure narrowed to one module: module_mean_s:NAME)";
}

FigureName parse_figure_name(const std::string& text, const std::string& what) {
  FigureName name;
  std::string base = text;
  if (text.rfind("module:", 0) == 0) { // calibrate --observable before the table
    name.old_name = text;
    base = "module_mean_s";
    name.module = text.substr(7);
  } else if (text.rfind("modules.", 0) == 0) {
    for (const auto& [suffix, figure] : old_module_suffixes) {
      const std::string end = suffix;
      if (text.size() > 8 + end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0) {
        name.old_name = text;
        name.module = text.substr(8, text.size() - 8 - end.size());
        base = spec_of(figure).name;
      }
    }
  } else if (const auto colon = text.find(':'); colon != std::string::npos) {
    base = text.substr(0, colon);
    name.module = text.substr(colon + 1);
  }
  bool known = false;
  for (const auto& spec : figure_table())
    if (base == spec.name) {
      name.figure = spec.figure;
      known = true;
    }
  for (const auto& [old, figure, where] : old_names)
    if (!known && base == old) {
      name.figure = figure;
      name.old_name = text;
      known = true;
    }
  if (!known)
    throw InputError(what + ": unknown figure '" + text + "'; expected one of " + figure_names_text());
  if (!name.module.empty() || text.find(':') != std::string::npos) {
    if (!spec_of(name.figure).per_module)
      throw InputError(what + ": '" + text +
                       "': only module figures (module_mean_s, module_p50_s, "
                       "module_p95_s, module_p99_s) take ':MODULE'");
    if (name.module.empty()) throw InputError(what + ": '" + text + "': no module after ':'");
  }
  return name;
}

std::string renamed_notice(const FigureName& name) {
  if (name.old_name.empty()) return "";
  // One release's notice (docs/outputs.md, "Names from before 0.1.0"): 0.2.0 reads the current names only.
  return "'" + name.old_name + "' is now called '" + name.text() +
         "' (read as it until sonicsim 0.2.0, which reads the new name only; see `sonicsim figures`)";
}

BottleneckVote vote_bottleneck(const std::vector<Bottleneck>& replications) {
  BottleneckVote vote;
  vote.replications = static_cast<int>(replications.size());
  std::vector<std::pair<Bottleneck, std::vector<double>>> named; // in first-named order
  for (const auto& b : replications) {
    auto it = std::find_if(named.begin(), named.end(),
                           [&](const auto& entry) { return entry.first.same_resource(b); });
    if (it == named.end()) it = named.insert(named.end(), {b, {}});
    it->second.push_back(b.utilisation);
  }
  for (const auto& [resource, utilisations] : named)
    if (static_cast<int>(utilisations.size()) > vote.votes) {
      vote.votes = static_cast<int>(utilisations.size());
      vote.bottleneck = resource;
      vote.bottleneck.utilisation = aggregate(utilisations).mean;
    }
  return vote;
}

} // namespace sonicsim
