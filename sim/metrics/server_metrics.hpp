// The servers' metrics as a SuperSONIC deployment's Prometheus holds them (helm/supersonic's
// dashboards/default.json and KEDA's query read them): Triton's counters per pod and model, its GPU gauges
// per device, Envoy's request time and cluster membership per group, each series labelled as SuperSONIC's
// scrape labels them (app, release, namespace, pod; model and version; gpu_uuid), sampled at a fixed interval
// (5 s, as SuperSONIC's Prometheus scrapes) and present only while its pod runs, as a scrape sees it. A
// restarted pod's counters start again from 0, as Triton's do. Pure code: the recorder feeds it.
#pragma once

#include "sim/metrics/openmetrics.hpp"
#include "sim/metrics/time_bins.hpp"

#include <limits>
#include <string>
#include <vector>

namespace sonicsim {

class ServerMetrics {
public:
  struct Pod {
    std::string release;     // its server group's name: SuperSONIC's Helm release
    int index_in_group = 0;  // names it: RELEASE-triton-N
    std::vector<int> models; // the models it serves (indices into `model_names`)
    int first_device = 0, devices = 0;
    std::string device_type;
    bool runs_from_start = true; // false: a pool starts it (pod_up)
  };
  ServerMetrics(double interval_s, std::vector<std::string> model_names, std::vector<Pod> pods);

  // A batch of `requests` requests (`inferences` inferences) of `model` on `pod`: its queue time summed over
  // its requests up to `queue_end_s`, executed from exec_start_s to exec_end_s, the host's input and output
  // work, done (answered) at `done_s`.
  struct Batch {
    int pod = 0, model = 0, requests = 0, inferences = 0;
    double queue_wait_sum_s = 0.0, queue_end_s = 0.0;
    double input_s = 0.0, exec_start_s = 0.0, exec_end_s = 0.0, output_s = 0.0, done_s = 0.0;
    bool through_proxy = false; // the group has an Envoy proxy in front (a pooled group)
  };
  void batch_done(const Batch& batch);
  void device_busy(int device, double start_s, double end_s);
  // A pool's pod starts (serving or draining: scraped) and stops (off or failed).
  void pod_up(int pod, double at_s);
  void pod_down(int pod, double at_s);
  // A job ran from start_s to end_s: one client connected to every proxy (Envoy's downstream connection).
  void job_interval(double start_s, double end_s) { job_s_.add_spread(start_s, end_s, end_s - start_s); }

  // The families at rows of `interval_s` up to end_s, with the labels above.
  std::vector<MetricFamily> families(double end_s) const;
  double interval_s() const { return interval_s_; }

private:
  struct Counters {
    TimeBins requests, inferences, executions, queue_us, input_us, infer_us, output_us, request_us;
    explicit Counters(double width_s)
        : requests(width_s), inferences(width_s), executions(width_s), queue_us(width_s), input_us(width_s),
          infer_us(width_s), output_us(width_s), request_us(width_s) {}
  };
  struct Interval {
    double from_s = 0.0;
    double to_s = std::numeric_limits<double>::infinity();
  };
  // Which pods run at each row's end (the start of the interval they run in, NaN when not running).
  struct Sampling {
    std::size_t rows = 0;
    std::vector<std::vector<double>> since; // per pod, per row
    std::vector<char> present(std::size_t pod) const;
  };
  Sampling sampling(double end_s) const;
  double row_end(std::size_t row) const { return static_cast<double>(row + 1) * interval_s_; }
  std::vector<double> counter(const Sampling& sampled, std::size_t pod, const TimeBins& bins) const;
  std::string pod_name(std::size_t pod) const;
  void add_triton(std::vector<MetricFamily>& out, const Sampling& sampled) const;
  void add_gpus(std::vector<MetricFamily>& out, const Sampling& sampled) const;
  void add_proxies(std::vector<MetricFamily>& out, const Sampling& sampled) const;

  double interval_s_;
  std::vector<std::string> model_names_;
  std::vector<Pod> pods_;
  std::vector<std::vector<Counters>> counters_; // per pod, per model it serves (in Pod::models order)
  std::vector<std::vector<Interval>> up_;       // per pod: when it ran
  std::vector<TimeBins> device_busy_s_;         // per device
  std::vector<int> device_pod_;
  std::vector<TimeBins> proxy_time_ms_, proxy_requests_; // per group release, in `releases_` order
  TimeBins job_s_{interval_s_};                          // job-seconds: the clients connected
  std::vector<std::string> releases_;
  std::vector<char> proxied_; // per release: its requests went through a proxy
  std::vector<int> pod_release_;
};

} // namespace sonicsim
