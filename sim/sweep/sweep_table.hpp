// The rows of sweep.csv (simulated and analytic values side by side) and the plateau/knee/slope fits of
// fits.csv. Pure code: the values come from run summaries and the analytic models.
#pragma once

#include "models/fits.hpp"
#include "sim/analysis/analytic_curve.hpp"
#include "sim/metrics/confidence_interval.hpp"
#include "sim/metrics/figure_table.hpp"
#include "sim/metrics/run_recorder.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/sweep/sweep_grid.hpp"

#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

// The simulated columns of sweep.csv (figures of sim/metrics/figure_table.hpp, by their names).
extern const std::vector<Figure> simulated_sweep_figures;
// The columns an autoscaled pool adds (device-hours, peak pods, a static peak's device-hours, cost per
// event); such a row has no analytic or MVA values, which assume a fixed pool.
extern const std::vector<Figure> pool_sweep_figures;
// Those that also get a 95 % interval (columns <name>_ci95_low and _high) when points are replicated.
extern const std::vector<Figure> interval_sweep_figures;

struct SweepRow {
  SweepPoint point;
  int jobs = 0;
  int replications = 1;
  // Each simulated column over the point's replications (one replication: its value, no interval), by figure
  // name. A figure some replication does not define is absent (the accelerated modules' times are summed when
  // there are several, and their p50/p95 are then not defined).
  std::map<std::string, ConfidenceInterval> simulated;
  std::string bottleneck;  // vote_bottleneck over the replications, as a sentence
  bool autoscaled = false; // a group of the point's scenario has an autoscaler: pool_sweep_figures are set
  // Replications too short for output.precision even extended: the point is undecided (left out of the fits).
  int too_short = 0;
  // Absent when the scenario has no remote-inference module (the analytic models do not apply).
  std::optional<analysis::AnalyticPoint> analytic;
  double analytic_knee_jobs = 0.0;
  double network_limit_jobs = 0.0;

  // A column's interval or mean; none when the point does not define it.
  std::optional<ConfidenceInterval> figure(const std::string& column) const;
  std::optional<double> mean(const std::string& column) const;
};

// Combines a point's scenario and simulated summaries (one per replication, replication 0 first) with the
// analytic predictions for that scenario.
SweepRow make_sweep_row(const SweepPoint& point, const Scenario& scenario,
                        const std::vector<RunSummary>& replications);

// sweep.csv: a header, then one row per given row (the caller sorts them by point index). Numbers are written
// with 6 significant digits, so the text depends only on the simulated and derived values. When any point is
// replicated, the simulated columns hold means and a `replications` column and the interval columns follow
// the others; otherwise the file is exactly that of unreplicated points.
void write_sweep_csv(std::ostream& out, const std::vector<VaryAxis>& axes, const std::vector<SweepRow>& rows);

// Plateau/knee/slope of the module time against workload.jobs, per combination of the other axes' values.
struct CurveFit {
  std::string group;  // "key=value;key=value" of the other axes, or "all"
  std::string series; // simulated | analytic | mva
  std::size_t points = 0;
  models::PlateauKneeFit fit;
  double model_knee_jobs = 0.0;    // analytic only: the exact knee N_GPU t_ideal / t_GPU; 0 otherwise
  double network_limit_jobs = 0.0; // analytic only: the jobs at which the tightest link is full; 0 otherwise
  double jobs_low = 0.0, jobs_high = 0.0; // the job counts the fit saw
  // The fit found a knee: a finite one with a finite 95 % interval (+- 1.96 standard errors) inside the job
  // counts swept, on a rising saturated branch. A flat curve's "knee" (any value fits it, the error is not
  // finite) and a knee beyond the points are not knees the sweep shows, so no table or chart reports them.
  bool knee_found() const;
  // The least rise past the knee, by the last point, as a fraction of the plateau (knee_found).
  static constexpr double min_knee_rise_fraction = 0.05;
};

// Empty unless the first axis is workload.jobs; groups with fewer than 3 distinct job counts are left out.
std::vector<CurveFit> fit_module_curves(const std::vector<VaryAxis>& axes, const std::vector<SweepRow>& rows);
void write_fits_csv(std::ostream& out, const std::vector<CurveFit>& fits);
void print_fits(std::ostream& out, const std::vector<CurveFit>& fits);
// The table of points on stdout: the varied values, simulated and analytic module times, event time, GPU %
// and bottleneck.
void print_sweep_rows(const std::vector<VaryAxis>& axes, const std::vector<SweepRow>& rows);

} // namespace sonicsim
