#include "sim/app/run/summary_printer.hpp"

#include "sim/app/run/operations_printer.hpp"
#include "sim/metrics/cost_bill_output.hpp"
#include "sim/metrics/number_text.hpp"
#include "sim/scenario/provenance.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>

namespace sonicsim {
namespace {

// printf-style formatting of numbers into a std::string (patterns are literals of this file).
template <typename... Numbers> std::string format(const char* pattern, Numbers... numbers) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, pattern, static_cast<double>(numbers)...);
  return buffer;
}

} // namespace

void print_campaign_lines(std::ostream& out, const CampaignSummary& campaign) {
  out << format(
      "campaign            %.0f running jobs, %.1f Gb/s outbound (full scale; simulated at scale %g)\n",
      campaign.mean_running_jobs, campaign.mean_outbound_gbps, campaign.scale);
  if (campaign.fit_valid && campaign.fit_determined) {
    out << format(
        "traffic vs jobs     %.4f +- %.4f Gb/s per job + %.1f +- %.1f Gb/s background (R^2 %.3f, "
        "%.0f-%.0f jobs; +- one standard error, widened for lag-1 correlation %.2f of the minutes)\n",
        campaign.slope_gbps_per_job, campaign.slope_se_gbps_per_job, campaign.intercept_gbps,
        campaign.intercept_se_gbps, campaign.fit_r_squared, campaign.fit_jobs_min, campaign.fit_jobs_max,
        campaign.fit_residual_lag1);
  } else if (campaign.fit_valid) {
    // A line through a narrow cloud of points has a slope set by the noise: say so rather than print it.
    out << format("traffic vs jobs     no line: below saturation the running jobs only spanned %.0f-%.0f; "
                  "there, %.1f Gb/s at %.0f jobs\n",
                  campaign.fit_jobs_min, campaign.fit_jobs_max, campaign.fit_mean_gbps,
                  campaign.fit_mean_jobs);
  }
  out << "event-time peaks   ";
  for (const auto& peak : campaign.event_time_peaks)
    out << format(" %.1f s", peak.position_s);
  out << (campaign.event_time_peaks.size() > 1 ? "  (more than one: the network saturated part of the time)"
                                               : "")
      << "\n";
}

// Each server group's devices, host cores and NICs, then each model's share of the devices and its instances.
void print_server_lines(std::ostream& out, const RunSummary& summary) {
  // Each server group's devices (Triton's nv_gpu_utilization), host cores and NICs, and the busiest of them.
  for (const auto& group : summary.group_usage) {
    out << "server group        " << group.name << ": " << group.devices << " x " << group.device_type
        << " in " << group.pods << " pod(s): devices " << format("%.1f", 100.0 * group.device_utilisation)
        << " %, host " << format("%.1f", 100.0 * group.host_utilisation) << " % of "
        << group.pods * group.host_cores << " cores, NIC in "
        << format("%.1f", 100.0 * group.nic_in_utilisation) << " %"
        << (group.limit.saturated() ? "  -> saturated: " + group.limit.busiest : "") << "\n";
    // Its own saturation point: how long a request waits in its queue, in its batches' time.
    if (group.mean_batch_s > 0.0)
      out << "                    " << group.name << " queue: "
          << format("%.3g ms per request, %.2g of its batches' time (%.3g ms each)",
                    1e3 * group.mean_queue_wait_s, group.mean_queue_wait_s / group.mean_batch_s,
                    1e3 * group.mean_batch_s)
          << (group.past_saturation()
                  ? ": past its saturation point (the figures rest on its queue, which grows with the load)"
                  : ": below its saturation point")
          << "\n";
  }
  // Every model: its share of the devices' time, and how occupied its Triton instances were (more than that
  // share when host work or a shared device keeps an instance from the next batch).
  for (const auto& model : summary.model_usage)
    out << "model               " << model.model << ": "
        << format("%.0f batches, %.4g inferences, %.1f %% of its devices' time; %.0f instance(s) %.1f %% "
                  "occupied\n",
                  static_cast<double>(model.batches), model.inferences, 100.0 * model.share_of_devices,
                  model.instances, 100.0 * model.instance_occupancy);
}

