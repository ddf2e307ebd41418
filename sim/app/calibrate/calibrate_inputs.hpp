// The inputs of `sonicsim calibrate`, read and checked before the first simulation: the options, the measured
// series, the --fit parameters with their bounds, and a held-out series. Every bad value is told where the
// user wrote it (a data cell, a --fit bound), never as an override nobody typed.
#pragma once

#include "sim/app/common/execution_flags.hpp"
#include "sim/calibration/calibration.hpp"
#include "sim/calibration/measured_series.hpp"
#include "sim/metrics/figure_table.hpp"
#include "sim/scenario/scenario.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

struct CalibrateArguments {
  bool html = false;        // --html: report.html beside the results
  std::string predict_from; // --predict-from: a finished joint fit's calibration.json
  std::string spec; // --spec: a joint calibration file instead of one series (sim/calibration/joint_spec.hpp)
  std::string scenario;
  std::vector<std::string> variants; // of `scenario` only (a held-out scenario is taken as written)
  std::vector<std::string> set_overrides;
  std::optional<std::uint64_t> seed; // --seed: a seed=N override after --set
  std::string data, series, x_column, y_column, sd_column;
  std::string x_key = "workload.jobs";
  std::string observable;        // a figure's name (sim/metrics/figure_table.hpp)
  std::vector<std::string> fits; // KEY=LO:HI[@INITIAL]
  std::string holdout;           // SCENARIO:SERIES
  std::vector<double> exclude;   // x values left out of the fit (a point known not to be described)
  int max_evaluations = 30;
  std::string output_dir;
  bool quiet = false, json = false;
  ExecutionFlags execution{2};
};

// A series as read (with each point's line, for errors) and as the fit takes it.
struct SeriesPoints {
  std::vector<calibration::MeasuredPoint> measured;
  std::vector<calibration::DataPoint> points;
};

struct HoldoutSeries {
  std::string scenario;
  std::string series;
  SeriesPoints points;
};

struct CheckedInputs {
  FigureName observable; // --observable, a figure of the table
  std::vector<calibration::FitParameter> parameters;
  std::vector<double> initial;
  SeriesPoints series;
  std::optional<HoldoutSeries> holdout;
  std::filesystem::path output_dir;
};

// The calibrated scenario with its --variant and these overrides; another file (a held-out scenario) as
// written.
Scenario load_for(const CalibrateArguments& a, const std::string& path,
                  const std::vector<std::string>& overrides);

// A value with its unit as an override writes it ("12.5ns").
std::string value_text(double value, const std::string& unit);

// Everything checked: each --fit's bounds and start value, each point's x, the held-out series.
CheckedInputs check_inputs(const CalibrateArguments& a);

} // namespace sonicsim
