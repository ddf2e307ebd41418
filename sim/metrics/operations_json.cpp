#include "sim/metrics/operations_json.hpp"

namespace sonicsim {
namespace {

using json = nlohmann::ordered_json;

std::optional<double> optional_from(const json& in, const char* key) {
  if (!in.contains(key) || in.at(key).is_null()) return std::nullopt;
  return in.at(key).get<double>();
}

} // namespace

json operations_to_json(const OperationsSummary& operations) {
  json pools = json::array();
  for (const auto& p : operations.pools) {
    pools.push_back({{"group", p.group},
                     {"autoscaled", p.autoscaled},
                     {"min_pods", p.min_pods},
                     {"max_pods", p.max_pods},
                     {"peak_pods", p.peak_pods},
                     {"mean_serving_pods", p.mean_serving_pods},
                     {"mean_held_pods", p.mean_held_pods},
                     {"device_hours", p.device_hours},
                     {"static_peak_device_hours", p.static_peak_device_hours},
                     {"pod_hours", p.pod_hours},
                     {"pods_added", p.pods_added},
                     {"pods_removed", p.pods_removed},
                     {"pod_failures", p.pod_failures}});
    // Figures a run does not define (no pod added, no prices) are left out, never written as null.
    json& pool = pools.back();
    if (p.first_scale_up_decided_s) pool["first_scale_up_decided_s"] = *p.first_scale_up_decided_s;
    if (p.first_scale_up_serving_s) pool["first_scale_up_serving_s"] = *p.first_scale_up_serving_s;
    if (p.cost_usd) pool["cost_usd"] = *p.cost_usd;
  }
  const EventOutcomes& e = operations.events;
  json out = {{"pools", pools},
              {"events",
               {{"started", e.started},
                {"completed", e.completed},
                {"completed_after_retry", e.completed_after_retry},
                {"completed_with_fallback", e.completed_with_fallback},
                {"failed_rejected", e.failed_rejected},
                {"failed_timed_out", e.failed_timed_out},
                {"failed_preempted", e.failed_preempted},
                {"in_progress_at_end", e.in_progress_at_end}}},
              {"requests",
               {{"timed_out", operations.requests_timed_out},
                {"refused", operations.requests_refused},
                {"overflowed", operations.requests_overflowed},
                {"reset_at_drain_end", operations.requests_reset},
                {"to_fallback", operations.requests_to_fallback},
                {"lost", operations.requests_lost}}},
              {"clients_refused", operations.clients_refused},
              {"jobs_preempted", operations.jobs_preempted},
              {"events_resubmitted", operations.events_resubmitted}};
  if (const auto& h = operations.client_holds) {
    out["clients_held"] = {{"released", h->released},
                           {"timed_out", h->timed_out},
                           {"total_held_s", h->total_held_s},
                           {"longest_held_s", h->longest_held_s}};
  }
  // Only when a job was abandoned: the runs of before keep their summary.json.
  if (operations.jobs_abandoned > 0) {
    out["jobs_abandoned"] = operations.jobs_abandoned;
    out["events_abandoned"] = operations.events_abandoned;
  }
  return out;
}

namespace {

// A pool's count under its name, or under the name files written before pods had one name ("replicas").
json count_at(const json& pool, const std::string& name) {
  if (pool.contains(name)) return pool.at(name);
  std::string old = name;
  old.replace(old.find("pods"), 4, "replicas");
  return pool.at(old.c_str()); // throws naming the key when neither is there
}

} // namespace

OperationsSummary operations_from_json(const json& in) {
  OperationsSummary out;
  for (const auto& p : in.at("pools")) {
    PoolSummary s;
    s.group = p.at("group").get<std::string>();
    s.autoscaled = p.at("autoscaled").get<bool>();
    s.min_pods = count_at(p, "min_pods").get<int>();
    s.max_pods = count_at(p, "max_pods").get<int>();
    s.peak_pods = count_at(p, "peak_pods").get<int>();
    s.mean_serving_pods = count_at(p, "mean_serving_pods").get<double>();
    s.mean_held_pods = count_at(p, "mean_held_pods").get<double>();
    s.device_hours = p.at("device_hours").get<double>();
    s.static_peak_device_hours = p.at("static_peak_device_hours").get<double>();
    s.pod_hours = p.at("pod_hours").get<double>();
    s.pods_added = p.at("pods_added").get<int>();
    s.pods_removed = p.at("pods_removed").get<int>();
    s.pod_failures = p.at("pod_failures").get<int>();
    s.first_scale_up_decided_s = optional_from(p, "first_scale_up_decided_s");
    s.first_scale_up_serving_s = optional_from(p, "first_scale_up_serving_s");
    s.cost_usd = optional_from(p, "cost_usd");
    out.pools.push_back(s);
  }
  const json& e = in.at("events");
  out.events.started = e.at("started").get<std::uint64_t>();
  out.events.completed = e.at("completed").get<std::uint64_t>();
  out.events.completed_after_retry = e.at("completed_after_retry").get<std::uint64_t>();
  out.events.completed_with_fallback = e.at("completed_with_fallback").get<std::uint64_t>();
  out.events.failed_rejected = e.at("failed_rejected").get<std::uint64_t>();
  out.events.failed_timed_out = e.at("failed_timed_out").get<std::uint64_t>();
  out.events.failed_preempted = e.at("failed_preempted").get<std::uint64_t>();
  out.events.in_progress_at_end = e.at("in_progress_at_end").get<std::uint64_t>();
  const json& r = in.at("requests");
  out.requests_timed_out = r.at("timed_out").get<std::uint64_t>();
  out.requests_refused = r.at("refused").get<std::uint64_t>();
  out.requests_overflowed = r.value("overflowed", std::uint64_t{0});
  out.requests_reset = r.value("reset_at_drain_end", std::uint64_t{0});
  out.requests_to_fallback = r.at("to_fallback").get<std::uint64_t>();
  out.requests_lost = r.at("lost").get<std::uint64_t>();
  out.clients_refused = in.at("clients_refused").get<std::uint64_t>();
  out.jobs_preempted = in.at("jobs_preempted").get<std::uint64_t>();
  out.events_resubmitted = in.at("events_resubmitted").get<std::uint64_t>();
  if (in.contains("clients_held")) {
    const json& h = in.at("clients_held");
    out.client_holds =
        ClientHolds{h.at("released").get<std::uint64_t>(), h.at("timed_out").get<std::uint64_t>(),
                    h.at("total_held_s").get<double>(), h.at("longest_held_s").get<double>()};
  }
  out.jobs_abandoned = in.value("jobs_abandoned", std::uint64_t{0});
  out.events_abandoned = in.value("events_abandoned", std::uint64_t{0});
  return out;
}

} // namespace sonicsim
