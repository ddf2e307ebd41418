// The scenario schema's tree (schema.hpp): every section's keys and what each holds, the keys of each module
// type. The checks against it are in schema.cpp.
#include "sim/scenario/schema.hpp"

#include <map>

namespace sonicsim::schema {
namespace {

using NodePtr = std::shared_ptr<const Node>;
using Fields = std::vector<std::pair<std::string, NodePtr>>;

NodePtr value() {
  return std::make_shared<Node>(Node{Kind::value, {}, nullptr});
}
NodePtr dist() {
  return std::make_shared<Node>(Node{Kind::distribution, {}, nullptr});
}
NodePtr map(Fields fields) {
  return std::make_shared<Node>(Node{Kind::map, std::move(fields), nullptr});
}
NodePtr list(NodePtr element) {
  return std::make_shared<Node>(Node{Kind::list, {}, std::move(element)});
}
NodePtr dict(NodePtr element) {
  return std::make_shared<Node>(Node{Kind::dict, {}, std::move(element)});
}

// Keys of a module, by type. The module schema node holds their union; check_document narrows by type.
const std::map<std::string, std::vector<std::string>>& keys_by_module_type() {
  static const std::map<std::string, std::vector<std::string>> keys{
      {"cpu", {"name", "type", "duration"}},
      {"remote_inference",
       {"name", "type", "model", "preprocess", "inferences", "groups", "group_spread", "max_batch",
        "compression_ratio", "compression_time_per_byte", "direct", "inference"}},
      {"local_inference", {"name", "type", "preprocess", "inferences", "time_per_inference"}},
  };
  return keys;
}

NodePtr platform_schema() {
  return map({
      {"jobs_per_node", value()},
      {"node_cores", value()},
      {"nic_mix", list(map({{"bandwidth", value()}, {"fraction", value()}}))},
      {"cpu_mix", list(map({{"name", value()}, {"fraction", value()}, {"speed", value()}}))},
      {"site_switch",
       map({{"bandwidth", value()},
            {"background", value()},
            {"background_schedule", list(map({{"from", value()}, {"rate", value()}}))},
            {"background_on_off", map({{"rate", value()}, {"mean_on", value()}, {"mean_off", value()}})}})},
      {"wan", map({{"rtt", value()},
                   {"bandwidth", value()},
                   {"down", list(map({{"from", value()}, {"to", value()}}))}})},
      {"client_node", map({{"physical_cores", value()},
                           {"threads_per_core", value()},
                           {"hyperthread_yield", value()},
                           {"inference_contention", value()}})},
      {"server_groups",
       dict(map({{"pods", value()},
                 {"devices", map({{"type", value()},
                                  {"count", value()},
                                  {"model_switch_time", value()},
                                  {"model_switch_slowdown", value()}})},
                 {"host_cores", value()},
                 {"nic_bandwidth", value()},
                 {"on_client_nodes", value()},
                 {"autoscaler",
                  map({{"min", value()},
                       {"max", value()},
                       {"metric", value()},
                       {"threshold", value()},
                       {"poll_interval", value()},
                       {"sync_period", value()},
                       {"metric_window", value()},
                       {"step_period", value()},
                       {"tolerance", value()},
                       {"step", value()},
                       {"scale_up_step", value()},
                       {"scale_up_period", value()},
                       {"scale_down_step", value()},
                       {"scale_down_period", value()},
                       {"metric_type", value()},
                       {"aggregation", value()},
                       {"scrape_interval", value()},
                       {"scale_up_window", value()},
                       {"scale_down_window", value()},
                       {"startup_delay", value()},
                       {"drain_period", value()},
                       {"scale_to_zero", map({{"idle_period", value()},
                                              {"hold_timeout", value()},
                                              {"hold_min", value()},
                                              {"activation_threshold", value()}})},
                       {"readiness_probe", map({{"initial_delay", value()}, {"period", value()}})}})},
                 {"failures", map({{"schedule", list(map({{"at", value()}, {"pod", value()}}))},
                                   {"mean_time_between", value()},
                                   {"restart_delay", value()}})},
                 {"proxy", map({{"balancing", value()},
                                {"choice_count", value()},
                                {"max_requests", value()},
                                {"replicas", value()},
                                {"rate_limit", map({{"metric", value()},
                                                    {"aggregation", value()},
                                                    {"threshold", value()},
                                                    {"poll_interval", value()},
                                                    {"refuse", value()}})}})},
                 {"supersonic_values", value()},
                 {"supersonic_chart", value()}}))},
      {"network", map({{"tcp_window", value()},
                       {"small_reply_max", value()},
                       {"fast_path", value()},
                       {"flow_classes", value()},
                       {"one_full_link", value()},
                       {"event_calendar", value()}})},
      {"local_gpu_fraction", value()},
  });
}

NodePtr model_schema() {
  const NodePtr triton = map({
      {"max_batch_size", value()},
      {"instance_group", list(map({{"count", value()}, {"kind", value()}, {"gpus", value()}}))},
      {"dynamic_batching",
       map({{"enabled", value()},
            {"preferred_batch_size", value()},
            {"max_queue_delay", value()},
            {"default_queue_policy", map({{"max_queue_size", value()}, {"timeout", value()}})}})},
  });
  const NodePtr host_cost =
      map({{"per_request", value()}, {"per_byte", value()}, {"perf_analyzer", value()}});
  return map({
      {"input_bytes_per_inference", value()},
      {"output_bytes_per_inference", value()},
      {"throughput", dict(map({{"points", value()},
                               {"overhead", value()},
                               {"scale", value()},
                               {"perf_analyzer", value()},
                               {"perf_analyzer_reading", value()}}))},
      {"triton", triton},
      {"triton_config", value()},
      {"deploy", map({{"groups", value()}, {"load_balancer", value()}})},
      {"compute_input", host_cost},
      {"compute_output", host_cost},
      {"client_call", host_cost},
  });
}

NodePtr workload_schema() {
  const NodePtr module = std::make_shared<Node>(Node{Kind::module,
                                                     {{"name", value()},
                                                      {"type", value()},
                                                      {"duration", dist()},
                                                      {"model", value()},
                                                      {"preprocess", dist()},
                                                      {"inferences", dist()},
                                                      {"groups", value()},
                                                      {"group_spread", value()},
                                                      {"max_batch", value()},
                                                      {"time_per_inference", value()},
                                                      {"compression_ratio", value()},
                                                      {"compression_time_per_byte", value()},
                                                      {"direct", dist()},
                                                      {"inference", value()}},
                                                     nullptr});
  return map({
      {"jobs", value()},
      {"events_per_job", value()},
      {"warmup_events", value()},
      {"threads", value()},
      {"inference", value()},
      {"start_spread", value()},
      {"client", map({{"retries", value()},
                      {"retry_backoff", value()},
                      {"mode", value()},
                      {"max_in_flight", value()},
                      {"timeout", value()},
                      {"retry_on", value()},
                      {"fallback", value()}})},
      {"preemption", map({{"mean_time", value()}, {"resubmit", value()}, {"max_resubmissions", value()}})},
      {"pipeline", list(module)},
      {"campaign", map({{"total_events", value()},
                        {"max_concurrent", list(map({{"from", value()}, {"jobs", value()}}))},
                        {"slots", list(map({{"from", value()}, {"fraction", value()}}))},
                        {"slots_repeat", value()},
                        {"slots_random", map({{"min", value()}, {"max", value()}, {"mean_hold", value()}})},
                        {"start_delay", dist()},
                        {"window", value()},
                        {"warmup", value()},
                        {"scale", value()},
                        {"histogram_bin", value()},
                        {"start", value()},
                        {"schedule_seed", value()},
                        {"finish_events", value()}})},
  });
}

NodePtr bounds() {
  return map({{"above", value()}, {"below", value()}});
}

NodePtr build_root() {
  return map({
      {"name", value()},
      {"description", value()},
      {"seed", value()},
      {"platform", platform_schema()},
      {"models", dict(model_schema())},
      {"workload", workload_schema()},
      {"output", map({{"timeseries_interval", value()},
                      {"precision", value()},
                      {"max_extension", value()},
                      {"precision_figures", value()},
                      {"stop_at_window_end", value()},
                      {"stop_beyond", map({{"events_per_s", bounds()},
                                           {"event_mean_s", bounds()},
                                           {"module_mean_s", bounds()},
                                           {"gpu_utilisation", bounds()}})}})},
      {"costs", map({{"device_hour", dict(value())}, {"cpu_hour", value()}, {"pod_hour", value()}})},
      // A variant's overrides are key paths of this same schema, checked by the loader (validate_key_path).
      {"variants", dict(map({{"description", value()}, {"overrides", value()}}))},
      // Keyed by key paths of this same schema, checked by the loader (read_provenance).
      {"provenance", dict(map({{"measured", value()},
                               {"derived", value()},
                               {"assumed", value()},
                               {"calibrated", value()},
                               {"range", map({{"low", value()}, {"high", value()}, {"why", value()}})}}))},
  });
}

} // namespace

const Node& root() {
  static const NodePtr tree = build_root(); // immutable after construction
  return *tree;
}

const std::vector<std::string>& module_types() {
  static const std::vector<std::string> types{"cpu", "remote_inference", "local_inference"};
  return types;
}

const std::vector<std::string>& module_keys(const std::string& type) {
  static const std::vector<std::string> none;
  const auto it = keys_by_module_type().find(type);
  return it == keys_by_module_type().end() ? none : it->second;
}

} // namespace sonicsim::schema
