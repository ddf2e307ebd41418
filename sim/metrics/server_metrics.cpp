#include "sim/metrics/server_metrics.hpp"

#include "sim/metrics/device_table.hpp"

#include <algorithm>
#include <cmath>

namespace sonicsim {
namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

// The labels SuperSONIC's scrape adds to every series of a pod (its ServiceMonitor's target labels), and
// which its dashboard filters on.
Labels scrape_labels(const std::string& release, const std::string& pod) {
  return {{"app", "supersonic"}, {"namespace", "sonicsim"}, {"pod", pod}, {"release", release}};
}

Labels joined(Labels first, const Labels& then) {
  first.insert(first.end(), then.begin(), then.end());
  return first;
}

} // namespace

ServerMetrics::ServerMetrics(double interval_s, std::vector<std::string> model_names, std::vector<Pod> pods)
    : interval_s_(interval_s), model_names_(std::move(model_names)), pods_(std::move(pods)) {
  for (std::size_t p = 0; p < pods_.size(); ++p) {
    const Pod& pod = pods_[p];
    counters_.emplace_back(pod.models.size(), Counters(interval_s_));
    up_.push_back(pod.runs_from_start ? std::vector<Interval>{Interval{}} : std::vector<Interval>{});
    for (int d = 0; d < pod.devices; ++d) {
      const auto device = static_cast<std::size_t>(pod.first_device + d);
      if (device_pod_.size() <= device) {
        device_pod_.resize(device + 1, -1);
        device_busy_s_.resize(device + 1, TimeBins(interval_s_));
      }
      device_pod_[device] = static_cast<int>(p);
    }
    auto release = std::find(releases_.begin(), releases_.end(), pod.release);
    if (release == releases_.end()) {
      releases_.push_back(pod.release);
      proxy_time_ms_.emplace_back(interval_s_);
      proxy_requests_.emplace_back(interval_s_);
      proxied_.push_back(0);
      release = releases_.end() - 1;
    }
    pod_release_.push_back(static_cast<int>(release - releases_.begin()));
  }
}

void ServerMetrics::batch_done(const Batch& b) {
  const auto pod = static_cast<std::size_t>(b.pod);
  const auto& models = pods_[pod].models;
  const auto at = std::find(models.begin(), models.end(), b.model);
  if (at == models.end()) return;
  Counters& c = counters_[pod][static_cast<std::size_t>(at - models.begin())];
  const double n = b.requests;
  // Triton counts at completion; a batch's input, execution and output times count once per request it
  // holds (its documentation of the cumulative durations).
  c.requests.add_at(b.done_s, n);
  c.inferences.add_at(b.done_s, b.inferences);
  c.executions.add_at(b.done_s, 1.0);
  c.queue_us.add_at(b.exec_start_s, b.queue_wait_sum_s * 1e6);
  c.input_us.add_at(b.done_s, n * b.input_s * 1e6);
  c.infer_us.add_at(b.done_s, n * (b.exec_end_s - b.exec_start_s) * 1e6);
  c.output_us.add_at(b.done_s, n * b.output_s * 1e6);
  const double request_sum_s = b.queue_wait_sum_s + n * (b.done_s - b.queue_end_s);
  c.request_us.add_at(b.done_s, request_sum_s * 1e6);
  if (!b.through_proxy) return;
  // Envoy's downstream request time, in ms: the server's request duration (the proxy's own time and the
  // transfer between proxy and pod are not simulated).
  const auto release = static_cast<std::size_t>(pod_release_[pod]);
  proxied_[release] = 1;
  proxy_time_ms_[release].add_at(b.done_s, request_sum_s * 1e3);
  proxy_requests_[release].add_at(b.done_s, n);
}

void ServerMetrics::device_busy(int device, double start_s, double end_s) {
  const auto d = static_cast<std::size_t>(device);
  if (d < device_busy_s_.size() && device_pod_[d] >= 0)
    device_busy_s_[d].add_spread(start_s, end_s, end_s - start_s);
}

void ServerMetrics::pod_up(int pod, double at_s) {
  auto& intervals = up_[static_cast<std::size_t>(pod)];
  if (!intervals.empty() && std::isinf(intervals.back().to_s)) return; // already up
  intervals.push_back({at_s, std::numeric_limits<double>::infinity()});
}

void ServerMetrics::pod_down(int pod, double at_s) {
  auto& intervals = up_[static_cast<std::size_t>(pod)];
  if (!intervals.empty() && std::isinf(intervals.back().to_s)) intervals.back().to_s = at_s;
}

