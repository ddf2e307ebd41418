// `sonicsim analytic`: the analytic models of a scenario without simulating it. Prints the parameters derived
// from the scenario (and where each comes from), the SONIC model's knee and optimal CPU:GPU ratio, the
// network limit and the MVA curve next to the piecewise model; --json gives the same as one JSON document.
#include "sim/app/commands.hpp"
#include "sim/app/run/pod_needs_output.hpp"
#include "sim/metrics/json_fields.hpp"
#include "sim/metrics/scenario_json.hpp"
#include "sim/scenario/provenance.hpp"

#include "sim/metrics/number_text.hpp"

#include "sim/analysis/analytic_curve.hpp"
#include "sim/app/common/output_options.hpp"
#include "sim/app/common/scenario_source.hpp"
#include "sim/sweep/sweep_grid.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

namespace sonicsim {
namespace {

struct AnalyticArguments {
  ScenarioSource source;
  std::string jobs; // empty: 1 to twice the knee, ~25 points
  bool quiet = false, json = false;
};

// About 25 points from 1 to twice the knee.
std::vector<int> default_job_counts(double knee_jobs) {
  const int last = std::max(2, static_cast<int>(std::ceil(2.0 * knee_jobs)));
  const int step = std::max(1, static_cast<int>(std::lround(last / 25.0)));
  std::vector<int> jobs;
  for (int n = 1; n <= last; n += step)
    jobs.push_back(n);
  if (jobs.back() != last) jobs.push_back(last);
  return jobs;
}

// Per model and device pool: the jobs per device at which the model alone would fill its devices.
struct ModelKnee {
  std::string station, model;
  double jobs_per_device = 0.0;
};

// What `analytic` answers, computed once and then printed as text or JSON.
struct AnalyticAnswer {
  Scenario scenario;
  analysis::ScenarioParameters parameters;
  models::SonicLatencyModel model;
  models::ClosedNetwork network;
  models::AsymptoticBounds bounds;
  double knee_jobs = 0.0, network_limit_jobs = 0.0, saturation_jobs = 0.0;
  std::vector<ModelKnee> model_knees;
  std::vector<analysis::AnalyticPoint> curve;
  std::string mva_note;
  std::optional<analysis::PodNeeds> pod_needs_answer; // a group with an autoscaler: per pod count
};

AnalyticAnswer compute_analytic(const AnalyticArguments& arguments) {
  const Scenario scenario = arguments.source.load();
  const auto parameters = analysis::derive_parameters(scenario);
  // Every model on CPU instances (a fallback server on the client nodes): no device time, so Eq. 1-5 have no
  // knee (N_GPU t_ideal / t_GPU) and the tool says so, as it does for a scenario without inference.
  if (!(parameters.t_gpu_s > 0.0))
    throw InputError(
        "scenario '" + scenario.name +
        "': no request reaches a device (every model runs on CPU instances), so t_GPU is 0 and the "
        "SONIC model of arXiv:2009.04509 has no knee; simulate it (sonicsim run, sweep) instead");
  const auto model = parameters.latency_model();
  model.validate();
  const auto network = parameters.closed_network();
  // The models count customers; a job of T threads is T of them.
  const double threads = parameters.threads;
  const double knee_jobs = model.knee_jobs() / threads;
  const double network_limit_jobs = parameters.network_limited_jobs(model.t_ideal_s()) / threads;
  const auto bounds = models::asymptotic_bounds(network, 1.0);
  const double saturation_jobs = bounds.saturation_jobs / threads;
  // Per model and device pool: the jobs per device at which the model alone would fill its devices, the
  // asymptotes' crossing (D + Z) / (its demand per device), as the CMS per-model tests ask "jobs per T4".
  const std::vector<int> jobs = arguments.jobs.empty()
                                    ? default_job_counts(std::max(knee_jobs, saturation_jobs))
                                    : parse_job_counts(arguments.jobs);
  const auto curve = analysis::analytic_curve(parameters, jobs);
  std::vector<ModelKnee> model_knees;
  const double cycle_s = network.total_demand_s() + network.think_time_s;
  for (const auto& station : parameters.server_stations) {
    if (station.kind != analysis::ScenarioParameters::ServerStation::Kind::devices) continue;
    for (const auto& [name, demand_s] : station.demand_by_model) {
      if (demand_s <= 0.0) continue;
      // Instances held longer than the device is busy fill first: per device, instances / devices of them.
      const double per_device = station.limited_by_instances
                                    ? cycle_s * station.servers / station.devices / station.demand_s
                                    : cycle_s / demand_s;
      model_knees.push_back({station.name, name, per_device / threads});
    }
  }
  const std::string mva_note = "MVA: jobs are a delay station of " + std::to_string(network.think_time_s) +
                               " s; the " + std::to_string(parameters.n_gpu) +
                               " GPUs are one pool with one queue and exponential service";

  return AnalyticAnswer{scenario,
                        parameters,
                        model,
                        network,
                        bounds,
                        knee_jobs,
                        network_limit_jobs,
                        saturation_jobs,
                        model_knees,
                        curve,
                        mva_note,
                        analysis::pod_needs(scenario, scenario.workload.jobs)};
}

nlohmann::ordered_json analytic_json(const AnalyticAnswer& answer) {
  const auto& [scenario, parameters, model, network, bounds, knee_jobs, network_limit_jobs, saturation_jobs,
               model_knees, curve, mva_note, pod_needs_answer] = answer;
  nlohmann::ordered_json out;
  out["scenario"] = scenario.name;
  out["source_file"] = scenario.source_file;
  auto& quantities = out["parameters"] = nlohmann::ordered_json::array();
  for (const auto& q : parameters.quantities)
    quantities.push_back(
        {{"symbol", q.symbol}, {"value", q.value}, {"unit", q.unit}, {"derivation", q.derivation}});
  out["model"] = {{"t_other_cpu_s", model.t_other_cpu_s()},
                  {"t_preprocess_s", model.t_preprocess_s},
                  {"t_gpu_s", model.t_gpu_s},
                  {"t_transmit_s", model.t_transmit_s},
                  {"t_travel_s", model.t_travel_s},
                  {"t_latency_s", model.t_latency_s()},
                  {"t_ideal_s", model.t_ideal_s()},
                  {"n_gpu", model.n_gpu},
                  {"knee_jobs", knee_jobs},
                  // Per CPU process (a job's thread: each has an event in flight), and per job.
                  {"optimal_cpu_per_gpu", model.optimal_cpu_per_gpu()},
                  {"threads_per_job", parameters.threads},
                  {"optimal_jobs_per_gpu", model.optimal_cpu_per_gpu() / parameters.threads},
                  // Beside Eq. 1-5 (notes: what the SONIC model lacks and the MVA has, or misreads at low
                  // load): server host work per event, and the device time dynamic batching saves.
                  {"t_host_s", parameters.t_host_s},
                  {"t_gpu_merging_saving_s", parameters.t_gpu_merging_saving_s},
                  {"t_model_switch_s", parameters.t_model_switch_s}};
  out["network_limit"] = {{"jobs", network_limit_jobs},
                          {"link", parameters.shared_outbound_link},
                          {"capacity_bps", parameters.shared_outbound_bps},
                          {"bits_per_event", parameters.input_bytes * 8.0},
                          {"event_time_s", model.t_ideal_s()}};
  // ordered_json keeps members in a vector: build each array before inserting it (a reference into `out`
  // does not survive the next insertion).
  auto stations = nlohmann::ordered_json::array();
  for (const auto& station : network.stations)
    stations.push_back(
        {{"name", station.name}, {"demand_s", station.demand_s}, {"servers", station.servers}});
  out["mva_network"]["think_time_s"] = network.think_time_s;
  out["mva_network"]["stations"] = stations;
  out["mva_network"]["bottleneck"] = bounds.bottleneck;
  out["mva_network"]["saturation_jobs"] = saturation_jobs;
  out["mva_network"]["threads_per_job"] = parameters.threads;
  auto knees = nlohmann::ordered_json::array();
  for (const auto& k : model_knees)
    knees.push_back({{"devices", k.station}, {"model", k.model}, {"jobs_per_device", k.jobs_per_device}});
  out["mva_network"]["jobs_per_device_by_model"] = knees;
  auto& points = out["curve"] = nlohmann::ordered_json::array();
  for (const auto& p : curve)
    points.push_back({{"jobs", p.jobs},
                      {"sonic_module_s", p.sonic_module_s},
                      {"sonic_event_s", p.sonic_event_s},
                      {"saturated", p.saturated},
                      {"mva_module_s", p.mva_module_s},
                      {"mva_event_s", p.mva_event_s},
                      {"mva_events_per_s", p.mva_events_per_s},
                      {"mva_gpu_utilisation", p.mva_gpu_utilisation}});
  auto& notes = out["notes"] = nlohmann::ordered_json::array();
  for (const auto& caveat : parameters.caveats)
    notes.push_back(caveat);
  notes.push_back(mva_note);
  if (pod_needs_answer) out["autoscaled_pods"] = pod_needs_to_json(*pod_needs_answer);
  out["assumptions"] = provenance_to_json(assumptions_in_use(scenario));
  return out;
}

void print_analytic(const AnalyticAnswer& answer) {
  const auto& [scenario, parameters, model, network, bounds, knee_jobs, network_limit_jobs, saturation_jobs,
               model_knees, curve, mva_note, pod_needs_answer] = answer;
  std::printf("sonicsim analytic: %s (%s)\n\nparameters derived from the scenario (per event):\n",
              scenario.name.c_str(), scenario.source_file.c_str());
  for (const auto& q : parameters.quantities) {
    // Rates in Gb/s for people (the JSON keeps bit/s).
    const bool rate = q.unit == "bit/s";
    std::printf("  %-32s %14.6g %-10s %s\n", q.symbol.c_str(), rate ? q.value / 1e9 : q.value,
                rate ? "Gb/s" : q.unit.c_str(), q.derivation.c_str());
  }
  std::printf("\nSONIC model (arXiv:2009.04509 Eq. 1-5, preprocessing counted once):\n");
  std::printf("  t_latency = t_preprocess + t_transmit + t_travel = %.4g s\n", model.t_latency_s());
  std::printf("  t_ideal   = t_other_cpu + t_GPU + t_latency       = %.4g s\n", model.t_ideal_s());
  std::printf("  knee      = N_GPU t_ideal / t_GPU                 = %.1f jobs\n", knee_jobs);
  // The model counts CPU processes with an event in flight: a job's threads. One number per job, too.
  if (parameters.threads > 1)
    std::printf(
        "  optimal ratio t_ideal / t_GPU                     = %.1f CPU threads per GPU = %.1f jobs of "
        "%d threads\n",
        model.optimal_cpu_per_gpu(), model.optimal_cpu_per_gpu() / parameters.threads, parameters.threads);
  else
    std::printf("  optimal ratio t_ideal / t_GPU                     = %.1f CPU jobs per GPU\n",
                model.optimal_cpu_per_gpu());
  if (network_limit_jobs > 0) {
    std::printf("\nnetwork limit: %.0f jobs fill the %s (%.4g Gb/s) at %.4g Gb/event and %.4g s/event\n",
                network_limit_jobs, parameters.shared_outbound_link.c_str(),
                parameters.shared_outbound_bps / 1e9, parameters.input_bytes * 8.0 / 1e9, model.t_ideal_s());
  } else {
    std::printf("\nnetwork limit: no capacity left on the %s\n", parameters.shared_outbound_link.c_str());
  }
  std::printf("\nclosed network for MVA: delay %.4g s", network.think_time_s);
  for (const auto& station : network.stations)
    std::printf("; %s %.4g s x%d", station.name.c_str(), station.demand_s, station.servers);
  std::printf("\n  bottleneck %s, asymptotes cross at %.1f jobs", bounds.bottleneck.c_str(), saturation_jobs);
  if (parameters.threads > 1)
    std::printf(" (%d threads each: %d customers per job)", parameters.threads, parameters.threads);
  std::printf("\n");
  if (!model_knees.empty()) {
    std::printf("  jobs per device before the model alone fills it ((D + Z) / its demand per device):\n");
    for (const auto& k : model_knees)
      std::printf("    %-24s on %-24s %10.1f jobs per device\n", k.model.c_str(), k.station.c_str(),
                  k.jobs_per_device);
  }
  std::printf("\n%8s %14s %14s %14s %14s %12s %10s\n", "jobs", "SONIC module s", "MVA module s",
              "SONIC event s", "MVA event s", "MVA events/s", "MVA GPU %");
  for (const auto& p : curve)
    std::printf("%8d %14s %14s %14s %14s %12.4g %10.1f%s\n", p.jobs, significant(p.sonic_module_s).c_str(),
                significant(p.mva_module_s).c_str(), significant(p.sonic_event_s).c_str(),
                significant(p.mva_event_s).c_str(), p.mva_events_per_s, 100.0 * p.mva_gpu_utilisation,
                p.saturated ? "  saturated" : "");
  if (pod_needs_answer) print_pod_needs(*pod_needs_answer);
  std::printf("\nnotes:\n  - %s\n", mva_note.c_str());
  for (const auto& caveat : parameters.caveats)
    std::printf("  - %s\n", caveat.c_str());
  const auto assumptions = assumptions_in_use(scenario);
  if (!assumptions.empty())
    std::printf("\nrests on assumed and calibrated values (the scenario's provenance:):\n%s",
                assumptions_text(assumptions, "  ").c_str());
}

int analytic(const AnalyticArguments& arguments) {
  const AnalyticAnswer answer = compute_analytic(arguments);
  // --json is the result and -q silences the rest, as on every command; -q alone: the scenario loaded and the
  // models answered, which is the result.
  if (arguments.json)
    std::cout << json_text(analytic_json(answer), 2) << "\n";
  else if (!arguments.quiet)
    print_analytic(answer);
  return exit_ok;
}

} // namespace

void register_analytic_command(CLI::App& app, int& result) {
  auto arguments = std::make_shared<AnalyticArguments>();
  auto* command = app.add_subcommand("analytic", "Analytic models of a scenario without simulating: derived "
                                                 "parameters, knee, CPU:GPU ratio, network limit, MVA curve");
  arguments->source.add_options(*command);
  command->add_option("--jobs", arguments->jobs,
                      "Job counts for the curve: start:stop:step or a,b,c "
                      "(default: 1 to twice the knee)");
  add_output_options(*command, arguments->quiet, &arguments->json);
  command->callback([arguments, &result]() { result = guarded(*arguments, analytic); });
}

} // namespace sonicsim
