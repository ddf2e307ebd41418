#include "sim/sweep/sweep_table.hpp"
#include "sim/metrics/number_text.hpp"

#include "sim/text/csv.hpp"

#include "sim/scenario/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <ostream>
#include <set>
#include <stdexcept>

namespace sonicsim {
const std::vector<Figure> simulated_sweep_figures = figures_shown_in(in_sweep);
const std::vector<Figure> pool_sweep_figures = figures_shown_in(in_sweep_pool);
const std::vector<Figure> interval_sweep_figures = figures_shown_in(in_sweep_interval);

namespace {

// A count as an integer when it is one (one replication), else as a mean; an empty field when not defined.
std::string count(std::optional<double> value) {
  if (value && *value == std::floor(*value) && std::fabs(*value) < 1e15) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.0f", *value);
    return buffer;
  }
  return value ? csv_number(*value) : std::string();
}

// A figure in a printed table: "-" when not defined.
std::string shown(std::optional<double> value) {
  return value ? significant(*value) : std::string("-");
}

// A fraction in a printed table as a percentage with one decimal; "-" when not defined.
std::string percent(std::optional<double> fraction) {
  if (!fraction) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", 100.0 * *fraction);
  return buffer;
}

} // namespace

namespace {

// Each figure over the replications into row.simulated. A figure some replication does not define (a p50 of
// summed modules) is left out rather than given the mean of the others.
void add_figures(SweepRow& row, const std::vector<Figure>& figures,
                 const std::vector<RunSummary>& replications, const FigureContext& context) {
  for (const Figure figure : figures) {
    std::vector<std::optional<double>> values;
    for (const auto& summary : replications)
      values.push_back(value_of(figure, summary, context));
    if (const auto ci = aggregate_defined(values)) row.simulated[spec_of(figure).name] = *ci;
  }
}

} // namespace

std::optional<ConfidenceInterval> SweepRow::figure(const std::string& column) const {
  const auto it = simulated.find(column);
  if (it == simulated.end()) return std::nullopt;
  return it->second;
}

std::optional<double> SweepRow::mean(const std::string& column) const {
  const auto ci = figure(column);
  if (!ci) return std::nullopt;
  return ci->mean;
}

SweepRow make_sweep_row(const SweepPoint& point, const Scenario& scenario,
                        const std::vector<RunSummary>& replications) {
  if (replications.empty()) throw std::invalid_argument("make_sweep_row: no replication");
  SweepRow row;
  row.point = point;
  row.jobs = scenario.workload.jobs;
  row.replications = static_cast<int>(replications.size());
  const FigureContext context = served_figure_context(scenario);
  add_figures(row, simulated_sweep_figures, replications, context);
  std::vector<Bottleneck> bottlenecks;
  for (const auto& summary : replications)
    bottlenecks.push_back(summary.bottleneck);
  row.bottleneck = vote_bottleneck(bottlenecks).bottleneck.sentence();
  for (const auto& summary : replications)
    row.too_short += summary.precision.too_short() ? 1 : 0;
  // A pool that changes in time: its own figures, and no fixed-pool model (Eq. 1-5 and the MVA assume the
  // pods are there all the time, which an autoscaled pool's are not).
  for (const auto& group : scenario.platform.server_groups)
    row.autoscaled = row.autoscaled || group.autoscaler.has_value();
  if (row.autoscaled) {
    add_figures(row, pool_sweep_figures, replications, context);
    return row;
  }
  try {
    const auto parameters = analysis::derive_parameters(scenario);
    row.analytic = analysis::analytic_curve(parameters, {row.jobs}).front();
    const auto model = parameters.latency_model();
    // The model counts CPU processes (a job's threads); the table counts jobs.
    row.analytic_knee_jobs = model.knee_jobs() / parameters.threads;
    row.network_limit_jobs = parameters.network_limited_jobs(model.t_ideal_s()) / parameters.threads;
  } catch (const InputError&) {
    // No accelerated module: the row has simulated values only.
  } catch (const std::invalid_argument&) {
    // A degenerate model (e.g. zero GPU time): likewise.
  }
  return row;
}