ServerMetrics::Sampling ServerMetrics::sampling(double end_s) const {
  Sampling sampled;
  for (double t = 0.0; t < end_s; t += interval_s_)
    ++sampled.rows;
  sampled.since.assign(pods_.size(), std::vector<double>(sampled.rows, std::nan("")));
  for (std::size_t p = 0; p < pods_.size(); ++p)
    for (const auto& interval : up_[p])
      for (std::size_t r = 0; r < sampled.rows; ++r)
        if (interval.from_s <= row_end(r) && row_end(r) < interval.to_s)
          sampled.since[p][r] = interval.from_s;
  return sampled;
}

std::vector<char> ServerMetrics::Sampling::present(std::size_t pod) const {
  std::vector<char> mask(rows);
  for (std::size_t r = 0; r < rows; ++r)
    mask[r] = std::isnan(since[pod][r]) ? 0 : 1;
  return mask;
}

std::vector<double> ServerMetrics::counter(const Sampling& sampled, std::size_t pod,
                                           const TimeBins& bins) const {
  // A counter since its pod's (re)start, at each row it runs.
  const auto& since = sampled.since[pod];
  std::vector<double> values(sampled.rows, 0.0);
  double total = 0.0;
  for (std::size_t r = 0; r < sampled.rows; ++r) {
    if (std::isnan(since[r])) continue;
    const bool continuing = r > 0 && since[r - 1] == since[r];
    if (!continuing) total = 0.0;
    total += bins.sum_between(continuing ? row_end(r) - interval_s_ : since[r], row_end(r));
    values[r] = total;
  }
  return values;
}

std::string ServerMetrics::pod_name(std::size_t pod) const {
  return pods_[pod].release + "-triton-" + std::to_string(pods_[pod].index_in_group);
}

void ServerMetrics::add_triton(std::vector<MetricFamily>& out, const Sampling& sampled) const {
  std::vector<MetricFamily> families{
      {"nv_inference_request_success",
       "unknown",
       "Number of successful inference requests, all batch sizes",
       {}},
      {"nv_inference_count", "unknown", "Number of inferences performed (a batch of n counts n)", {}},
      {"nv_inference_exec_count", "unknown", "Number of model executions performed (batches)", {}},
      {"nv_inference_queue_duration_us",
       "unknown",
       "Cumulative inference queuing duration in microseconds",
       {}},
      {"nv_inference_compute_input_duration_us",
       "unknown",
       "Cumulative compute input duration in microseconds (each request of a batch counts the batch's)",
       {}},
      {"nv_inference_compute_infer_duration_us",
       "unknown",
       "Cumulative compute inference duration in microseconds (each request of a batch counts its execution)",
       {}},
      {"nv_inference_compute_output_duration_us",
       "unknown",
       "Cumulative compute output duration in microseconds (each request of a batch counts the batch's)",
       {}},
      {"nv_inference_request_duration_us",
       "unknown",
       "Cumulative inference request duration in microseconds, from arrival to the reply",
       {}}};
  for (std::size_t p = 0; p < pods_.size(); ++p) {
    const Pod& pod = pods_[p];
    const std::vector<char> present = sampled.present(p);
    for (std::size_t k = 0; k < pod.models.size(); ++k) {
      const Counters& c = counters_[p][k];
      const Labels labels =
          joined({{"model", model_names_[static_cast<std::size_t>(pod.models[k])]}, {"version", "1"}},
                 scrape_labels(pod.release, pod_name(p)));
      const TimeBins* bins[] = {&c.requests, &c.inferences, &c.executions, &c.queue_us,
                                &c.input_us, &c.infer_us,   &c.output_us,  &c.request_us};
      for (std::size_t f = 0; f < families.size(); ++f)
        families[f].series.push_back({labels, counter(sampled, p, *bins[f]), present});
    }
  }
  for (auto& family : families)
    out.push_back(std::move(family));
}

