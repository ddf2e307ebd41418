#include "sim/metrics/summary_json.hpp"

#include "sim/metrics/operations_json.hpp"

#include "sim/metrics/cost_bill_output.hpp"
#include "sim/metrics/figure_table.hpp"
#include "sim/scenario/provenance.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace sonicsim {
namespace {

using json = nlohmann::ordered_json;

json statistics_to_json(const TimeStatistics& stats) {
  return json{{"count", stats.count}, {"mean_s", stats.mean_s}, {"p50_s", stats.p50_s},
              {"p95_s", stats.p95_s}, {"p99_s", stats.p99_s},   {"min_s", stats.min_s},
              {"max_s", stats.max_s}};
}

TimeStatistics statistics_from_json(const json& in) {
  TimeStatistics stats;
  stats.count = in.at("count").get<std::uint64_t>();
  stats.mean_s = in.at("mean_s").get<double>();
  stats.p50_s = in.at("p50_s").get<double>();
  stats.p95_s = in.at("p95_s").get<double>();
  stats.p99_s = in.at("p99_s").get<double>();
  stats.min_s = in.at("min_s").get<double>();
  stats.max_s = in.at("max_s").get<double>();
  return stats;
}

} // namespace

namespace {

json bottleneck_to_json(const Bottleneck& bottleneck) {
  json out{{"resource", bottleneck.sentence()},
           {"utilisation", bottleneck.utilisation},
           {"busiest", bottleneck.busiest},
           {"kind", resource_kind_name(bottleneck.kind)}};
  if (bottleneck.group) out["group"] = *bottleneck.group;
  return out;
}

Bottleneck bottleneck_from_json(const json& in) {
  Bottleneck bottleneck;
  bottleneck.utilisation = in.at("utilisation").get<double>();
  // Written before "busiest" was: the resource is in the sentence.
  std::string busiest = in.at("resource").get<std::string>();
  const std::string below = "none (jobs' own CPUs; busiest shared resource: ";
  if (busiest.rfind(below, 0) == 0 && busiest.size() > below.size())
    busiest = busiest.substr(below.size(), busiest.size() - below.size() - 1);
  bottleneck.busiest = in.value("busiest", busiest);
  // Written before "kind" was: a device pool (the resource most runs name).
  bottleneck.kind = resource_kind_named(in.value("kind", "")).value_or(ResourceKind::device_pool);
  if (in.contains("group")) bottleneck.group = in.at("group").get<int>();
  return bottleneck;
}

// A group's busiest resource. Written before "limit_kind" was: the kind by the name the recorder gives each
// (server_layout.hpp: "GPU pool" or "devices of G", "host cores[ of G]", "pod NICs[ of G]").
Bottleneck group_limit_from_json(const json& usage, int group) {
  Bottleneck limit{ResourceKind::device_pool, group, usage.at("limit").get<std::string>(),
                   usage.at("limit_utilisation").get<double>()};
  if (usage.contains("limit_kind")) {
    const auto kind = resource_kind_named(usage.at("limit_kind").get<std::string>());
    if (!kind) throw std::invalid_argument("limit_kind: not a resource kind");
    limit.kind = *kind;
  } else if (limit.busiest.rfind("host cores", 0) == 0) {
    limit.kind = ResourceKind::host_cores;
  } else if (limit.busiest.rfind("pod NICs", 0) == 0) {
    limit.kind = ResourceKind::pod_nics;
  }
  return limit;
}

} // namespace

json precision_to_json(const RunPrecision& precision) {
  json figures = json::object();
  for (const auto& figure : precision.intervals.figures)
    figures[figure.figure] = {{"mean", figure.mean},
                              {"half_width", figure.half_width},
                              {"relative", figure.relative},
                              {"lag1", figure.lag1}};
  json out = {{"applies", precision.applies},
              {"target_relative", precision.target_relative},
              {"met", precision.met},
              {"method", "batch means over the steady-state window, 95 % Student t"},
              {"batches", precision.intervals.batches},
              {"batch_s", precision.intervals.batch_s},
              {"figures", figures},
              {"problem", precision.intervals.problem},
              {"events_per_job", precision.events_per_job},
              {"events_per_job_written", precision.events_per_job_written},
              {"extensions", precision.extensions}};
  // Written only when a run stopped beyond a bound (output.stop_beyond), so other summaries keep their bytes.
  if (!precision.stopped_beyond.empty()) out["stopped_beyond"] = precision.stopped_beyond;
  // Likewise only when the scenario names the figures held (output.precision_figures).
  if (!precision.held.empty()) out["held"] = precision.held;
  return out;
}