namespace {

// The figures shown in sweep.csv (their rows' in_sweep) that its first columns do not already write beside
// their analytic counterparts: a figure added to the table joins sweep.csv here, by name.
const std::vector<Figure>& further_sweep_figures() {
  static const std::vector<Figure> further = [] {
    const std::set<Figure> written{
        Figure::module_mean_s,          Figure::module_p50_s,      Figure::module_p95_s,
        Figure::event_mean_s,           Figure::event_p50_s,       Figure::event_p95_s,
        Figure::events_per_s,           Figure::inferences_per_s,  Figure::gpu_utilisation,
        Figure::bottleneck_utilisation, Figure::mean_request_size, Figure::mean_executed_batch,
        Figure::events_completed,       Figure::events_failed,     Figure::requests_rejected,
        Figure::switch_utilisation};
    std::vector<Figure> out;
    for (const Figure figure : figures_shown_in(in_sweep))
      if (!written.count(figure)) out.push_back(figure);
    return out;
  }();
  return further;
}

} // namespace

void write_sweep_csv(std::ostream& out, const std::vector<VaryAxis>& axes,
                     const std::vector<SweepRow>& rows) {
  bool replicated = false, autoscaled = false;
  for (const auto& row : rows) {
    replicated = replicated || row.replications > 1;
    autoscaled = autoscaled || row.autoscaled;
  }
  out << "point";
  for (const auto& axis : axes)
    out << "," << csv_field(axis.key);
  out << ",jobs,module_mean_s,analytic_module_s,mva_module_s,module_p50_s,module_p95_s"
         ",event_mean_s,analytic_event_s,mva_event_s,event_p50_s,event_p95_s"
         ",events_per_s,mva_events_per_s,inferences_per_s,gpu_utilisation,mva_gpu_utilisation"
         ",bottleneck,bottleneck_utilisation,mean_request_size,mean_executed_batch"
         ",events_completed,events_failed,requests_rejected,analytic_knee_jobs,network_limit_jobs"
         ",switch_utilisation,too_short";
  for (const Figure figure : further_sweep_figures())
    out << "," << spec_of(figure).name;
  // An autoscaled pool's figures (only then: a sweep of fixed pools keeps its columns as before).
  if (autoscaled)
    for (const Figure figure : pool_sweep_figures)
      out << "," << spec_of(figure).name;
  if (replicated) {
    out << ",replications";
    for (const Figure figure : interval_sweep_figures)
      out << "," << spec_of(figure).name << "_ci95_low," << spec_of(figure).name << "_ci95_high";
  }
  out << "\n";
  for (const auto& row : rows) {
    const auto& a = row.analytic;
    auto analytic = [&a](double analysis::AnalyticPoint::*field) {
      return a ? csv_number((*a).*field) : std::string();
    };
    auto sim = [&row](const char* column) {
      const auto value = row.mean(column);
      return value ? csv_number(*value) : std::string();
    };
    out << row.point.index;
    for (const auto& value : row.point.values)
      out << "," << csv_field(value);
    out << "," << row.jobs << "," << sim("module_mean_s") << ","
        << analytic(&analysis::AnalyticPoint::sonic_module_s) << ","
        << analytic(&analysis::AnalyticPoint::mva_module_s) << "," << sim("module_p50_s") << ","
        << sim("module_p95_s") << "," << sim("event_mean_s") << ","
        << analytic(&analysis::AnalyticPoint::sonic_event_s) << ","
        << analytic(&analysis::AnalyticPoint::mva_event_s) << "," << sim("event_p50_s") << ","
        << sim("event_p95_s") << "," << sim("events_per_s") << ","
        << analytic(&analysis::AnalyticPoint::mva_events_per_s) << "," << sim("inferences_per_s") << ","
        << sim("gpu_utilisation") << "," << analytic(&analysis::AnalyticPoint::mva_gpu_utilisation) << ","
        << csv_field(row.bottleneck) << "," << sim("bottleneck_utilisation") << ","
        << sim("mean_request_size") << "," << sim("mean_executed_batch") << ","
        << count(row.mean("events_completed")) << "," << count(row.mean("events_failed")) << ","
        << count(row.mean("requests_rejected")) << "," << (a ? csv_number(row.analytic_knee_jobs) : "") << ","
        << (a ? csv_number(row.network_limit_jobs) : "") << "," << sim("switch_utilisation") << ","
        << row.too_short;
    for (const Figure figure : further_sweep_figures()) {
      const char* name = spec_of(figure).name;
      out << "," << (std::string(spec_of(figure).unit) == "count" ? count(row.mean(name)) : sim(name));
    }
    if (autoscaled)
      for (const Figure figure : pool_sweep_figures)
        out << "," << sim(spec_of(figure).name);
    if (replicated) {
      out << "," << row.replications;
      for (const Figure figure : interval_sweep_figures) {
        const auto ci = row.figure(spec_of(figure).name);
        const bool interval = ci && ci->has_interval();
        out << "," << (interval ? csv_number(ci->low()) : "") << ","
            << (interval ? csv_number(ci->high()) : "");
      }
    }
    out << "\n";
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
    double model_knee_jobs = 0.0, network_limit_jobs = 0.0;
    for (const SweepRow* row : groups[group]) {
      // A point too short for the precision rule is not evidence for the fit.
      const auto module_s = row->mean("module_mean_s");
      if (module_s && row->mean("events_completed").value_or(0.0) > 0 && row->too_short == 0) {
        jobs.push_back(row->jobs);
        simulated.push_back(*module_s);
      }
      if (row->analytic) {
        analytic_jobs.push_back(row->jobs);
        analytic.push_back(row->analytic->sonic_module_s);
        mva.push_back(row->analytic->mva_module_s);
        model_knee_jobs = row->analytic_knee_jobs;
        network_limit_jobs = row->network_limit_jobs;
      }
    }
    auto add = [&](const char* series, const std::vector<double>& x, const std::vector<double>& y,
                   double knee, double network_limit) {
      try {
        CurveFit fit{group, series, x.size(), models::fit_plateau_knee(x, y), knee, network_limit};
        fit.jobs_low = *std::min_element(x.begin(), x.end());
        fit.jobs_high = *std::max_element(x.begin(), x.end());
        fits.push_back(fit);
      } catch (const std::invalid_argument&) {
        // Fewer than 3 distinct job counts: nothing to fit.
      }
    };
    add("simulated", jobs, simulated, 0.0, 0.0);
    add("analytic", analytic_jobs, analytic, model_knee_jobs, network_limit_jobs);
    add("mva", analytic_jobs, mva, 0.0, 0.0);
  }
  return fits;
}