void ServerMetrics::add_gpus(std::vector<MetricFamily>& out, const Sampling& sampled) const {
  const std::size_t rows = sampled.rows;
  MetricFamily utilisation{"nv_gpu_utilization", "gauge", "GPU utilization rate [0.0 - 1.0)", {}};
  MetricFamily power{"nv_gpu_power_usage",
                     "gauge",
                     "GPU power usage in watts: the power limit x utilisation (idle draw is not simulated)",
                     {}};
  MetricFamily limit{
      "nv_gpu_power_limit", "gauge", "GPU power management limit in watts (the type's datasheet)", {}};
  MetricFamily memory_total{
      "nv_gpu_memory_total_bytes", "gauge", "GPU total memory in bytes (the type's datasheet)", {}};
  MetricFamily memory_used{
      "nv_gpu_memory_used_bytes", "gauge", "GPU used memory in bytes: not simulated, written as 0", {}};
  for (std::size_t d = 0; d < device_pod_.size(); ++d) {
    if (device_pod_[d] < 0) continue;
    const auto p = static_cast<std::size_t>(device_pod_[d]);
    const Labels labels = joined({{"gpu_uuid", "GPU-sonicsim-" + std::to_string(d)}},
                                 scrape_labels(pods_[p].release, pod_name(p)));
    const std::vector<char> present = sampled.present(p);
    std::vector<double> busy(rows);
    for (std::size_t r = 0; r < rows; ++r)
      busy[r] =
          std::min(1.0, device_busy_s_[d].sum_between(row_end(r) - interval_s_, row_end(r)) / interval_s_);
    utilisation.series.push_back({labels, busy, present});
    const auto spec = device_spec(pods_[p].device_type);
    if (!spec) continue;
    std::vector<double> watts(rows);
    for (std::size_t r = 0; r < rows; ++r)
      watts[r] = spec->power_limit_w * busy[r];
    power.series.push_back({labels, watts, present});
    limit.series.push_back({labels, std::vector<double>(rows, spec->power_limit_w), present});
    memory_total.series.push_back({labels, std::vector<double>(rows, spec->memory_bytes), present});
    memory_used.series.push_back({labels, std::vector<double>(rows, 0.0), present});
  }
  for (auto* family : {&utilisation, &power, &limit, &memory_total, &memory_used})
    out.push_back(std::move(*family));
}

void ServerMetrics::add_proxies(std::vector<MetricFamily>& out, const Sampling& sampled) const {
  // Envoy, one proxy per group with one in front: its request time histogram's sum and count, and how many
  // of the group's servers its cluster holds.
  MetricFamily time_sum{"envoy_http_downstream_rq_time_sum",
                        "unknown",
                        "Total request time in ms at the proxy (the servers' request durations)",
                        {}};
  MetricFamily time_count{
      "envoy_http_downstream_rq_time_count", "unknown", "Requests answered at the proxy", {}};
  MetricFamily members{
      "envoy_cluster_membership_healthy", "gauge", "Triton servers running behind the proxy", {}};
  MetricFamily clients{"envoy_http_downstream_cx_active",
                       "gauge",
                       "Client connections at the proxy: the jobs running, each connected to every proxy "
                       "(mean over the sample's interval)",
                       {}};
  const std::size_t rows = sampled.rows;
  for (std::size_t g = 0; g < releases_.size(); ++g) {
    if (!proxied_[g]) continue; // no proxy in front of this group
    const Labels scrape = scrape_labels(releases_[g], releases_[g] + "-envoy-0");
    const Labels prefix = joined({{"envoy_http_conn_manager_prefix", "ingress_grpc"}}, scrape);
    std::vector<double> sum(rows), count(rows), running(rows, 0.0), connected(rows);
    double total_ms = 0.0, total = 0.0;
    for (std::size_t r = 0; r < rows; ++r) {
      total_ms += proxy_time_ms_[g].sum_between(row_end(r) - interval_s_, row_end(r));
      total += proxy_requests_[g].sum_between(row_end(r) - interval_s_, row_end(r));
      sum[r] = total_ms;
      count[r] = total;
      connected[r] = job_s_.sum_between(row_end(r) - interval_s_, row_end(r)) / interval_s_;
      for (std::size_t p = 0; p < pods_.size(); ++p)
        if (static_cast<std::size_t>(pod_release_[p]) == g && !std::isnan(sampled.since[p][r]))
          running[r] += 1.0;
    }
    time_sum.series.push_back({prefix, sum, {}});
    time_count.series.push_back({prefix, count, {}});
    members.series.push_back({joined({{"envoy_cluster_name", "triton_grpc_service"}}, scrape), running, {}});
    clients.series.push_back({prefix, connected, {}});
  }
  for (auto* family : {&time_sum, &time_count, &members, &clients})
    out.push_back(std::move(*family));
}

std::vector<MetricFamily> ServerMetrics::families(double end_s) const {
  const Sampling sampled = sampling(end_s);
  std::vector<MetricFamily> out;
  add_triton(out, sampled);
  add_gpus(out, sampled);
  add_proxies(out, sampled);
  return out;
}

} // namespace sonicsim
