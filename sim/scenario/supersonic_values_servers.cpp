// The inference server (`triton` in 0.3.1, `inferenceServer` on the main branch), Envoy and Prometheus
// sections of a SuperSONIC values file: the servers' GPUs and probes, the proxy's balancing, rate limiters
// and replicas, the scrape interval. See supersonic_values_reader.hpp.
#include "sim/scenario/supersonic_query.hpp"
#include "sim/scenario/supersonic_values_reader.hpp"

#include <cmath>
#include <string>

namespace sonicsim::detail {

void ValuesReader::read_prometheus() {
  const Cursor prometheus = root_["prometheus"];
  const bool external =
      prometheus["external"]["enabled"].present() && flag(prometheus["external"]["enabled"]);
  const Cursor interval = prometheus["server"]["global"]["scrape_interval"];
  if (!external && interval.present()) {
    const auto seconds = prometheus_duration_s(interval.scalar("a duration, e.g. 5s"));
    if (!seconds || *seconds <= 0) interval.fail_value("a Prometheus duration such as 5s");
    // rate() needs two samples in the query's window; at half the window there are always two.
    if (*seconds > 0.5 * window_s_)
      interval.fail_value("a scrape interval at most half the query's rate() window (" + text_of(window_s_) +
                          " s), or the query returns nothing between samples");
    scrape_interval_s_ = *seconds;
    record(interval, "prometheus.server.global.scrape_interval", text_of(*seconds) + "s",
           "scrape_interval " + text_of(*seconds) + "s");
  } else {
    record(interval, "prometheus.server.global.scrape_interval", "5s",
           external ? "scrape_interval 5s: an external Prometheus's interval is not in the file; the chart's "
                      "own Prometheus scrapes every 5 s"
                    : "scrape_interval 5s (the chart's default)");
  }
  out_.notes.push_back("nameOverride, grafana, tempo, opentelemetry-collector, metricsCollector and the rest "
                       "of prometheus: monitoring, not simulated");
}

// inferenceServer.type (main): Triton or Nereid, which serves the same protocol and metrics.
void ValuesReader::read_server_type(const Cursor& type) {
  const std::string section = server_section();
  out_.server_type = type.present() ? type.scalar("triton or nereid") : "triton";
  if (out_.server_type != "triton" && out_.server_type != "nereid") type.fail_value("triton or nereid");
  record(type, section + ".type", out_.server_type,
         out_.server_type == "triton"
             ? std::string("Triton servers") + (type.present() ? "" : " (the chart's default)")
             : "Nereid servers: the same KServe v2 protocol and nv_inference_* metrics, so the default "
               "metric reads as with Triton; no nv_gpu_* metrics (device utilisation reads nothing)");
  if (out_.server_type == "nereid")
    out_.notes.push_back("inferenceServer.type nereid: sonicsim serves the requests with the scenario's "
                         "throughput curve, measured on Triton; give the model a curve measured on Nereid "
                         "for its own speed. inferenceServer.nereid (its configuration) is not simulated");
}

// The GPU products a node affinity allows: informative only, the scenario's devices.type picks the curve.
void ValuesReader::read_gpu_affinity(const Cursor& triton, const std::string& section) {
  const Cursor terms = triton["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
                             ["nodeSelectorTerms"];
  if (terms.present() && terms.node().IsSequence())
    for (std::size_t t = 0; t < terms.node().size(); ++t) {
      const Cursor expressions = terms[t]["matchExpressions"];
      if (!expressions.present() || !expressions.node().IsSequence()) continue;
      for (std::size_t e = 0; e < expressions.node().size(); ++e) {
        const Cursor expression = expressions[e];
        if (!expression["key"].present() || expression["key"].scalar("a label") != "nvidia.com/gpu.product")
          continue;
        const Cursor values = expression["values"];
        if (values.present() && values.node().IsSequence())
          for (std::size_t v = 0; v < values.node().size(); ++v)
            out_.gpu_products.push_back(values[v].scalar("a GPU product name"));
      }
    }
  if (!out_.gpu_products.empty()) {
    std::string products;
    for (const auto& product : out_.gpu_products)
      products += (products.empty() ? "" : ", ") + product;
    out_.notes.push_back(section + ".affinity allows GPU products " + products +
                         ": the scenario's devices.type chooses which curve the servers run (a mixed pool "
                         "is one type in sonicsim)");
  }
}

void ValuesReader::read_triton() {
  const std::string section = server_section();
  const Cursor triton = root_[section];
  if (main()) read_server_type(triton["type"]);
  if (const Cursor replicas = triton["replicas"]; replicas.present()) {
    const double n = number(replicas, "a whole number of servers, 1 to 10000");
    if (n < 1 || n > 10'000 || std::floor(n) != n)
      replicas.fail_value("a whole number of servers, 1 to 10000");
    out_.pods = static_cast<int>(n);
  }
  record(triton["replicas"], section + ".replicas", std::to_string(out_.pods),
         "pods " + std::to_string(out_.pods) + " when keda is off");
  if (const Cursor gpus = triton["resources"]["limits"]["nvidia.com/gpu"]; gpus.present()) {
    const double n = number(gpus, "a whole number of GPUs per server");
    if (n < 0 || n > 1'024 || std::floor(n) != n)
      gpus.fail_value("a whole number of GPUs per server, 0 to 1024");
    out_.devices_per_pod = static_cast<int>(n);
    record(gpus, section + ".resources.limits.nvidia.com/gpu", text_of(n), "devices.count " + text_of(n));
  } else {
    out_.notes.push_back(section +
                         ".resources.limits has no nvidia.com/gpu: the file does not say how many "
                         "GPUs a server holds (a node affinity may select GPU nodes); the scenario's "
                         "devices.count stands");
  }
  read_gpu_affinity(triton, section);
  // The probes decide when Envoy sees a new server, not how long the model takes to load.
  const Cursor startup = triton["startupProbe"];
  const Cursor readiness = triton["readinessProbe"];
  double startup_budget_s = 0 + 10 * 12; // the chart's startupProbe: initialDelay 0, period 10, 12 failures
  if (startup.present() && !(startup["reset"].present() && flag(startup["reset"]))) {
    const double initial =
        startup["initialDelaySeconds"].present() ? probe_seconds(startup["initialDelaySeconds"], "0") : 0;
    const double period =
        startup["periodSeconds"].present() ? probe_seconds(startup["periodSeconds"], "10") : 10;
    const double failures =
        startup["failureThreshold"].present() ? number(startup["failureThreshold"], "a count, e.g. 12") : 12;
    startup_budget_s = initial + period * failures;
  }
  // The readiness probe decides when Envoy routes to a new server: at its first success after the model is
  // loaded (autoscaler.readiness_probe). `reset: true` is Kubernetes's defaults: no initial delay, 10 s.
  AutoscalerSettings::ReadinessProbe probe; // the chart's: initialDelaySeconds 10, periodSeconds 10
  if (readiness.present() && readiness["reset"].present() && flag(readiness["reset"])) {
    probe = {0, 10};
  } else if (readiness.present()) {
    // The scenario's own bound on autoscaler.readiness_probe (0..24h): a probe later than a day is no
    // simulated deployment's.
    if (readiness["initialDelaySeconds"].present())
      probe.initial_delay_s = probe_seconds(readiness["initialDelaySeconds"], "10");
    if (readiness["periodSeconds"].present())
      probe.period_s = probe_seconds(readiness["periodSeconds"], "10");
    if (!(probe.period_s >= 1.0))
      readiness["periodSeconds"].fail_value("at least 1 (Kubernetes's minimum), e.g. 10");
  }
  readiness_probe_ = probe;
  record(readiness, section + ".readinessProbe",
         "initialDelaySeconds " + text_of(probe.initial_delay_s) + ", periodSeconds " +
             text_of(probe.period_s),
         "a new server serves at the first probe at or after its start-up delay" +
             std::string(readiness.present() ? "" : " (the chart's default)"));
  out_.notes.push_back(
      section + ".startupProbe gives a server " + text_of(startup_budget_s) +
      " s from its container's start to load its models before Kubernetes restarts it: it bounds the model "
      "load, it does not set it; the start-up time (node start, image pull and model load) is "
      "autoscaler.startup_delay (sonicsim's default 240 s, the 240-300 s SuperSONIC measured, "
      "arXiv:2506.20657), which a values file does not hold");
  out_.notes.push_back(section +
                       ".image, command, args, resources (cpu, memory), modelRepository, service, "
                       "nodeSelector, tolerations, annotations: not simulated (where and what the server "
                       "runs, not how fast it serves)");
}

void ValuesReader::read_envoy() {
  const Cursor envoy = root_["envoy"];
  if (envoy["enabled"].present() && !flag(envoy["enabled"]))
    envoy["enabled"].fail("sonicsim simulates a SuperSONIC group behind its Envoy proxy; without it the "
                          "clients reach the Triton pods directly: describe the group without "
                          "supersonic_values, with the model's load_balancer");
  const Cursor policy = envoy["loadBalancerPolicy"];
  const std::string name = policy.present() ? policy.scalar("an Envoy policy name") : "LEAST_REQUEST";
  if (name == "LEAST_REQUEST") {
    out_.proxy.balancing = ProxyBalancing::least_request;
    record(policy, "envoy.loadBalancerPolicy", name,
           "proxy.balancing least_request (Envoy's power of two choices)" +
               std::string(policy.present() ? "" : " (the chart's default)"));
  } else if (name == "ROUND_ROBIN") {
    out_.proxy.balancing = ProxyBalancing::round_robin;
    record(policy, "envoy.loadBalancerPolicy", name, "proxy.balancing round_robin");
  } else if (name == "RANDOM" || name == "RING_HASH" || name == "MAGLEV") {
    out_.proxy.balancing = ProxyBalancing::random;
    record(policy, "envoy.loadBalancerPolicy", name,
           name == "RANDOM" ? "proxy.balancing random"
                            : "proxy.balancing random: the chart's route sets no hash policy, and a hashing "
                              "balancer without one hashes a random value per request");
  } else {
    policy.fail_value("one of the chart's policies: ROUND_ROBIN, LEAST_REQUEST, RING_HASH, RANDOM, MAGLEV");
  }
  const Cursor limiters = envoy["rate_limiter"];
  const Cursor prometheus = limiters["prometheus_based"];
  if (prometheus["enabled"].present() && flag(prometheus["enabled"])) {
    // cfg/envoy-filter.lua: a client's RepositoryIndex call (its connection, at a job's start) is refused
    // while the same query as KEDA's is above the same threshold; the query reads Prometheus's latest
    // samples, which change once per scrape.
    // The main branch compares the metric with its own admission threshold (per healthy replica for the
    // occupancy metric); 0.3.1 with the autoscaler's.
    RateLimit limit;
    limit.metric = metric_;
    limit.aggregation = aggregation_;
    limit.threshold = main() ? admission_threshold_ : threshold_s_;
    limit.poll_interval_s = scrape_interval_s_;
    limit.refuse = RateLimit::Refuse::new_clients;
    out_.proxy.rate_limit = limit;
    const std::string threshold = load_metric_in_seconds(metric_)
                                      ? text_of(limit.threshold * 1e3) + "ms"
                                      : text_of(limit.threshold) + " replicas needed per serving replica";
    record(prometheus["enabled"], "envoy.rate_limiter.prometheus_based.enabled", "true",
           "proxy.rate_limit: new clients refused while the metric is above " + threshold +
               ", read every scrape (" + text_of(scrape_interval_s_) + " s)");
  }
  const Cursor listener = limiters["listener_level"];
  if (listener["enabled"].present() && flag(listener["enabled"]))
    out_.notes.push_back(
        "envoy.rate_limiter.listener_level (line " + std::to_string(line_of(listener["enabled"])) +
        "): a token bucket on new connections is NOT simulated; each job connects once, so it delays the "
        "start of jobs beyond the bucket's max_tokens by tokens_per_fill per fill_interval (the chart's 1 "
        "per "
        "12 s lets 300 jobs connect in an hour)");
  if (const Cursor timeout = envoy["grpc_route_timeout"]; timeout.present()) {
    const std::string text = timeout.scalar("a duration");
    const auto seconds = prometheus_duration_s(text);
    if (seconds && *seconds > 0)
      out_.notes.push_back("envoy.grpc_route_timeout " + text + " (line " + std::to_string(line_of(timeout)) +
                           "): Envoy ends a request after it; sonicsim's nearest setting is the client's "
                           "workload.client.timeout, which the import does not set");
  }
  if (const Cursor replicas = envoy["replicas"]; replicas.present()) {
    const double n = number(replicas, "a whole number of Envoy replicas, 1 to 10000");
    if (n < 1 || n > 10'000 || std::floor(n) != n)
      replicas.fail_value("a whole number of Envoy replicas, 1 to 10000");
    out_.proxy.replicas = static_cast<int>(n);
    if (n > 1)
      out_.notes.push_back("envoy.replicas above 1: each proxy balances its own clients' requests; sonicsim "
                           "simulates one proxy that sees every request, with the replicas' circuit breakers "
                           "added");
  }
  record(envoy["replicas"], "envoy.replicas", std::to_string(out_.proxy.replicas),
         "proxy.replicas: Envoy's circuit breaker admits " + std::to_string(out_.proxy.max_requests) +
             " requests in flight per replica (its default; the chart sets none), " +
             std::to_string(out_.proxy.request_limit()) + " in all, the excess failing at once");
  out_.notes.push_back("envoy.image, args, resources, service, ingress, auth, tracing_sampling_rate, "
                       "external_config: not simulated (the proxy forwards without adding time)");
}

} // namespace sonicsim::detail