// The 95 % batch-means half-width of each headline figure, and whether the precision rule is met.
void print_precision(std::ostream& out, const RunPrecision& precision) {
  if (!precision.applies) return;
  out << "precision (95 %)   ";
  if (precision.intervals.batches > 0) {
    for (const auto& figure : precision.intervals.figures)
      out << ' ' << figure.figure << " +-" << percent_text(figure.relative);
    out << "  (batch means, " << precision.intervals.batches << " batches of "
        << significant(precision.intervals.batch_s, 3) << " s)";
  }
  if (precision.target_relative <= 0)
    out << (precision.intervals.batches > 0 ? "; " : " ") << "rule off (output.precision: off)";
  else if (precision.met)
    out << ": within " << percent_text(precision.target_relative);
  else
    out << (precision.intervals.batches > 0 ? "\n                   " : " ")
        << "NOT within the precision asked: " << precision.shortfall();
  if (precision.target_relative > 0 && !precision.held.empty()) {
    // The rule held only these (output.precision_figures); the others are printed, not asked for.
    std::string held;
    for (const BatchMeansFigure* figure : precision.ruled())
      held += (held.empty() ? "" : ", ") + figure->figure;
    out << " (held on " << held << ": output.precision_figures)";
  }
  out << "\n";
}

// A pool's devices come and go: its utilisation is of the devices held, not of the most it may hold.
static void print_gpu_line(std::ostream& out, const RunSummary& summary) {
  if (summary.operations && !summary.operations->pools.empty())
    out << format("GPU utilisation     %.1f %% of the GPUs held (pools change in time; %.0f at most)\n",
                  100.0 * summary.gpu_utilisation, summary.gpus);
  else
    out << format("GPU utilisation     %.1f %% of %.0f GPUs\n", 100.0 * summary.gpu_utilisation,
                  summary.gpus);
}

// How the engine timed the flows (--verbose; summary.json always has them): the user asked about the
// scenario, not about the simulator.
void print_engine_lines(std::ostream& out, const RunSummary& summary) {
  const double flows = static_cast<double>(summary.engine.flows());
  const double moved = static_cast<double>(summary.engine.flows_handed + summary.engine.flows_unshared);
  if (flows > 0)
    out << format(
        "flows               %.0f: %.1f %% timed without SimGrid's solver throughout (%.0f shared on "
        "one full link), %.0f handed to it\n",
        flows, 100.0 * static_cast<double>(summary.engine.flows_without_solver()) / flows,
        static_cast<double>(summary.engine.flows_shared), moved);
  if (summary.engine.flow_classes > 0)
    out << format(
        "                    the flows in SimGrid took %.0f comms in %.0f classes of identical flows\n",
        static_cast<double>(summary.engine.flow_class_comms),
        static_cast<double>(summary.engine.flow_classes));
  if (!summary.engine.links_left_out.empty())
    out << "                    " << summary.engine.links_left_out << "\n";
  if (summary.engine.calendar_events > 0)
    out << format("events              %.0f: %.1f %% run without stepping SimGrid's engine (before its next "
                  "flow end)\n",
                  static_cast<double>(summary.engine.calendar_events),
                  100.0 * static_cast<double>(summary.engine.calendar_events_without_simgrid) /
                      static_cast<double>(summary.engine.calendar_events));
}

// Each module's and the event's time, mean, p50 and p95: four significant digits per value, a 110 s CPU step
// and a few-millisecond inference in one table.
static void print_time_table(std::ostream& out, const RunSummary& summary) {
  out << "time per event (s)          mean        p50        p95\n";
  const auto time_row = [&out](const std::string& name, const TimeStatistics& stats) {
    char line[160];
    std::snprintf(line, sizeof line, "  %-22s %10s %10s %10s\n", name.c_str(),
                  significant(stats.mean_s).c_str(), significant(stats.p50_s).c_str(),
                  significant(stats.p95_s).c_str());
    out << line;
  };
  for (const auto& [name, stats] : summary.modules)
    time_row(name, stats);
  time_row("event", summary.event);
}