bool CurveFit::knee_found() const {
  const double half_width = 1.96 * fit.knee_se;
  // The curve must also rise past the knee by what a sweep can see: a slope whose 95 % interval excludes 0,
  // and by the last point at least 5 % of the plateau (2.5 x the 2 % a run's figures are held to), or a
  // plateau's own scatter, fitted as a shallow slope, would be drawn as saturation.
  const double rise_s = fit.slope * (jobs_high - fit.knee);
  return std::isfinite(fit.knee) && std::isfinite(half_width) && fit.slope - 1.96 * fit.slope_se > 0.0 &&
         rise_s >= min_knee_rise_fraction * fit.plateau && fit.knee - half_width >= jobs_low &&
         fit.knee + half_width <= jobs_high;
}

void write_fits_csv(std::ostream& out, const std::vector<CurveFit>& fits) {
  out << "group,series,points,plateau_s,knee_jobs,knee_se_jobs,slope_s_per_job,model_knee_jobs,knee_found,"
         "network_limit_jobs\n";
  for (const auto& fit : fits) {
    out << csv_field(fit.group) << "," << fit.series << "," << fit.points << ","
        << csv_number(fit.fit.plateau) << "," << csv_number(fit.fit.knee) << ","
        << csv_number(fit.fit.knee_se) << "," << csv_number(fit.fit.slope) << ","
        << (fit.model_knee_jobs > 0 ? csv_number(fit.model_knee_jobs) : "") << ","
        << (fit.knee_found() ? "true" : "false") << ","
        << (fit.network_limit_jobs > 0 ? csv_number(fit.network_limit_jobs) : "") << "\n";
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
    if (fit.knee_found())
      std::snprintf(line, sizeof line, "  %-10s %10.3f %12.1f %10.1f %14.5f %14s\n", fit.series.c_str(),
                    fit.fit.plateau, fit.fit.knee, fit.fit.knee_se, fit.fit.slope,
                    fit.model_knee_jobs > 0 ? csv_number(fit.model_knee_jobs).c_str() : "");
    else // a flat curve, or a knee whose interval leaves the points: the sweep shows none
      std::snprintf(line, sizeof line, "  %-10s %10.3f %23s %14s %14s\n", fit.series.c_str(), fit.fit.plateau,
                    "no knee in the range", "",
                    fit.model_knee_jobs > 0 ? csv_number(fit.model_knee_jobs).c_str() : "");
    out << line;
    if (fit.network_limit_jobs > 0.0 && fit.network_limit_jobs <= fit.jobs_high) {
      // The analytic model's other limit: the tightest link full (Eq. 1-5 themselves stay flat past it).
      std::snprintf(line, sizeof line, "  %-10s %23s %.0f jobs (analytic: the tightest link is full)\n",
                    "network", "limit", fit.network_limit_jobs);
      out << line;
    }
  }
}

