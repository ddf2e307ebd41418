// The rows of sweep.csv (simulated and analytic values side by side) and the plateau/knee/slope fits of
// fits.csv. Pure code: the values come from run summaries and the analytic models.
#pragma once

#include "models/fits.hpp"
#include "sim/analysis/analytic_curve.hpp"
#include "sim/metrics/run_recorder.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/sweep/sweep_grid.hpp"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

struct SweepRow {
  SweepPoint point;
  int jobs = 0;
  RunSummary summary;
  // Simulated time of the accelerated (remote-inference) module(s); several modules are summed, and p50/p95
  // are then unknown (NaN).
  double module_mean_s = 0.0, module_p50_s = 0.0, module_p95_s = 0.0;
  // Absent when the scenario has no remote-inference module (the analytic models do not apply).
  std::optional<analysis::AnalyticPoint> analytic;
  double analytic_knee_jobs = 0.0;
  double network_limit_jobs = 0.0;
};

// Combines a point's scenario and simulated summary with the analytic predictions for that scenario.
SweepRow make_sweep_row(const SweepPoint& point, const Scenario& scenario, const RunSummary& summary);

// sweep.csv: a header, then one row per given row (the caller sorts them by point index). Numbers are written
// with 6 significant digits, so the text depends only on the simulated and derived values.
void write_sweep_csv(std::ostream& out, const std::vector<VaryAxis>& axes, const std::vector<SweepRow>& rows);

// Plateau/knee/slope of the module time against workload.jobs, per combination of the other axes' values.
struct CurveFit {
  std::string group;  // "key=value;key=value" of the other axes, or "all"
  std::string series; // simulated | analytic | mva
  std::size_t points = 0;
  models::PlateauKneeFit fit;
  double model_knee_jobs = 0.0; // analytic only: the exact knee N_GPU t_ideal / t_GPU; 0 otherwise
};

// Empty unless the first axis is workload.jobs; groups with fewer than 3 distinct job counts are left out.
std::vector<CurveFit> fit_module_curves(const std::vector<VaryAxis>& axes, const std::vector<SweepRow>& rows);
void write_fits_csv(std::ostream& out, const std::vector<CurveFit>& fits);
void print_fits(std::ostream& out, const std::vector<CurveFit>& fits);

} // namespace sonicsim
