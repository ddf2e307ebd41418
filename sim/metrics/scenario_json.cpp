#include "sim/metrics/scenario_json.hpp"

#include "sim/metrics/operations_echo.hpp"

#include "sim/measurements/perf_analyzer.hpp"
#include "sim/scenario/provenance.hpp"

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

// One model: its curves per device (and the perf_analyzer files they came from), Triton settings, deployment
// and host costs.
json model_to_json(const Model& model) {
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
        // The points above are already multiplied by it.
        {"scale", model.throughput_scale.count(device) ? model.throughput_scale.at(device) : 1.0},
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
  model_json["client_call"] = host_cost(model.client_call, model.client_call_perf_analyzer);
  return model_json;
}

json pipeline_to_json(const std::vector<Module>& modules) {
  json pipeline = json::array();
  for (const auto& module : modules) {
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
  return pipeline;
}

json preemption_json(const JobPreemption& p) {
  return {
      {"mean_time_s", p.mean_time_s}, {"resubmit", p.resubmit}, {"max_resubmissions", p.max_resubmissions}};
}

// platform.client_node, echoed only when given: a scenario without it echoes as before it existed.
void add_client_node(json& platform, const ClientNode& node) {
  if (!node.enabled()) return;
  platform["client_node"] = {{"physical_cores", node.physical_cores},
                             {"threads_per_core", node.threads_per_core},
                             {"hyperthread_yield", node.hyperthread_yield},
                             {"inference_contention", node.inference_contention}};
}

json output_to_json(const OutputSettings& output) {
  json out = {{"timeseries_interval_s", output.timeseries_interval_s},
              {"precision_relative", output.precision_relative},
              {"max_extension", output.max_extension}};
  // Written only when given, so every scenario without them keeps its fingerprint (the plan's kept runs).
  if (!output.precision_figures.empty()) out["precision_figures"] = output.precision_figures;
  if (output.stop_at_window_end) out["stop_at_window_end"] = true;
  for (const auto& [figure, bounds] : output.stop_beyond) {
    auto& entry = out["stop_beyond"][figure];
    if (bounds.above) entry["above"] = *bounds.above;
    if (bounds.below) entry["below"] = *bounds.below;
  }
  return out;
}

json server_groups_json(const Platform& platform) {
  json server_groups = json::object();
  for (const auto& group : platform.server_groups) {
    json devices{{"type", group.device_type}, {"count", group.devices_per_pod}};
    // Only when set: a scenario without it echoes as it did before the key existed (same fingerprint).
    if (group.model_switch_s > 0.0) devices["model_switch_time_s"] = group.model_switch_s;
    if (group.model_switch_slowdown > 0.0) devices["model_switch_slowdown"] = group.model_switch_slowdown;
    server_groups[group.name] = {{"pods", group.pods},
                                 {"devices", devices},
                                 {"host_cores", group.host_cores},
                                 {"nic_bandwidth_bps", group.nic_bandwidth_bps},
                                 {"on_client_nodes", group.on_client_nodes}};
    add_group_operations(server_groups[group.name], group);
  }
  return server_groups;
}

json costs_json(const Costs& costs) {
  json device_hour = json::object();
  for (const auto& [type, usd] : costs.device_hour_usd)
    device_hour[type] = usd;
  return {{"device_hour_usd", device_hour},
          {"cpu_hour_usd", costs.cpu_hour_usd ? json(*costs.cpu_hour_usd) : json()},
          {"pod_hour_usd", costs.pod_hour_usd ? json(*costs.pod_hour_usd) : json()}};
}

} // namespace

json scenario_to_json(const Scenario& scenario) {
  const auto& platform = scenario.platform;
  json nics = json::array();
  for (const auto& nic : platform.nic_mix)
    nics.push_back({{"bandwidth_bps", nic.bandwidth_bps}, {"fraction", nic.fraction}});
  json cpus = json::array();
  for (const auto& cpu : platform.cpu_mix)
    cpus.push_back({{"name", cpu.name}, {"fraction", cpu.fraction}, {"speed", cpu.speed}});
  json models = json::object();
  for (const auto& [name, model] : scenario.models)
    models[name] = model_to_json(model);
  const auto& workload = scenario.workload;
  const auto& background = platform.site_switch.background;
  json background_on_off;
  if (background.on_off)
    background_on_off = {{"rate_bps", background.on_off->rate_bps},
                         {"mean_on_s", background.on_off->mean_on_s},
                         {"mean_off_s", background.on_off->mean_off_s}};
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
             {"server_groups", server_groups_json(platform)},
             {"network",
              {{"tcp_window_bytes", platform.network.tcp_window_bytes},
               {"small_reply_max_bytes", platform.network.small_reply_max_bytes},
               {"fast_path", platform.network.fast_path},
               {"flow_classes", platform.network.flow_classes},
               {"one_full_link", platform.network.one_full_link}}},
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
             {"pipeline", pipeline_to_json(workload.pipeline)}}},
           {"output", output_to_json(scenario.output)}};
  add_client_operations(out["workload"]["client"], workload.client);
  if (const auto& p = workload.preemption) out["workload"]["preemption"] = preemption_json(*p);
  if (!platform.wan.down.empty()) {
    auto& down = out["platform"]["wan"]["down"] = json::array();
    for (const auto& w : platform.wan.down)
      down.push_back({{"from_s", w.from_s}, {"to_s", w.to_s}});
  }
  if (workload.campaign) out["workload"]["campaign"] = campaign_to_json(*workload.campaign);
  // Only when off: the scenarios written before the key keep their fingerprints.
  if (!platform.network.event_calendar) out["platform"]["network"]["event_calendar"] = false;
  if (scenario.costs) out["costs"] = costs_json(*scenario.costs);
  if (!scenario.variants.empty()) {
    json variants = json::array();
    for (const auto& variant : scenario.variants)
      variants.push_back(
          {{"name", variant.name}, {"description", variant.description}, {"overrides", variant.overrides}});
    out["variants"] = variants;
  }
  if (!scenario.provenance.empty()) out["provenance"] = provenance_to_json(scenario.provenance);
  add_client_node(out["platform"], scenario.platform.client_node);
  return out;
}

json provenance_to_json(const std::vector<Provenance>& entries) {
  json out = json::array();
  for (const auto& p : entries) {
    // Not where it was written: the same scenario read from another path has the same fingerprint.
    out.push_back({{"key", p.key}, {provenance_kind_name(p.kind), p.text}});
    if (!p.range_low.empty())
      out.back()["range"] = {{"low", p.range_low}, {"high", p.range_high}, {"why", p.range_why}};
  }
  return out;
}

} // namespace sonicsim
