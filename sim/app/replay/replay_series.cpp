#include "sim/app/replay/replay_series.hpp"

#include "sim/execution/state_file.hpp"
#include "sim/metrics/json_fields.hpp"
#include "sim/scenario/input_error.hpp"
#include "sim/sweep/sweep_csv.hpp"
#include "sim/text/csv.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace sonicsim {
namespace {

struct SeriesKind {
  const char* name;
  const char* unit;
  bool count;  // a replica count: decision match rate and lag
  bool summed; // several recorded series are added up
  bool gauge;  // an instant's value (compared with the rows around it), not a rate over the step before
};

const SeriesKind kinds[] = {
    {"clients", "jobs", false, true, true},          {"replicas", "pods", true, true, true},
    {"replicas_serving", "pods", true, true, true},  {"queue_time_per_batch_ms", "ms", false, false, false},
    {"inferences_per_s", "1/s", false, true, false},
};

const SeriesKind* kind_of(const std::string& name) {
  for (const auto& kind : kinds)
    if (name == kind.name) return &kind;
  return nullptr;
}

// A column of the run's time series as numbers, NaN where a row has none; all NaN when the run writes no such
// column (a group without a pool has no pod counts).
std::vector<double> column(const CsvTable& table, const std::string& name) {
  std::vector<double> out(table.rows.size(), std::numeric_limits<double>::quiet_NaN());
  if (std::find(table.header.begin(), table.header.end(), name) == table.header.end()) return out;
  const auto values = table.optional_numbers(name);
  for (std::size_t r = 0; r < values.size(); ++r)
    if (values[r]) out[r] = *values[r];
  return out;
}

} // namespace

std::string replay_series_names() {
  std::string names;
  for (const auto& kind : kinds)
    if (std::string(kind.name) != "clients") names += (names.empty() ? "" : ", ") + std::string(kind.name);
  return names;
}

std::vector<RecordedSeries> read_recorded_series(const std::vector<std::string>& specs, double step_s) {
  std::vector<RecordedSeries> out;
  for (const auto& spec : specs) {
    const auto equals = spec.find('=');
    const std::string name = spec.substr(0, equals);
    const SeriesKind* kind = kind_of(name);
    if (equals == std::string::npos || !kind || name == "clients")
      throw InputError("--series " + spec + ": expected NAME=FILE with NAME one of " + replay_series_names());
    const std::string file = spec.substr(equals + 1);
    const measurements::PrometheusMatrix matrix = measurements::read_prometheus_matrix(file);
    if (!kind->summed && matrix.series.size() > 1)
      throw InputError("--series " + spec + ": " + std::to_string(matrix.series.size()) + " series; a " +
                       name +
                       " must be one (write the query with sum(...) / sum(...), as the "
                       "chart's is)");
    if (std::fabs(matrix.step_s() - step_s) > 1e-6 * step_s)
      throw InputError("--series " + spec + ": samples " + std::to_string(matrix.step_s()) +
                       " s apart, the clients' " + std::to_string(step_s) + " s: query both with one step");
    out.push_back({name, kind->unit, file, matrix.summed()});
  }
  return out;
}

SimulatedSeries read_simulated_series(const std::filesystem::path& timeseries_csv, const std::string& group,
                                      double step_s) {
  const CsvTable table = read_csv_file(timeseries_csv.string());
  SimulatedSeries out;
  out.step_s = step_s;
  out.rows["clients"] = column(table, "jobs_running");
  out.rows["replicas"] = column(table, group + "_pods_held");
  out.rows["replicas_serving"] = column(table, group + "_pods_serving");
  const auto executions = column(table, "nv_inference_exec_count"),
             queue_us = column(table, "nv_inference_queue_duration_us"),
             inferences = column(table, "nv_inference_count");
  auto& queue_ms = out.rows["queue_time_per_batch_ms"];
  auto& rate = out.rows["inferences_per_s"];
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    // The chart's query: queue time over executions in ms, 0 with none (its + 0.001).
    queue_ms.push_back(executions[r] > 0 ? queue_us[r] / executions[r] / 1e3 : 0.0);
    rate.push_back(inferences[r] / step_s);
  }
  return out;
}