RunPrecision precision_from_json(const json& in) {
  RunPrecision precision;
  precision.applies = in.at("applies").get<bool>();
  precision.target_relative = in.at("target_relative").get<double>();
  precision.met = in.at("met").get<bool>();
  precision.intervals.batches = in.at("batches").get<int>();
  precision.intervals.batch_s = in.at("batch_s").get<double>();
  for (const auto& [name, figure] : in.at("figures").items())
    precision.intervals.figures.push_back(
        {name, figure.at("mean").get<double>(), figure.at("half_width").get<double>(),
         figure.at("relative").get<double>(), figure.at("lag1").get<double>()});
  precision.intervals.problem = in.at("problem").get<std::string>();
  precision.events_per_job = in.at("events_per_job").get<int>();
  precision.events_per_job_written = in.at("events_per_job_written").get<int>();
  precision.extensions = in.at("extensions").get<int>();
  if (in.contains("stopped_beyond")) precision.stopped_beyond = in.at("stopped_beyond").get<std::string>();
  if (in.contains("held")) precision.held = in.at("held").get<std::vector<std::string>>();
  return precision;
}

namespace {

// Each server group's use of its resources, and its own saturation point.
json group_usage_json(const std::vector<ServerGroupUsage>& group_usage) {
  json groups = json::array();
  for (const auto& usage : group_usage)
    groups.push_back({{"name", usage.name},
                      {"device_type", usage.device_type},
                      {"pods", usage.pods},
                      {"devices", usage.devices},
                      {"host_cores", usage.host_cores},
                      // Triton's nv_gpu_utilization, averaged over the group's devices and the window.
                      {"device_utilisation", usage.device_utilisation},
                      {"host_utilisation", usage.host_utilisation},
                      {"nic_in_utilisation", usage.nic_in_utilisation},
                      {"limit", usage.limit.busiest},
                      {"limit_kind", resource_kind_name(usage.limit.kind)},
                      {"limit_utilisation", usage.limit.utilisation},
                      // Per device, pod by pod, over the whole run (not only the window).
                      {"device_batches", usage.device_batches},
                      {"device_busy_s", usage.device_busy_s},
                      // Its own saturation point (run_summary.hpp, ServerGroupUsage::past_saturation).
                      {"requests", usage.requests},
                      {"mean_queue_wait_s", usage.mean_queue_wait_s},
                      {"mean_batch_s", usage.mean_batch_s},
                      {"past_saturation", usage.past_saturation()}});
  return groups;
}

// Each served model's and server group's usage (summary.json results.server.models and .groups).
void server_usage_from_json(const json& server, RunSummary& summary) {
  for (const auto& usage : server.at("models"))
    summary.model_usage.push_back(
        {usage.at("model").get<std::string>(), usage.at("batches").get<std::uint64_t>(),
         usage.at("inferences").get<double>(), usage.at("busy_device_s").get<double>(),
         usage.at("share_of_devices").get<double>(), usage.value("instances", 0),
         usage.value("instance_occupancy", 0.0)});
  for (const auto& usage : server.at("groups")) {
    const int g = static_cast<int>(summary.group_usage.size());
    summary.group_usage.push_back(
        {usage.at("name").get<std::string>(), usage.at("device_type").get<std::string>(),
         usage.at("pods").get<int>(), usage.at("devices").get<int>(), usage.at("host_cores").get<int>(),
         usage.at("device_utilisation").get<double>(), usage.at("host_utilisation").get<double>(),
         usage.at("nic_in_utilisation").get<double>(), group_limit_from_json(usage, g),
         usage.at("device_batches").get<std::vector<std::uint64_t>>(),
         usage.at("device_busy_s").get<std::vector<double>>(), usage.value("requests", 0.0),
         usage.value("mean_queue_wait_s", 0.0), usage.value("mean_batch_s", 0.0)});
  }
}

} // namespace

namespace {

json window_json(const RunSummary& summary) {
  return {{"start_s", summary.window_start_s},
          {"end_s", summary.window_end_s},
          {"steady_state", summary.steady_state_window},
          {"simulated_end_s", summary.simulated_end_s},
          {"stopped_at_end", summary.stopped_at_window_end}};
}

} // namespace