void print_sweep_rows(const std::vector<VaryAxis>& axes, const std::vector<SweepRow>& rows) {
  // An autoscaled pool's points show its device-hours and peak pods where a fixed pool's show the models
  // (which assume the pods are there all the time).
  bool autoscaled = false;
  for (const auto& row : rows)
    autoscaled = autoscaled || row.autoscaled;
  std::printf("\n%6s", "point");
  for (const auto& axis : axes) {
    // The key's last part names it for a reader (threshold, jobs); sweep.csv keeps the whole path.
    const auto dot = axis.key.rfind('.');
    std::printf(" %16.16s", (dot == std::string::npos ? axis.key : axis.key.substr(dot + 1)).c_str());
  }
  std::printf(" %10s %10s %10s %10s %8s  %s\n", "module s", autoscaled ? "device-h" : "analytic",
              autoscaled ? "peak pods" : "MVA", "event s", "GPU %", "bottleneck");
  for (const auto& row : rows) {
    std::printf("%6zu", row.point.index);
    for (const auto& value : row.point.values)
      std::printf(" %16.16s", value.c_str());
    const auto figure = [&row](const char* name) { return shown(row.mean(name)); };
    const std::string second = row.autoscaled ? figure("device_hours")
                               : row.analytic ? significant(row.analytic->sonic_module_s)
                                              : std::string("-");
    const std::string third = row.autoscaled ? figure("peak_pods")
                              : row.analytic ? significant(row.analytic->mva_module_s)
                                             : std::string("-");
    std::printf(
        " %10s %10s %10s %10s %8s  %s\n", figure("module_mean_s").c_str(), second.c_str(), third.c_str(),
        figure("event_mean_s").c_str(), percent(row.mean("gpu_utilisation")).c_str(),
        (row.too_short > 0 ? "UNDECIDED (too short for output.precision); " + row.bottleneck : row.bottleneck)
            .c_str());
  }
}

} // namespace sonicsim
