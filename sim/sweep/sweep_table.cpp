#include "sim/sweep/sweep_table.hpp"

#include "sim/text/csv.hpp"

#include "sim/scenario/input_error.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <ostream>
#include <stdexcept>

namespace sonicsim {
namespace {

constexpr double not_available = std::numeric_limits<double>::quiet_NaN();

std::string number(double value) {
  if (std::isnan(value)) return "";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

} // namespace

SweepRow make_sweep_row(const SweepPoint& point, const Scenario& scenario, const RunSummary& summary) {
  SweepRow row;
  row.point = point;
  row.jobs = scenario.workload.jobs;
  row.summary = summary;
  std::vector<std::string> accelerated;
  for (const auto& module : scenario.workload.pipeline)
    if (module.served()) accelerated.push_back(module.name);
  row.module_mean_s = accelerated.empty() ? not_available : 0.0;
  row.module_p50_s = row.module_p95_s = not_available;
  for (const auto& [name, stats] : summary.modules) {
    for (const auto& wanted : accelerated) {
      if (name != wanted) continue;
      row.module_mean_s += stats.mean_s;
      if (accelerated.size() == 1) {
        row.module_p50_s = stats.p50_s;
        row.module_p95_s = stats.p95_s;
      }
    }
  }
  try {
    const auto parameters = analysis::derive_parameters(scenario);
    row.analytic = analysis::analytic_curve(parameters, {row.jobs}).front();
    const auto model = parameters.latency_model();
    row.analytic_knee_jobs = model.knee_jobs();
    row.network_limit_jobs = parameters.network_limited_jobs(model.t_ideal_s());
  } catch (const InputError&) {
    // No accelerated module: the row has simulated values only.
  } catch (const std::invalid_argument&) {
    // A degenerate model (e.g. zero GPU time): likewise.
  }
  return row;
}

void write_sweep_csv(std::ostream& out, const std::vector<VaryAxis>& axes,
                     const std::vector<SweepRow>& rows) {
  out << "point";
  for (const auto& axis : axes)
    out << "," << csv_field(axis.key);
  out << ",jobs,module_mean_s,analytic_module_s,mva_module_s,module_p50_s,module_p95_s"
         ",event_mean_s,analytic_event_s,mva_event_s,event_p50_s,event_p95_s"
         ",events_per_s,mva_events_per_s,inferences_per_s,gpu_utilisation,mva_gpu_utilisation"
         ",bottleneck,bottleneck_utilisation,mean_request_size,mean_executed_batch"
         ",events_completed,events_failed,requests_rejected,analytic_knee_jobs,network_limit_jobs\n";
  for (const auto& row : rows) {
    const auto& s = row.summary;
    const auto& a = row.analytic;
    auto analytic = [&a](double analysis::AnalyticPoint::*field) {
      return a ? number((*a).*field) : std::string();
    };
    out << row.point.index;
    for (const auto& value : row.point.values)
      out << "," << csv_field(value);
    out << "," << row.jobs << "," << number(row.module_mean_s) << ","
        << analytic(&analysis::AnalyticPoint::sonic_module_s) << ","
        << analytic(&analysis::AnalyticPoint::mva_module_s) << "," << number(row.module_p50_s) << ","
        << number(row.module_p95_s) << "," << number(s.event.mean_s) << ","
        << analytic(&analysis::AnalyticPoint::sonic_event_s) << ","
        << analytic(&analysis::AnalyticPoint::mva_event_s) << "," << number(s.event.p50_s) << ","
        << number(s.event.p95_s) << "," << number(s.events_per_s) << ","
        << analytic(&analysis::AnalyticPoint::mva_events_per_s) << "," << number(s.inferences_per_s) << ","
        << number(s.gpu_utilisation) << "," << analytic(&analysis::AnalyticPoint::mva_gpu_utilisation) << ","
        << csv_field(s.bottleneck) << "," << number(s.bottleneck_utilisation) << ","
        << number(s.mean_request_size) << "," << number(s.mean_executed_batch) << "," << s.events_completed
        << "," << s.events_failed << "," << s.requests_rejected << ","
        << (a ? number(row.analytic_knee_jobs) : "") << "," << (a ? number(row.network_limit_jobs) : "")
        << "\n";
  }
}

std::vector<CurveFit> fit_module_curves(const std::vector<VaryAxis>& axes,
                                        const std::vector<SweepRow>& rows) {
  std::vector<CurveFit> fits;
  if (axes.empty() || axes.front().key != "workload.jobs") return fits;
  // Rows grouped by the values of the other axes, in order of first appearance (= grid order).
  std::vector<std::string> group_order;
  std::map<std::string, std::vector<const SweepRow*>> groups;
  for (const auto& row : rows) {
    std::string group;
    for (std::size_t a = 1; a < axes.size(); ++a)
      group += (group.empty() ? "" : ";") + axes[a].key + "=" + row.point.values[a];
    if (group.empty()) group = "all";
    if (!groups.count(group)) group_order.push_back(group);
    groups[group].push_back(&row);
  }
  for (const auto& group : group_order) {
    std::vector<double> jobs, simulated, analytic_jobs, analytic, mva;
    double model_knee_jobs = 0.0;
    for (const SweepRow* row : groups[group]) {
      if (!std::isnan(row->module_mean_s) && row->summary.events_completed > 0) {
        jobs.push_back(row->jobs);
        simulated.push_back(row->module_mean_s);
      }
      if (row->analytic) {
        analytic_jobs.push_back(row->jobs);
        analytic.push_back(row->analytic->sonic_module_s);
        mva.push_back(row->analytic->mva_module_s);
        model_knee_jobs = row->analytic_knee_jobs;
      }
    }
    auto add = [&](const char* series, const std::vector<double>& x, const std::vector<double>& y,
                   double knee) {
      try {
        fits.push_back(CurveFit{group, series, x.size(), models::fit_plateau_knee(x, y), knee});
      } catch (const std::invalid_argument&) {
        // Fewer than 3 distinct job counts: nothing to fit.
      }
    };
    add("simulated", jobs, simulated, 0.0);
    add("analytic", analytic_jobs, analytic, model_knee_jobs);
    add("mva", analytic_jobs, mva, 0.0);
  }
  return fits;
}

void write_fits_csv(std::ostream& out, const std::vector<CurveFit>& fits) {
  out << "group,series,points,plateau_s,knee_jobs,knee_se_jobs,slope_s_per_job,model_knee_jobs\n";
  for (const auto& fit : fits) {
    out << csv_field(fit.group) << "," << fit.series << "," << fit.points << "," << number(fit.fit.plateau)
        << "," << number(fit.fit.knee) << "," << number(fit.fit.knee_se) << "," << number(fit.fit.slope)
        << "," << (fit.model_knee_jobs > 0 ? number(fit.model_knee_jobs) : "") << "\n";
  }
}

void print_fits(std::ostream& out, const std::vector<CurveFit>& fits) {
  char line[256];
  std::string group;
  for (const auto& fit : fits) {
    if (fit.group != group) {
      group = fit.group;
      out << "\nmodule time vs jobs, plateau + slope x (jobs - knee) beyond the knee"
          << (group == "all" ? "" : " [" + group + "]") << ":\n";
      std::snprintf(line, sizeof line, "  %-10s %10s %12s %10s %14s %14s\n", "series", "plateau s",
                    "knee jobs", "+/- jobs", "slope s/job", "model knee");
      out << line;
    }
    std::snprintf(line, sizeof line, "  %-10s %10.3f %12.1f %10.1f %14.5f %14s\n", fit.series.c_str(),
                  fit.fit.plateau, fit.fit.knee, fit.fit.knee_se, fit.fit.slope,
                  fit.model_knee_jobs > 0 ? number(fit.model_knee_jobs).c_str() : "");
    out << line;
  }
}

} // namespace sonicsim