void print_run_summary(std::ostream& out, const Scenario& scenario, const RunSummary& summary, bool verbose) {
  const auto& workload = scenario.workload;
  const RunPrecision& precision = summary.precision;
  out << "scenario " << scenario.name << ": " << workload.jobs << " jobs x " << workload.events_per_job
      << " events (" << workload.warmup_events << " warm-up)";
  if (precision.extensions > 0)
    out << ", extended to " << precision.events_per_job << " events per job by the precision rule";
  out << ", seed " << scenario.seed << "\n";
  out << format("steady-state window %.0f s .. %.0f s", summary.window_start_s, summary.window_end_s)
      << (summary.steady_state_window ? ""
                                      : "  (WARNING: no steady state; whole run used — add events_per_job)")
      << (summary.stopped_at_window_end ? "; the run stopped there (output.stop_at_window_end)" : "") << "\n";
  print_precision(out, precision);
  const auto assumptions = assumptions_in_use(scenario);
  if (!assumptions.empty())
    out << "rests on assumed and calibrated values (the scenario's provenance:):\n"
        << assumptions_text(assumptions, "  ");
  out << "\n";
  print_time_table(out, summary);
  out << "\n";
  if (summary.campaign && summary.campaign->scale != 1.0)
    out << format("scale               the site simulated at %g of its size: counts and rates below are of "
                  "that fraction unless marked full scale; utilisations are the same at both\n",
                  summary.campaign->scale);
  out << format("events/s            %.4g   (%.0f completed, %.0f failed)\n", summary.events_per_s,
                static_cast<double>(summary.events_completed), static_cast<double>(summary.events_failed));
  if (workload.threads > 1)
    out << format("events/s per job    %.4g   (%.0f threads per job)\n", summary.events_per_s_per_job,
                  static_cast<double>(workload.threads));
  if (const auto& direct = summary.direct_inference)
    out << format("gain over direct    %+.1f %% events/s per job (direct inference: %.4g events/s per job, "
                  "%.4g s per event)\n",
                  100.0 * direct->gain, direct->events_per_s_per_job, direct->event_mean_s);
  out << format("inferences/s        %.4g\n", summary.inferences_per_s);
  print_gpu_line(out, summary);
  print_server_lines(out, summary);
  out << format("mean batch          %.0f executed, %.0f per request, queue wait ",
                summary.mean_executed_batch, summary.mean_request_size)
      << significant(summary.mean_queue_wait_s) << " s\n";
  if (summary.requests_rejected > 0) {
    out << format("rejected requests   %.0f (queue full %.0f, timeout %.0f, too large %.0f)\n",
                  static_cast<double>(summary.requests_rejected),
                  static_cast<double>(summary.requests_rejected_queue_full),
                  static_cast<double>(summary.requests_rejected_timeout),
                  static_cast<double>(summary.requests_rejected_too_large));
  }
  const LinkUsage* busiest = nullptr;
  for (const auto& link : summary.links)
    if (!busiest || link.utilisation > busiest->utilisation) busiest = &link;
  // A campaign is simulated on a fraction of the site: capacities are shown at full scale, like its traffic.
  const double scale = summary.campaign ? summary.campaign->scale : 1.0;
  if (busiest) {
    out << "busiest link        " << busiest->name
        << format(" at %.1f %% of %.3g Gb/s", 100.0 * busiest->utilisation,
                  busiest->capacity_bps / scale / 1e9)
        << (scale != 1.0 ? " (full scale)" : "") << "\n";
  }
  if (summary.campaign) print_campaign_lines(out, *summary.campaign);
  if (summary.operations) print_operations_lines(out, *summary.operations);
  if (verbose) print_engine_lines(out, summary);
  out << "bottleneck          " << summary.bottleneck.sentence()
      << format(" (%.1f %% utilised)", 100.0 * summary.bottleneck.utilisation) << "\n";
  // A campaign's mean over the window can hide a switch that was full part of the time (the event-time
  // peaks show it): the bottleneck line says so.
  if (const auto& campaign = summary.campaign; campaign && campaign->saturated_intervals > 0) {
    const double intervals = static_cast<double>(campaign->fit_intervals + campaign->saturated_intervals +
                                                 campaign->transient_intervals);
    out << format("                    the site switch (outbound) was saturated in %.0f of %.0f intervals "
                  "(%.0f %% of the time)\n",
                  static_cast<double>(campaign->saturated_intervals), intervals,
                  100.0 * static_cast<double>(campaign->saturated_intervals) / std::max(intervals, 1.0));
  }
  if (const auto bill = cost_bill(scenario, summary)) {
    out << "cost bill (the scenario's costs:)\n";
    print_cost_bill(out, *bill, "                    ");
  }
  for (const auto& warning : summary.warnings)
    out << "WARNING: " << warning << "\n";
}