std::vector<ReplayComparison> compare_recorded(const std::vector<RecordedSeries>& recorded,
                                               const SimulatedSeries& simulated, double t0_s, double step_s) {
  std::vector<ReplayComparison> out;
  for (const auto& r : recorded) {
    ReplayComparison c{r.name, r.unit, r.file, {}, {}};
    const auto& rows = simulated.rows.at(r.name);
    const bool gauge = kind_of(r.name)->gauge;
    for (std::size_t i = 0; i < r.series.times_s.size(); ++i) {
      const double t = r.series.times_s[i] - t0_s;
      const long row = std::lround(t / step_s) - 1; // the row that ends at the sample
      const long last = gauge ? row + 1 : row;
      if (row < 0 || last >= static_cast<long>(rows.size())) continue;
      const double at =
          gauge ? 0.5 * (rows[static_cast<std::size_t>(row)] + rows[static_cast<std::size_t>(last)])
                : rows[static_cast<std::size_t>(row)];
      c.points.push_back({t, r.series.values[i], at});
    }
    c.comparison = analysis::compare_replay(c.points, step_s, kind_of(r.name)->count);
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<std::string> replay_assumptions() {
  return {
      "the simulation starts empty one step before the recording's first sample (no job running, the "
      "autoscaler's minimum): a recording that starts with a deployment already running compares a "
      "start-up with it for its first minutes",
      "the recorded clients are jobs: each runs the scenario's workload (its events and their inference), "
      "so the load per client is the scenario's, not measured; a job keeps running when the count drops "
      "(it is not killed), as a batch system's jobs do",
      "each simulated value is the run's mean over the step ending at the recorded time for a rate (queue "
      "time, inferences/s, as rate() reads it) and over the two steps around it for a gauge (clients, "
      "replicas); the Triton series are summed over every group of the scenario"};
}

nlohmann::ordered_json replay_document(const Scenario& scenario, const std::string& group,
                                       const std::string& clients_file, double t0_s, double step_s,
                                       const std::vector<ReplayComparison>& rows) {
  nlohmann::ordered_json series = nlohmann::ordered_json::array();
  for (const auto& r : rows) {
    const auto& c = r.comparison;
    nlohmann::ordered_json entry{{"name", r.name},
                                 {"unit", r.unit},
                                 {"file", r.file},
                                 {"points", c.points},
                                 {"mean_recorded", c.mean_recorded},
                                 {"mean_simulated", c.mean_simulated},
                                 {"mean_error", c.mean_error},
                                 {"mean_absolute_error", c.mean_absolute_error},
                                 {"relative_error", c.relative_error}};
    // A replica count's decisions and lag; a rate has none, and the keys are left out.
    if (c.decision_match_rate) entry["decision_match_rate"] = *c.decision_match_rate;
    if (c.lag_s) entry["lag_s"] = *c.lag_s;
    series.push_back(entry);
  }
  return {{"scenario", scenario.name},
          {"group", group},
          {"clients_file", clients_file},
          {"start_unix_s", t0_s},
          {"step_s", step_s},
          {"series", series},
          {"assumptions", replay_assumptions()}};
}

void write_replay_files(const std::filesystem::path& dir, const nlohmann::ordered_json& document,
                        const std::vector<ReplayComparison>& rows) {
  write_file_atomically(dir / "replay.json", json_text(document, 1) + "\n");
  std::ostringstream csv;
  csv << "series,t_s,recorded,simulated\n";
  for (const auto& r : rows)
    for (const auto& p : r.points)
      csv << r.name << ',' << csv_number(p.t_s) << ',' << csv_number(p.recorded) << ','
          << csv_number(p.simulated) << '\n';
  write_file_atomically(dir / "replay.csv", csv.str());
}

} // namespace sonicsim