json run_summary_to_json(const RunSummary& summary) {
  json models = json::array();
  for (const auto& usage : summary.model_usage)
    models.push_back({{"model", usage.model},
                      {"batches", usage.batches},
                      {"inferences", usage.inferences},
                      {"busy_device_s", usage.busy_device_s},
                      {"share_of_devices", usage.share_of_devices},
                      {"instances", usage.instances},
                      {"instance_occupancy", usage.instance_occupancy}});
  const json groups = group_usage_json(summary.group_usage);
  json out;
  json modules = json::object();
  for (const auto& [name, stats] : summary.modules)
    modules[name] = statistics_to_json(stats);
  json links = json::array();
  for (const auto& link : summary.links) {
    links.push_back({{"name", link.name},
                     {"capacity_bps", link.capacity_bps},
                     {"bytes", link.bytes},
                     {"utilisation", link.utilisation},
                     {"kind", resource_kind_name(link.kind)}});
    if (link.group) links.back()["group"] = *link.group;
  }
  out = json{{"window", window_json(summary)},
             {"modules", modules},
             {"event", statistics_to_json(summary.event)},
             {"events",
              {{"completed", summary.events_completed},
               {"failed", summary.events_failed},
               {"warmup", summary.events_warmup},
               {"per_s", summary.events_per_s},
               {"per_s_per_job", summary.events_per_s_per_job}}},
             {"requests",
              {{"sent", summary.requests_sent},
               {"rejected", summary.requests_rejected},
               {"rejected_queue_full", summary.requests_rejected_queue_full},
               {"rejected_timeout", summary.requests_rejected_timeout},
               {"rejected_too_large", summary.requests_rejected_too_large},
               {"retries", summary.retries},
               {"mean_size", summary.mean_request_size},
               {"mean_queue_wait_s", summary.mean_queue_wait_s}}},
             {"server",
              {{"gpus", summary.gpus},
               {"inferences_per_s", summary.inferences_per_s},
               {"gpu_utilisation", summary.gpu_utilisation},
               {"batches_executed", summary.batches_executed},
               {"mean_executed_batch", summary.mean_executed_batch},
               {"models", models},
               {"groups", groups}}},
             {"network",
              {{"bytes_to_servers", summary.bytes_to_servers},
               {"bytes_from_servers", summary.bytes_from_servers},
               {"flows",
                {{"fast", summary.engine.flows_fast},
                 {"simgrid", summary.engine.flows_simgrid},
                 {"handed", summary.engine.flows_handed},
                 {"shared", summary.engine.flows_shared},
                 {"unshared", summary.engine.flows_unshared},
                 {"classes", summary.engine.flow_classes},
                 {"class_comms", summary.engine.flow_class_comms}}},
               {"calendar_events",
                {{"all", summary.engine.calendar_events},
                 {"without_simgrid", summary.engine.calendar_events_without_simgrid}}},
               {"links_left_out", summary.engine.links_left_out},
               {"links", links}}},
             {"bottleneck", bottleneck_to_json(summary.bottleneck)}};
  if (summary.campaign) out["campaign"] = campaign_summary_to_json(*summary.campaign);
  if (const auto& direct = summary.direct_inference)
    out["direct_inference"] = {{"event_mean_s", direct->event_mean_s},
                               {"events_per_s_per_job", direct->events_per_s_per_job},
                               {"service_events_per_s_per_job", direct->service_events_per_s_per_job},
                               {"gain", direct->gain}};
  if (summary.operations) out["operations"] = operations_to_json(*summary.operations);
  out["precision"] = precision_to_json(summary.precision);
  out["warnings"] = summary.warnings;
  return out;
}

