// The checks that tie the operations keys (sim/scenario/operations.hpp, read by scenario_operations.cpp) to
// the rest of the scenario: bounds on work operations could make without end, what each autoscaler and
// proxy needs of its group and of the jobs.
#include "sim/scenario/scenario_sections.hpp"
#include "sim/scenario/supersonic_values.hpp"
#include "sim/scenario/yaml_values.hpp"
#include "sim/text/input_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace sonicsim::detail {

namespace {

// A number in a message: four significant digits.
std::string shown_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

// The CPU time an event needs at least, on the fastest CPU type of the mix: the cpu modules and the
// preprocessing and local inference of the others, at their means (an event's expected time is at least
// this; the server's time comes on top).
double least_event_cpu_s(const Scenario& s) {
  double cpu_s = 0.0;
  for (const auto& module : s.workload.pipeline) {
    if (module.type == Module::Type::cpu) cpu_s += module.duration_s.expected();
    if (module.type != Module::Type::cpu) cpu_s += module.preprocess_s.expected();
    if (module.type == Module::Type::local_inference)
      cpu_s += module.inferences.expected() * module.local_time_per_inference_s;
  }
  double fastest = 0.0;
  for (const auto& type : s.platform.cpu_mix)
    fastest = std::max(fastest, type.speed);
  return fastest > 0.0 ? cpu_s / fastest : cpu_s;
}

// Work that operations could make without end is refused before the run: a request's tries, and a
// preemption that comes so often that a resubmitted event would almost never finish.
void check_operation_bounds(const Cursor& root, const Scenario& s) {
  const ClientSettings& client = s.workload.client;
  // A day per request: SonicTriton's defaults (3 retries, a 10 s timeout) take 40 s at most.
  constexpr double longest_request_s = 86400.0;
  if (client.timeout_s) {
    const double tries = client.retries + 1.0;
    const double request_s = tries * (*client.timeout_s + client.retry_backoff_s);
    if (request_s > longest_request_s)
      root["workload"]["client"]["retries"].fail(
          "(retries + 1) x (timeout + retry_backoff) = " + shown_number(tries) + " x " +
          shown_number(*client.timeout_s + client.retry_backoff_s) +
          " s = " + shown_number(request_s / 3600.0) +
          " h for one request; expected at most a day (fewer retries or a shorter timeout)");
  }
  const auto& preemption = s.workload.preemption;
  if (!preemption || !preemption->resubmit) return;
  // An event of CPU time t, preempted at rate 1/m, completes in one try with probability e^(-t/m): on
  // average e^(t/m) tries (at least, over random durations: Jensen). More than 100 and the run mostly
  // simulates lost work, and at e^45 it never ends.
  constexpr double most_tries_per_event = 100.0;
  const double cpu_s = least_event_cpu_s(s);
  const double ratio = cpu_s / preemption->mean_time_s;
  if (ratio > std::log(most_tries_per_event))
    root["workload"]["preemption"]["mean_time"].fail(
        "a job preempted every " + shown_number(preemption->mean_time_s) +
        " s on average, whose events take " + shown_number(cpu_s) +
        " s of CPU at least (the pipeline's CPU time at its means, on the fastest CPU), "
        "finishes an event once in e^" +
        shown_number(ratio) + " tries, and resubmitted it never ends; expected a mean time of at least " +
        shown_number(cpu_s / std::log(most_tries_per_event)) +
        " s (100 tries per event), or resubmit: false");
}

} // namespace

void check_operations(const Cursor& root, Scenario& s) {
  check_operation_bounds(root, s);
  const Cursor groups = root["platform"]["server_groups"];
  bool behind_proxy = false;
  for (const auto& [name, model] : s.models) {
    for (const auto& group_name : model.deploy.groups) {
      const ServerGroup* group = s.platform.group(group_name);
      if (!group || !group->pooled()) continue;
      behind_proxy = behind_proxy || group->proxy.has_value();
      const Cursor deploy = root["models"][name]["deploy"];
      // The pool routes each request among the group's serving pods; a second group or a per-connection
      // balancer would contradict it.
      if (model.deploy.groups.size() != 1)
        deploy["groups"].fail(
            "group '" + group_name +
            "' alone: it has an autoscaler, failures or a proxy, whose pool of serving pods "
            "takes every request of the model");
      if (deploy["load_balancer"].present())
        deploy["load_balancer"].fail("no load_balancer for a model on group '" + group_name +
                                     "': its proxy (or the pool, without one) chooses the pod per request");
    }
  }
  const ClientSettings& client = s.workload.client;
  for (const auto& group : s.platform.server_groups)
    if (group.failures && !client.timeout_s)
      groups[group.name]["failures"].fail(
          "failures need workload.client.timeout: a request lost in a failed server is noticed only by its "
          "client's timeout (SonicTriton's is 10s)");
  if (!s.platform.wan.down.empty() && !client.timeout_s)
    root["platform"]["wan"]["down"].fail("WAN down windows need workload.client.timeout: a request lost on a "
                                         "path that is down is noticed only by its client's timeout");
  const Cursor client_cursor = root["workload"]["client"];
  if (client.retry_other_server && !behind_proxy)
    client_cursor["retry_on"].fail(
        "retry_on: other needs a model behind a proxy (server_groups.NAME.proxy), "
        "which picks another server; without one a job's requests have one server");
  if (client.fallback_group.empty()) return;
  const ServerGroup* fallback = s.platform.group(client.fallback_group);
  if (!fallback || !fallback->on_client_nodes)
    client_cursor["fallback"].fail(
        "a server group on_client_nodes (a local Triton server on each job's node), "
        "e.g. platform.server_groups.fallback: {on_client_nodes: true, devices: "
        "{count: 0}, host_cores: 4}");
  const std::string curve = fallback->devices_per_pod > 0 ? fallback->device_type : cpu_device_type;
  for (const auto& module : s.workload.pipeline) {
    if (!module.served()) continue;
    const Model& model = s.models.at(module.model);
    if (std::find(model.deploy.groups.begin(), model.deploy.groups.end(), fallback->name) !=
        model.deploy.groups.end())
      client_cursor["fallback"].fail(
          "a group that does not serve model '" + module.model +
          "' already: the fallback is where its requests go when its servers fail");
    if (!model.throughput_by_device.count(curve))
      client_cursor["fallback"].fail("model '" + module.model + "' to have a throughput curve for " + curve +
                                     " (models." + module.model + ".throughput." + curve +
                                     "): the fallback group runs it there");
  }
}

} // namespace sonicsim::detail
