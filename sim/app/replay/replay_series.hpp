// The series `sonicsim replay` compares (sim/app/replay/replay_command.cpp): each recorded one read from its
// Prometheus JSON, the simulated ones read from the run's timeseries.csv, the two matched at the recorded
// times, and the files the comparison is written to (replay.json, replay.csv).
#pragma once

#include "sim/analysis/replay_comparison.hpp"
#include "sim/measurements/prometheus_matrix.hpp"
#include "sim/scenario/scenario.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace sonicsim {

// The unix time of the simulation's start: one step before the recording's first sample, so that each
// sample stands for the step that ends at it (a rate() over it, the jobs that ran in it).
inline double replay_origin_s(const measurements::PrometheusSeries& clients, double step_s) {
  return clients.times_s.front() - step_s;
}

struct RecordedSeries {
  std::string name, unit, file;
  measurements::PrometheusSeries series;
};

// The names --series takes, for the option's help and its errors.
std::string replay_series_names();
// Each NAME=FILE read: a known name, a range query's JSON with the clients' step; a queue time must be one
// series (a sum of ratios is not a ratio), counts and rates are summed. InputError or MeasurementError.
std::vector<RecordedSeries> read_recorded_series(const std::vector<std::string>& specs, double step_s);

// The run's rows, `step_s` wide from 0, per series name (clients, replicas, ...).
struct SimulatedSeries {
  double step_s = 0.0;
  std::map<std::string, std::vector<double>> rows;
};
SimulatedSeries read_simulated_series(const std::filesystem::path& timeseries_csv, const std::string& group,
                                      double step_s);

struct ReplayComparison {
  std::string name, unit, file;
  std::vector<analysis::ReplayPoint> points;
  analysis::SeriesComparison comparison;
};
// Each recorded sample against the simulation at its time: a rate (queue time, inferences/s) against the row
// that ends at it, as rate() reads the step before it; a gauge (clients, replicas) against the mean of the
// two rows around it, centred on the sample as the gauge's instant is.
std::vector<ReplayComparison> compare_recorded(const std::vector<RecordedSeries>& recorded,
                                               const SimulatedSeries& simulated, double t0_s, double step_s);

// What a replay rests on, most telling first.
std::vector<std::string> replay_assumptions();
nlohmann::ordered_json replay_document(const Scenario& scenario, const std::string& group,
                                       const std::string& clients_file, double t0_s, double step_s,
                                       const std::vector<ReplayComparison>& rows);
void write_replay_files(const std::filesystem::path& dir, const nlohmann::ordered_json& document,
                        const std::vector<ReplayComparison>& rows);

} // namespace sonicsim
