// A server group whose pods change in time (sim/scenario/operations.hpp): the autoscaler's loop (a poll
// timer reads the group's metric; AutoscalerPolicy decides; new pods serve after their start-up delay;
// removed pods drain), pod failures and restarts, and the proxy in front (per-request balancing among the
// serving pods, the rate limit). Decisions are the policies' (sim/policy/autoscaler.hpp,
// proxy_balancer.hpp); this only carries them out, on calendar events (event_calendar.hpp).
//
// Pod states: off -> starting -> serving -> draining -> off; serving or starting -> failed -> serving (after
// the restart delay) or off (when the autoscaler no longer wants it). The Deployment's pod count, which
// the autoscaler reads and sets, counts starting, serving and failed pods; a pod holds its devices (and is
// billed) in every state but off.
#pragma once

#include "sim/components/inference_server.hpp"
#include "sim/kernel/event_calendar.hpp"
#include "sim/metrics/operations_recorder.hpp"
#include "sim/metrics/server_metrics.hpp"
#include "sim/policy/autoscaler.hpp"
#include "sim/policy/proxy_balancer.hpp"
#include "sim/scenario/scenario.hpp"

#include "sim/random/random_engine.hpp"
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <vector>

namespace sonicsim {

class ServerPool {
public:
  struct Pod {
    int number = 0;                        // the pod's global number (ServerLayout)
    PodResources* resources = nullptr;     // its load counters
    std::vector<InferenceServer*> servers; // one per model it serves
  };
  // `stopped` and `jobs_done` are the run's flags (JobContext): the pool's timers do nothing once either is
  // set, so that its periodic polls never keep a finished run going.
  // `metrics`: the servers' metrics when the run writes them (told when a pod starts or stops running);
  // none otherwise.
  ServerPool(const Scenario& scenario, int group, std::vector<Pod> pods, OperationsRecorder& recorder,
             const bool* stopped, const bool* jobs_done, ServerMetrics* metrics = nullptr);
  ServerPool(const ServerPool&) = delete;
  ServerPool& operator=(const ServerPool&) = delete;

  // At time 0: the first pods serve (autoscaler.min, or every pod), the polls and failures are armed.
  void start();
  // The pod (global number) for the next request, leaving out `avoid` when another serves; none when no pod
  // serves.
  std::optional<int> route(std::optional<int> avoid);
  // A request was routed to `pod` / has been answered, lost or given up: least_request's counts, and a
  // draining pod leaves once it has none.
  void request_sent(int pod);
  void request_done(int pod);
  // A new client's first call (Triton's RepositoryIndex) is held now: the group scales to zero
  // (autoscaler.scale_to_zero) and no pod serves.
  bool holds_new_clients() const;
  // Holds it at the proxy until a pod serves, then `then(true)`, or until the hold times out, then
  // `then(false)` (the client is refused). Only when holds_new_clients().
  void hold_new_client(std::function<void(bool)> then);
  // A new client's first call (its RepositoryIndex) reached the proxy: it holds the group's pods for
  // autoscaler.scale_to_zero.hold_min from now.
  void client_connected() { last_index_call_s_ = calendar::now_s(); }
  // Envoy's circuit breaker: the group's requests in flight are at proxy.max_requests x replicas, so the
  // next one fails at once.
  bool circuit_open() const { return in_flight_ >= request_limit_; }
  // The rate limit's last reading is above its threshold.
  bool refuses_new_clients() const;
  bool refuses_requests() const;
  int first_pod() const { return first_pod_; }

private:
  enum class State { off, starting, serving, draining, failed };
  struct PodState {
    State state = State::off;
    unsigned serial = 0;    // bumped at each change: a timer armed for an older state does nothing
    double decided_s = 0.0; // when the autoscaler asked for it (starting)
    int outstanding = 0;    // requests routed to it and not yet done
    bool added_by_autoscaler = false;
  };
  // The metric over the pods that serve (or drain), since `since` (a snapshot of their counters).
  struct Snapshot {
    double time_s = 0.0;
    std::vector<PodLoad> loads; // empty: every pod's counters at zero (the run's start)
    std::vector<char> scraped;  // per pod: it ran (served or drained) when read; Prometheus has its series
  };
  // The counters read at past polls, oldest first: a poll reads the metric since the latest one at least
  // `window_s` old (the run's start, before there is one).
  using History = std::deque<Snapshot>;
  // What a query reads about the group, given a window's end. Aggregation applies to queue time only.
  struct MetricQuery {
    LoadMetric metric = LoadMetric::queue_time_per_batch;
    MetricAggregation aggregation = MetricAggregation::ratio_of_sums;
  };
  double read_metric(const MetricQuery& query, History& history, double window_s) const;
  // The same from Prometheus's samples (autoscaler.scrape_interval): between the first and the last sample
  // of the window, as rate() takes them.
  double read_scraped_metric(const MetricQuery& query, double window_s);
  Snapshot snapshot(double time_s) const;
  double metric_between(const MetricQuery& query, const Snapshot& since, const Snapshot& until) const;
  void scrape();
  template <class Then> void at(double time_s, Then then);
  // The autoscaler's metric now, over max(clock, metric_window) or from the scrapes.
  double read_autoscaler_metric(History& history, double clock_s);
  // The HPA's sync: the metric read and the pod count decided between min and max (sync_period).
  void sync();
  // KEDA's poll (scale_to_zero only): activation from 0 by load or a held client, to 0 after idle_period
  // without activity (poll_interval).
  void poll_activation();
  void poll_rate_limit();
  void release_held();
  void scale_to(int wanted);
  void set_state(std::size_t pod, State state);
  void arm_failure(std::size_t pod);
  void fail(std::size_t pod);
  void leave_if_drained(std::size_t pod);
  int pod_count() const; // starting + serving + failed
  void report() const;

  const ServerGroup& group_;
  int group_index_;
  int first_pod_;
  std::vector<Pod> pods_;
  std::vector<PodState> states_;
  std::vector<int> serving_;     // local indices of serving pods, in order
  std::vector<int> outstanding_; // per local pod, for the balancer
  OperationsRecorder& recorder_;
  ServerMetrics* metrics_;
  const bool* stopped_;
  const bool* jobs_done_;
  std::optional<AutoscalerPolicy> autoscaler_;
  std::optional<ProxyBalancer> balancer_;
  RandomEngine proxy_rng_, failure_rng_;
  History autoscaler_history_, activation_history_, limiter_history_;
  History samples_;       // Prometheus's scrapes within the autoscaler's window (autoscaler.scrape_interval)
  bool limiting_ = false; // the rate limit's last reading was above its threshold
  int wanted_ = 0;        // the Deployment's pod count, as last set
  struct HeldClient {
    double since_s = 0.0;
    std::function<void(bool)> then;
  };
  std::map<std::uint64_t, HeldClient> held_; // by arrival: released in the order they came
  std::uint64_t next_held_ = 0;
  double last_active_s_ = 0.0;        // the last poll that found the group active (scale_to_zero)
  double last_index_call_s_ = -1e300; // the last new client's first call (scale_to_zero.hold_min)
  long long in_flight_ = 0;           // requests routed and not yet done, over the pods
  long long request_limit_ = 0;       // the circuit breaker's: proxy max_requests x replicas
  // A draining pod's pre-stop period is over: its servers stop, resetting what they hold.
  void end_drain(std::size_t pod);
};

} // namespace sonicsim
