// What `sonicsim report` draws from each kind of result directory. Each reads the files the command wrote
// (summary.json and its CSVs, sweep.csv and fits.csv, plan.json, compare.json, validate's report.json,
// calibration.json) and adds a section to the document. Pure code.
#pragma once

#include "sim/metrics/number_text.hpp"
#include "sim/report/report_document.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace sonicsim::report {

enum class ResultKind { run, sweep, plan, autoscaler_plan, compare, validate, calibrate, replay };

const char* result_kind_name(ResultKind kind);
// The file that marks a directory as holding that kind (summary.json, sweep.csv, ...).
const char* result_kind_file(ResultKind kind);

// The kinds of result a directory holds (a run with replications holds one run per replication_<r>/); empty
// when it holds none.
std::vector<ResultKind> result_kinds(const std::filesystem::path& dir);

void add_run_section(ReportDocument& document, const std::filesystem::path& dir);
// Measured points drawn over a sweep's module-time curve (a validation case's dataset), with their sd.
struct MeasuredSeries {
  std::string label; // where they come from
  struct Point {
    double x = 0.0, y = 0.0, sd = 0.0;
  };
  std::vector<Point> points;
};

void add_sweep_section(ReportDocument& document, const std::filesystem::path& dir,
                       const std::vector<MeasuredSeries>& measured = {});
void add_plan_section(ReportDocument& document, const std::filesystem::path& dir);
// plan --autoscaler's plan_autoscaler.json.
void add_autoscaler_plan_section(ReportDocument& document, const std::filesystem::path& dir);
void add_compare_section(ReportDocument& document, const std::filesystem::path& dir);
// sonicsim replay's replay.json and replay.csv.
void add_replay_section(ReportDocument& document, const std::filesystem::path& dir);
void add_validate_section(ReportDocument& document, const std::filesystem::path& dir);
void add_calibrate_section(ReportDocument& document, const std::filesystem::path& dir);
// calibrate --spec's calibration.json, already read (add_calibrate_section tells the two layouts apart).
void add_joint_calibration_section(ReportDocument& document, const Json& calibration);

// Shared by the sections: a JSON file read whole (numbers in tables go through metrics' significant()).
Json read_json_file(const std::filesystem::path& path);

} // namespace sonicsim::report