namespace {

// "mean +- half-width" with four significant digits each, or the mean alone when nothing varies.
std::string with_interval(const ReplicatedFigure& figure, double scale = 1.0) {
  const auto& ci = figure.interval;
  std::string text = significant(scale * ci.mean);
  if (ci.half_width > 0.0) text += " +- " + significant(scale * ci.half_width);
  return text;
}

} // namespace

void print_replicated_summary(std::ostream& out, const Scenario& scenario, const ReplicatedRun& run) {
  const auto& workload = scenario.workload;
  out << "scenario " << scenario.name << ": " << workload.jobs << " jobs x " << workload.events_per_job
      << " events (" << workload.warmup_events << " warm-up), " << run.seeds.size()
      << " replications (seeds derived from " << scenario.seed << ")\n";
  out << "each figure: mean +- half-width of its 95 % confidence interval (Student t, "
      << run.seeds.size() - 1 << " degrees of freedom)\n\n";
  const auto find = [&run](const std::string& name) -> const ReplicatedFigure* {
    for (const auto& f : run.figures)
      if (f.name == name) return &f;
    return nullptr;
  };
  out << "time per event (s)                mean                  p95\n";
  const auto time_row = [&](const std::string& label, const std::string& mean_name,
                            const std::string& p95_name) {
    const auto* mean = find(mean_name);
    const auto* p95 = find(p95_name);
    if (!mean || !p95) return;
    char line[200];
    std::snprintf(line, sizeof line, "  %-22s %20s %20s\n", label.c_str(), with_interval(*mean).c_str(),
                  with_interval(*p95).c_str());
    out << line;
  };
  for (const auto& f : run.figures) {
    const std::string prefix = "module_mean_s:";
    if (f.name.rfind(prefix, 0) == 0) {
      const std::string module = f.name.substr(prefix.size());
      time_row(module, f.name, "module_p95_s:" + module);
    }
  }
  time_row("event", "event_mean_s", "event_p95_s");
  out << "\n";
  const auto line = [&](const char* label, const std::string& name, double scale, const char* unit) {
    if (const auto* f = find(name)) {
      char text[200];
      std::snprintf(text, sizeof text, "%-19s %s%s\n", label, with_interval(*f, scale).c_str(), unit);
      out << text;
    }
  };
  line("events/s", "events_per_s", 1.0, "");
  if (workload.threads > 1) line("events/s per job", "events_per_s_per_job", 1.0, "");
  line("direct-inference gain", "direct_inference_gain", 100.0, " %");
  line("inferences/s", "inferences_per_s", 1.0, "");
  line("GPU utilisation", "gpu_utilisation", 100.0, " %");
  for (const auto& group : scenario.platform.server_groups)
    line(("group " + group.name).c_str(), "groups." + group.name + ".device_utilisation", 100.0,
         " % devices");
  line("mean batch", "mean_executed_batch", 1.0, " executed");
  line("queue wait", "mean_queue_wait_s", 1.0, " s");
  line("failed events", "events_failed", 1.0, "");
  line("campaign outbound", "campaign.mean_outbound_gbps", 1.0, " Gb/s (full scale)");
  line("traffic per job", "campaign.slope_gbps_per_job", 1.0, " Gb/s");
  out << "bottleneck         ";
  for (const auto& [name, count] : run.bottlenecks)
    out << " " << name << " (" << count << " of " << run.seeds.size() << ")";
  out << "\n";
  line("  utilisation", "bottleneck_utilisation", 100.0, " %");
}

} // namespace sonicsim
