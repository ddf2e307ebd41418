#include "sim/metrics/summary_json.hpp"

#include <cmath>

namespace sonicsim {
namespace {

using json = nlohmann::ordered_json;

const char* distribution_name(DistributionSpec::Kind kind) {
  switch (kind) {
  case DistributionSpec::Kind::constant:
    return "constant";
  case DistributionSpec::Kind::normal:
    return "normal";
  case DistributionSpec::Kind::lognormal:
    return "lognormal";
  case DistributionSpec::Kind::exponential:
    return "exponential";
  case DistributionSpec::Kind::uniform:
    return "uniform";
  }
  return "?";
}

json distribution_to_json(const DistributionSpec& spec) {
  json out{{"dist", distribution_name(spec.kind)}};
  if (spec.kind == DistributionSpec::Kind::uniform) {
    out["min"] = spec.min;
    out["max"] = spec.max;
  } else {
    out["mean"] = spec.mean;
    if (spec.kind == DistributionSpec::Kind::normal || spec.kind == DistributionSpec::Kind::lognormal)
      out["sd"] = spec.sd;
  }
  return out;
}

const char* module_type_name(Module::Type type) {
  switch (type) {
  case Module::Type::cpu:
    return "cpu";
  case Module::Type::remote_inference:
    return "remote_inference";
  case Module::Type::local_inference:
    return "local_inference";
  }
  return "?";
}

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

json schedule_to_json(const StepSchedule& schedule, const char* value_name) {
  json steps = json::array();
  for (std::size_t i = 0; i < schedule.from_s.size(); ++i) {
    // JSON has no infinity: an uncapped step is written as null.
    const double v = schedule.value[i];
    steps.push_back({{"from_s", schedule.from_s[i]}, {value_name, std::isfinite(v) ? json(v) : json()}});
  }
  return steps;
}

json campaign_to_json(const Campaign& campaign) {
  json out = json::object();
  out["total_events"] = campaign.total_events ? json(*campaign.total_events) : json();
  out["max_concurrent"] =
      campaign.max_concurrent ? schedule_to_json(*campaign.max_concurrent, "jobs") : json();
  out["slots"] = campaign.slots ? schedule_to_json(*campaign.slots, "fraction") : json();
  out["slots_repeat_s"] = campaign.slots_repeat_s;
  out["slots_random"] = campaign.slots_random ? json{{"min", campaign.slots_random->min_fraction},
                                                     {"max", campaign.slots_random->max_fraction},
                                                     {"mean_hold_s", campaign.slots_random->mean_hold_s}}
                                              : json();
  out["start_delay_s"] = distribution_to_json(campaign.start_delay_s);
  out["window_s"] = campaign.window_s ? json(*campaign.window_s) : json();
  out["warmup_s"] = campaign.warmup_s;
  out["scale"] = campaign.scale;
  out["histogram_bin_s"] = campaign.histogram_bin_s;
  out["start_s"] = campaign.start_s;
  out["schedule_seed"] = campaign.schedule_seed ? json(*campaign.schedule_seed) : json();
  out["finish_events"] = campaign.finish_events;
  return out;
}

CampaignSummary campaign_summary_from_json(const json& in) {
  CampaignSummary c;
  c.scale = in.at("scale").get<double>();
  c.mean_running_jobs = in.at("mean_running_jobs").get<double>();
  c.mean_outbound_gbps = in.at("mean_outbound_gbps").get<double>();
  c.events_completed_full_scale = in.at("events_completed_full_scale").get<double>();
  const auto& fit = in.at("outbound_vs_running_jobs");
  c.fit_valid = fit.at("valid").get<bool>();
  c.fit_determined = fit.at("determined").get<bool>();
  c.slope_gbps_per_job = fit.at("slope_gbps_per_job").get<double>();
  c.intercept_gbps = fit.at("intercept_gbps").get<double>();
  c.slope_se_gbps_per_job = fit.at("slope_se_gbps_per_job").get<double>();
  c.intercept_se_gbps = fit.at("intercept_se_gbps").get<double>();
  c.fit_r_squared = fit.at("r_squared").get<double>();
  c.fit_intervals = fit.at("intervals").get<std::uint64_t>();
  c.fit_jobs_min = fit.at("running_jobs_min").get<double>();
  c.fit_jobs_max = fit.at("running_jobs_max").get<double>();
  c.fit_mean_jobs = fit.at("running_jobs_mean").get<double>();
  c.fit_mean_gbps = fit.at("outbound_gbps_mean").get<double>();
  c.saturated_intervals = fit.at("saturated_intervals_left_out").get<std::uint64_t>();
  c.transient_intervals = fit.at("transient_intervals_left_out").get<std::uint64_t>();
  c.fit_jobs = fit.at("fitted_intervals").at("running_jobs").get<std::vector<double>>();
  c.fit_gbps = fit.at("fitted_intervals").at("outbound_gbps").get<std::vector<double>>();
  const auto& histogram = in.at("event_time_histogram");
  c.histogram_bin_s = histogram.at("bin_s").get<double>();
  c.event_time_counts = histogram.at("counts").get<std::vector<double>>();
  for (const auto& peak : histogram.at("peaks"))
    c.event_time_peaks.push_back(
        {peak.at("position_s").get<double>(), peak.at("height_fraction").get<double>()});
  return c;
}

} // namespace

nlohmann::ordered_json campaign_summary_to_json(const CampaignSummary& c) {
  json peaks = json::array();
  for (const auto& peak : c.event_time_peaks)
    peaks.push_back({{"position_s", peak.position_s}, {"height_fraction", peak.height_fraction}});
  using json = nlohmann::ordered_json;
  return json{
      {"scale", c.scale},
      {"mean_running_jobs", c.mean_running_jobs},
      {"mean_outbound_gbps", c.mean_outbound_gbps},
      {"events_completed_full_scale", c.events_completed_full_scale},
      {"outbound_vs_running_jobs",
       {{"valid", c.fit_valid},
        {"determined", c.fit_determined},
        {"slope_gbps_per_job", c.slope_gbps_per_job},
        {"intercept_gbps", c.intercept_gbps},
        {"slope_se_gbps_per_job", c.slope_se_gbps_per_job},
        {"intercept_se_gbps", c.intercept_se_gbps},
        {"r_squared", c.fit_r_squared},
        {"intervals", c.fit_intervals},
        {"running_jobs_min", c.fit_jobs_min},
        {"running_jobs_max", c.fit_jobs_max},
        {"running_jobs_mean", c.fit_mean_jobs},
        {"outbound_gbps_mean", c.fit_mean_gbps},
        {"saturated_intervals_left_out", c.saturated_intervals},
        {"transient_intervals_left_out", c.transient_intervals},
        {"fitted_intervals", {{"running_jobs", c.fit_jobs}, {"outbound_gbps", c.fit_gbps}}}}},
      {"event_time_histogram",
       {{"bin_s", c.histogram_bin_s},
        {"peak_rule",
         "Gaussian smoothing (sigma 3 bins); peaks: local maxima >= 10 % of the highest, separated by a "
         "valley < 50 % of the lower peak"},
        {"peaks", peaks},
        {"counts", c.event_time_counts}}}};
}

json scenario_to_json(const Scenario& scenario) {
  const auto& platform = scenario.platform;
  json nics = json::array();
  for (const auto& nic : platform.nic_mix)
    nics.push_back({{"bandwidth_bps", nic.bandwidth_bps}, {"fraction", nic.fraction}});
  json cpus = json::array();
  for (const auto& cpu : platform.cpu_mix)
    cpus.push_back({{"name", cpu.name}, {"fraction", cpu.fraction}, {"speed", cpu.speed}});
  json models = json::object();
  for (const auto& [name, model] : scenario.models) {
    json curves = json::object();
    for (const auto& [device, curve] : model.throughput_by_device) {
      json points = json::array();
      for (const auto& [batch, rate] : curve.points())
        points.push_back({batch, rate});
      const auto files = model.perf_analyzer_files.find(device);
      const auto reading = model.perf_analyzer_readings.find(device);
      curves[device] = {
          {"points_batch_inferences_per_s", points},
          {"overhead_s", curve.overhead_s()},
          {"perf_analyzer_files",
           files == model.perf_analyzer_files.end() ? std::vector<std::string>{} : files->second},
          {"perf_analyzer_reading", reading == model.perf_analyzer_readings.end()
                                        ? json()
                                        : json(measurements::device_time_mapping_name(reading->second))}};
    }
    const auto& triton = model.triton;
    const auto& batching = triton.dynamic_batching;
    json queue_policy = json::object();
    queue_policy["max_queue_size"] =
        batching.queue_policy.max_queue_size ? json(*batching.queue_policy.max_queue_size) : json();
    queue_policy["timeout_s"] =
        batching.queue_policy.timeout_s ? json(*batching.queue_policy.timeout_s) : json();
    json instance_groups = json::array();
    for (const auto& instances : triton.instance_groups)
      instance_groups.push_back({{"count", instances.count},
                                 {"kind", instances.kind == InstanceGroup::Kind::cpu ? "CPU" : "GPU"},
                                 {"gpus", instances.devices}});
    const auto host_cost = [](const HostCost& cost, const std::string& fitted_to) {
      return json{{"per_request_s", cost.per_request_s},
                  {"per_byte_s", cost.per_byte_s},
                  {"perf_analyzer", fitted_to.empty() ? json() : json(fitted_to)}};
    };
    json model_json = json::object();
    model_json["input_bytes_per_inference"] = model.input_bytes_per_inference;
    model_json["output_bytes_per_inference"] = model.output_bytes_per_inference;
    model_json["throughput"] = curves;
    model_json["triton"] = {{"max_batch_size", triton.max_batch_size},
                            {"instance_group", instance_groups},
                            {"dynamic_batching",
                             {{"enabled", batching.enabled},
                              {"preferred_batch_size", batching.preferred_batch_sizes},
                              {"max_queue_delay_s", batching.max_queue_delay_s},
                              {"default_queue_policy", queue_policy}}}};
    model_json["triton_config_file"] = model.triton_config_file;
    model_json["triton_config_notes"] = model.triton_config_notes;
    model_json["deploy"] = {{"groups", model.deploy.groups},
                            {"load_balancer", load_balancer_name(model.deploy.load_balancer)}};
    model_json["compute_input"] = host_cost(model.compute_input, model.compute_input_perf_analyzer);
    model_json["compute_output"] = host_cost(model.compute_output, model.compute_output_perf_analyzer);
    models[name] = model_json;
  }
  json pipeline = json::array();
  for (const auto& module : scenario.workload.pipeline) {
    json m{{"name", module.name}, {"type", module_type_name(module.type)}};
    if (module.type == Module::Type::cpu) {
      m["duration_s"] = distribution_to_json(module.duration_s);
    } else {
      m["preprocess_s"] = distribution_to_json(module.preprocess_s);
      m["inferences"] = distribution_to_json(module.inferences);
    }
    if (module.type == Module::Type::remote_inference) {
      m["model"] = module.model;
      m["groups"] = module.groups;
      m["group_spread"] = module.group_spread;
      m["max_batch"] = module.max_batch;
      m["compression_ratio"] = module.compression_ratio;
      m["compression_time_per_byte_s"] = module.compression_time_per_byte_s;
      if (module.direct_s) m["direct_s"] = distribution_to_json(*module.direct_s);
      m["inference"] = module.run_direct ? "direct" : "service";
    }
    if (module.type == Module::Type::local_inference)
      m["time_per_inference_s"] = module.local_time_per_inference_s;
    pipeline.push_back(m);
  }
  const auto& workload = scenario.workload;
  const auto& background = platform.site_switch.background;
  json background_on_off;
  if (background.on_off)
    background_on_off = {{"rate_bps", background.on_off->rate_bps},
                         {"mean_on_s", background.on_off->mean_on_s},
                         {"mean_off_s", background.on_off->mean_off_s}};
  json server_groups = json::object();
  for (const auto& group : platform.server_groups)
    server_groups[group.name] = {{"pods", group.pods},
                                 {"devices", {{"type", group.device_type}, {"count", group.devices_per_pod}}},
                                 {"host_cores", group.host_cores},
                                 {"nic_bandwidth_bps", group.nic_bandwidth_bps},
                                 {"on_client_nodes", group.on_client_nodes}};
  json out{{"name", scenario.name},
           {"description", scenario.description},
           {"source_file", scenario.source_file},
           {"seed", scenario.seed},
           {"platform",
            {{"jobs_per_node", platform.jobs_per_node},
             {"node_cores", platform.node_cores},
             {"nic_mix", nics},
             {"cpu_mix", cpus},
             {"site_switch",
              {{"bandwidth_bps", platform.site_switch.bandwidth_bps},
               {"background_bps", background.rate_bps},
               {"background_schedule",
                background.schedule ? schedule_to_json(*background.schedule, "rate_bps") : json()},
               {"background_on_off", background_on_off}}},
             {"wan", {{"rtt_s", platform.wan.rtt_s}, {"bandwidth_bps", platform.wan.bandwidth_bps}}},
             {"server_groups", server_groups},
             {"network",
              {{"tcp_window_bytes", platform.network.tcp_window_bytes},
               {"small_reply_max_bytes", platform.network.small_reply_max_bytes},
               {"fast_path", platform.network.fast_path},
               {"flow_classes", platform.network.flow_classes}}},
             {"local_gpu_fraction", platform.local_gpu_fraction}}},
           {"models", models},
           {"workload",
            {{"jobs", workload.jobs},
             {"events_per_job", workload.events_per_job},
             {"warmup_events", workload.warmup_events},
             {"threads", workload.threads},
             {"inference", workload.direct_inference ? "direct" : "service"},
             {"start_spread_s", workload.start_spread_s},
             {"client",
              {{"retries", workload.client.retries},
               {"retry_backoff_s", workload.client.retry_backoff_s},
               {"mode", workload.client.asynchronous ? "async" : "sync"},
               {"max_in_flight", workload.client.max_in_flight}}},
             {"pipeline", pipeline}}},
           {"output", {{"timeseries_interval_s", scenario.output.timeseries_interval_s}}}};
  if (workload.campaign) out["workload"]["campaign"] = campaign_to_json(*workload.campaign);
  if (scenario.costs) {
    const auto& costs = *scenario.costs;
    json device_hour = json::object();
    for (const auto& [type, usd] : costs.device_hour_usd)
      device_hour[type] = usd;
    out["costs"] = {{"device_hour_usd", device_hour},
                    {"cpu_hour_usd", costs.cpu_hour_usd ? json(*costs.cpu_hour_usd) : json()}};
  }
  if (!scenario.variants.empty()) {
    json variants = json::array();
    for (const auto& variant : scenario.variants)
      variants.push_back(
          {{"name", variant.name}, {"description", variant.description}, {"overrides", variant.overrides}});
    out["variants"] = variants;
  }
  return out;
}

json run_summary_to_json(const RunSummary& summary) {
  json models = json::array();
  for (const auto& usage : summary.model_usage)
    models.push_back({{"model", usage.model},
                      {"batches", usage.batches},
                      {"inferences", usage.inferences},
                      {"busy_device_s", usage.busy_device_s},
                      {"share_of_devices", usage.share_of_devices}});
  json groups = json::array();
  for (const auto& usage : summary.group_usage)
    groups.push_back({{"name", usage.name},
                      {"device_type", usage.device_type},
                      {"pods", usage.pods},
                      {"devices", usage.devices},
                      {"host_cores", usage.host_cores},
                      // Triton's nv_gpu_utilization, averaged over the group's devices and the window.
                      {"device_utilisation", usage.device_utilisation},
                      {"host_utilisation", usage.host_utilisation},
                      {"nic_in_utilisation", usage.nic_in_utilisation},
                      {"limit", usage.limit},
                      {"limit_utilisation", usage.limit_utilisation},
                      // Per device, pod by pod, over the whole run (not only the window).
                      {"device_batches", usage.device_batches},
                      {"device_busy_s", usage.device_busy_s}});
  json out;
  json modules = json::object();
  for (const auto& [name, stats] : summary.modules)
    modules[name] = statistics_to_json(stats);
  json links = json::array();
  for (const auto& link : summary.links)
    links.push_back({{"name", link.name},
                     {"capacity_bps", link.capacity_bps},
                     {"bytes", link.bytes},
                     {"utilisation", link.utilisation}});
  out = json{
      {"window",
       {{"start_s", summary.window_start_s},
        {"end_s", summary.window_end_s},
        {"steady_state", summary.steady_state_window},
        {"simulated_end_s", summary.simulated_end_s}}},
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
         {{"fast", summary.flows_fast},
          {"simgrid", summary.flows_simgrid},
          {"handed", summary.flows_handed},
          {"classes", summary.flow_classes},
          {"class_comms", summary.flow_class_comms}}},
        {"links_left_out", summary.links_left_out},
        {"links", links}}},
      {"bottleneck", {{"resource", summary.bottleneck}, {"utilisation", summary.bottleneck_utilisation}}}};
  if (summary.campaign) out["campaign"] = campaign_summary_to_json(*summary.campaign);
  if (const auto& direct = summary.direct_inference)
    out["direct_inference"] = {{"event_mean_s", direct->event_mean_s},
                               {"events_per_s_per_job", direct->events_per_s_per_job},
                               {"service_events_per_s_per_job", direct->service_events_per_s_per_job},
                               {"gain", direct->gain}};
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
  for (const auto& usage : server.at("models"))
    summary.model_usage.push_back(
        {usage.at("model").get<std::string>(), usage.at("batches").get<std::uint64_t>(),
         usage.at("inferences").get<double>(), usage.at("busy_device_s").get<double>(),
         usage.at("share_of_devices").get<double>()});
  for (const auto& usage : server.at("groups"))
    summary.group_usage.push_back(
        {usage.at("name").get<std::string>(), usage.at("device_type").get<std::string>(),
         usage.at("pods").get<int>(), usage.at("devices").get<int>(), usage.at("host_cores").get<int>(),
         usage.at("device_utilisation").get<double>(), usage.at("host_utilisation").get<double>(),
         usage.at("nic_in_utilisation").get<double>(), usage.at("limit").get<std::string>(),
         usage.at("limit_utilisation").get<double>(),
         usage.at("device_batches").get<std::vector<std::uint64_t>>(),
         usage.at("device_busy_s").get<std::vector<double>>()});
  const auto& network = in.at("network");
  summary.bytes_to_servers = network.at("bytes_to_servers").get<double>();
  summary.bytes_from_servers = network.at("bytes_from_servers").get<double>();
  const auto& flows = network.at("flows");
  summary.flows_fast = flows.at("fast").get<std::uint64_t>();
  summary.flows_simgrid = flows.at("simgrid").get<std::uint64_t>();
  summary.flows_handed = flows.at("handed").get<std::uint64_t>();
  summary.flow_classes = flows.at("classes").get<std::uint64_t>();
  summary.flow_class_comms = flows.at("class_comms").get<std::uint64_t>();
  summary.links_left_out = network.at("links_left_out").get<std::string>();
  for (const auto& link : network.at("links"))
    summary.links.push_back({link.at("name").get<std::string>(), link.at("capacity_bps").get<double>(),
                             link.at("bytes").get<double>(), link.at("utilisation").get<double>()});
  summary.bottleneck = in.at("bottleneck").at("resource").get<std::string>();
  summary.bottleneck_utilisation = in.at("bottleneck").at("utilisation").get<double>();
  if (in.contains("campaign")) summary.campaign = campaign_summary_from_json(in.at("campaign"));
  if (in.contains("direct_inference")) {
    const auto& direct = in.at("direct_inference");
    summary.direct_inference = DirectInferenceComparison{
        direct.at("event_mean_s").get<double>(), direct.at("events_per_s_per_job").get<double>(),
        direct.at("service_events_per_s_per_job").get<double>(), direct.at("gain").get<double>()};
  }
  if (in.contains("warnings")) summary.warnings = in.at("warnings").get<std::vector<std::string>>();
  return summary;
}

json summary_to_json(const Scenario& scenario, const RunSummary& summary) {
  return json{{"sonicsim_version", "0.1.0"},
              {"scenario", scenario_to_json(scenario)},
              {"results", run_summary_to_json(summary)}};
}

} // namespace sonicsim
