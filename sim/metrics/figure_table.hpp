// The figure table: every figure sonicsim reports about a run has one name, one unit, one meaning and one way
// of being combined over replications. summary.json's "figures", sweep.csv's columns, compare, plan targets,
// validation observables and calibrate's --observable all name figures from this table and read their values
// through value_of(), so a figure means the same thing wherever it is printed. Names are flat, unit last
// ("event_mean_s"); a module figure may be narrowed to one module ("module_mean_s:ParticleNet"). Names used
// before the table (event_time, event_s, throughput, ...) are still read, with a notice of the new name.
// A figure a run does not define (no event completed, no prices, a percentile of summed modules) has no
// value, and it is one thing everywhere: an empty std::optional in code, null in a JSON record (left out of a
// map of figures), an empty CSV cell, "-" in a printed table. Neither 0 nor NaN stands for it. Pure code.
#pragma once

#include "sim/metrics/confidence_interval.hpp"
#include "sim/metrics/run_summary.hpp"
#include "sim/scenario/scenario.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

enum class Figure {
  module_mean_s,
  module_p50_s,
  module_p95_s,
  module_p99_s,
  event_mean_s,
  event_p50_s,
  event_p95_s,
  event_p99_s,
  events_per_s,
  events_per_s_per_job,
  direct_events_per_s_per_job,
  direct_inference_gain,
  inferences_per_s,
  gpu_utilisation,
  bottleneck_utilisation,
  switch_utilisation,
  mean_request_size,
  mean_executed_batch,
  mean_queue_wait_s,
  gpu_s_per_event,
  cost_usd_per_event,
  events_completed,
  events_failed,
  requests_rejected,
  device_hours,
  static_peak_device_hours,
  peak_pods,
  mean_held_pods,
  events_with_fallback,
  requests_timed_out,
};

// Which way a figure gets better: a plan target on it is a ceiling (lower) or a floor (higher).
enum class Better { lower, higher };

struct FigureSpec {
  Figure figure;
  const char* name;       // as every file and option spells it
  const char* label;      // for people: a table's row, a chart's axis ("event time"), with the unit beside it
  const char* unit;       // "s", "events/s", "fraction", "USD", "count", "inferences", ...
  Better better;          // for plan targets
  bool per_module;        // narrowed to modules: the accelerated ones unless a module is named
  bool more_devices_help; // more devices never make it worse (the planner's search relies on it)
  const char* meaning;    // one line, for --help and `sonicsim figures`
  // The tables that show it besides summary.json and `sonicsim figures` (which show every figure), in the
  // table's order: a new figure joins sweep.csv or compare by its row alone.
  unsigned shown_in = 0;
};

// FigureSpec::shown_in: sweep.csv's columns (of every run; as mean and interval with replications; of runs
// with pooled groups) and compare's rows (of every column; of pooled columns).
enum FigureTables : unsigned {
  in_sweep = 1u << 0,
  in_sweep_interval = 1u << 1,
  in_sweep_pool = 1u << 2,
  in_compare = 1u << 3,
  in_compare_pool = 1u << 4,
};

// The figures shown in `table` (one of FigureTables), in the table's order.
std::vector<Figure> figures_shown_in(FigureTables table);

// Every figure, in the order summaries and tables list them.
const std::vector<FigureSpec>& figure_table();

// A name from before the table, still read: where users may have it.
struct OldFigureName {
  const char* old_name;
  Figure figure;
  const char* where;
};
const std::vector<OldFigureName>& old_figure_names();
const FigureSpec& spec_of(Figure figure);
// How tables and charts title a figure: "event time (s)"; a fraction shown x 100 is "(%)".
std::string figure_title(Figure figure, bool as_percent = false);

// What some figures need beyond the summary: the modules a module figure sums (the scenario's accelerated
// modules, or the one named), the scenario (prices for the cost, inferences per event for GPU time).
struct FigureContext {
  std::vector<std::string> modules;
  const Scenario* scenario = nullptr;
  double inferences_per_event = 0.0;
};

// The context a scenario gives without its analytic parameters: its served modules and its prices (no
// inferences per event: analysis::figure_context adds them, for gpu_s_per_event).
FigureContext served_figure_context(const Scenario& scenario);

// The figure's value in one run; none when the run does not define it (no module of that name ran, a price
// is missing, no event completed).
std::optional<double> value_of(Figure figure, const RunSummary& summary, const FigureContext& context);

// A figure as a user names it: "event_mean_s", "module_mean_s:ParticleNet", or a name from before the table.
struct FigureName {
  Figure figure = Figure::event_mean_s;
  std::string module;       // "" unless narrowed
  std::string old_name;     // what the user wrote, when it is a name from before the table
  std::string text() const; // the current spelling
};

// Throws InputError("<what>: unknown figure 'x'; expected one of ...") for a name that is not in the table.
FigureName parse_figure_name(const std::string& text, const std::string& what);
// "'event_time' is now called 'event_mean_s' (read as it)", or "" for a current name.
std::string renamed_notice(const FigureName& name);
// The names a parse error lists, comma separated.
std::string figure_names_text();

// The one aggregator of numeric figures over replications: the mean and its 95 % Student-t interval.
inline ConfidenceInterval aggregate(const std::vector<double>& values) {
  return confidence_interval_95(values);
}
// The same over replications some of which may not define the figure: none unless every one does (never the
// mean of the others), and none without a replication.
std::optional<ConfidenceInterval> aggregate_defined(const std::vector<std::optional<double>>& values);

// The bottleneck over replications: the resource named busiest by most of them (ties: the one named first),
// with its mean utilisation over the replications that named it.
struct BottleneckVote {
  Bottleneck bottleneck;
  int votes = 0;
  int replications = 0;
};
BottleneckVote vote_bottleneck(const std::vector<Bottleneck>& replications);

} // namespace sonicsim