RunSummary run_summary_from_json(const json& in) {
  RunSummary summary;
  const auto& window = in.at("window");
  summary.window_start_s = window.at("start_s").get<double>();
  summary.window_end_s = window.at("end_s").get<double>();
  summary.steady_state_window = window.at("steady_state").get<bool>();
  summary.simulated_end_s = window.at("simulated_end_s").get<double>();
  summary.stopped_at_window_end = window.value("stopped_at_end", false);
  for (const auto& [name, stats] : in.at("modules").items())
    summary.modules.emplace_back(name, statistics_from_json(stats));
  summary.event = statistics_from_json(in.at("event"));
  const auto& events = in.at("events");
  summary.events_completed = events.at("completed").get<std::uint64_t>();
  summary.events_failed = events.at("failed").get<std::uint64_t>();
  summary.events_warmup = events.at("warmup").get<std::uint64_t>();
  summary.events_per_s = events.at("per_s").get<double>();
  summary.events_per_s_per_job = events.at("per_s_per_job").get<double>();
  const auto& requests = in.at("requests");
  summary.requests_sent = requests.at("sent").get<std::uint64_t>();
  summary.requests_rejected = requests.at("rejected").get<std::uint64_t>();
  summary.requests_rejected_queue_full = requests.at("rejected_queue_full").get<std::uint64_t>();
  summary.requests_rejected_timeout = requests.at("rejected_timeout").get<std::uint64_t>();
  summary.requests_rejected_too_large = requests.at("rejected_too_large").get<std::uint64_t>();
  summary.retries = requests.at("retries").get<std::uint64_t>();
  summary.mean_request_size = requests.at("mean_size").get<double>();
  summary.mean_queue_wait_s = requests.at("mean_queue_wait_s").get<double>();
  const auto& server = in.at("server");
  summary.gpus = server.at("gpus").get<int>();
  summary.inferences_per_s = server.at("inferences_per_s").get<double>();
  summary.gpu_utilisation = server.at("gpu_utilisation").get<double>();
  summary.batches_executed = server.at("batches_executed").get<std::uint64_t>();
  summary.mean_executed_batch = server.at("mean_executed_batch").get<double>();
  server_usage_from_json(server, summary);
  const auto& network = in.at("network");
  summary.bytes_to_servers = network.at("bytes_to_servers").get<double>();
  summary.bytes_from_servers = network.at("bytes_from_servers").get<double>();
  const auto& flows = network.at("flows");
  summary.engine.flows_fast = flows.at("fast").get<std::uint64_t>();
  summary.engine.flows_simgrid = flows.at("simgrid").get<std::uint64_t>();
  summary.engine.flows_handed = flows.at("handed").get<std::uint64_t>();
  summary.engine.flows_shared = flows.value("shared", std::uint64_t{0}); // written since 2026-12-06
  summary.engine.flows_unshared = flows.value("unshared", std::uint64_t{0});
  summary.engine.flow_classes = flows.at("classes").get<std::uint64_t>();
  summary.engine.flow_class_comms = flows.at("class_comms").get<std::uint64_t>();
  if (network.contains("calendar_events")) { // written since 2026-11-29
    summary.engine.calendar_events = network.at("calendar_events").at("all").get<std::uint64_t>();
    summary.engine.calendar_events_without_simgrid =
        network.at("calendar_events").at("without_simgrid").get<std::uint64_t>();
  }
  summary.engine.links_left_out = network.at("links_left_out").get<std::string>();
  for (const auto& link : network.at("links"))
    summary.links.push_back(
        {link.at("name").get<std::string>(), link.at("capacity_bps").get<double>(),
         link.at("bytes").get<double>(), link.at("utilisation").get<double>(),
         resource_kind_named(link.value("kind", "")).value_or(ResourceKind::site_switch),
         link.contains("group") ? std::optional<int>(link.at("group").get<int>()) : std::nullopt});
  summary.bottleneck = bottleneck_from_json(in.at("bottleneck"));
  if (in.contains("campaign")) summary.campaign = campaign_summary_from_json(in.at("campaign"));
  if (in.contains("direct_inference")) {
    const auto& direct = in.at("direct_inference");
    summary.direct_inference = DirectInferenceComparison{
        direct.at("event_mean_s").get<double>(), direct.at("events_per_s_per_job").get<double>(),
        direct.at("service_events_per_s_per_job").get<double>(), direct.at("gain").get<double>()};
  }
  if (in.contains("operations")) summary.operations = operations_from_json(in.at("operations"));
  // Files from before the precision rule have no such block: the rule is then off for them (target 0).
  if (in.contains("precision")) summary.precision = precision_from_json(in.at("precision"));
  if (in.contains("warnings")) summary.warnings = in.at("warnings").get<std::vector<std::string>>();
  return summary;
}

json figures_to_json(const Scenario& scenario, const RunSummary& summary) {
  const FigureContext context = served_figure_context(scenario);
  json figures = json::object();
  for (const auto& spec : figure_table())
    if (const auto value = value_of(spec.figure, summary, context)) {
      if (std::string(spec.unit) == "count")
        figures[spec.name] = static_cast<std::uint64_t>(*value);
      else
        figures[spec.name] = *value;
    }
  return figures;
}

json summary_to_json(const Scenario& scenario, const RunSummary& summary) {
  json out{{"sonicsim_version", "0.1.0"},
           {"scenario", scenario_to_json(scenario)},
           {"figures", figures_to_json(scenario, summary)},
           {"results", run_summary_to_json(summary)}};
  // With the scenario's prices: what the run's throughput costs, item by item.
  if (const auto bill = cost_bill(scenario, summary)) out["cost_bill"] = cost_bill_to_json(*bill);
  // The assumed values this run rests on (the scenario's provenance: entries it uses).
  out["assumptions"] = provenance_to_json(assumptions_in_use(scenario));
  return out;
}

} // namespace sonicsim
