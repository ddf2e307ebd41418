#include "sim/components/server_pool.hpp"
#include "sim/kernel/event_calendar.hpp"

#include "sim/random/random_streams.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <algorithm>

namespace sg4 = simgrid::s4u;

namespace sonicsim {

ServerPool::ServerPool(const Scenario& scenario, int group, std::vector<Pod> pods,
                       OperationsRecorder& recorder, const bool* stopped, const bool* jobs_done,
                       ServerMetrics* metrics)
    : group_(scenario.platform.server_groups[static_cast<std::size_t>(group)]), group_index_(group),
      first_pod_(pods.empty() ? 0 : pods.front().number), pods_(std::move(pods)), states_(pods_.size()),
      outstanding_(pods_.size(), 0), recorder_(recorder), metrics_(metrics), stopped_(stopped),
      jobs_done_(jobs_done),
      proxy_rng_(make_stream(scenario.seed, stream_proxy, static_cast<std::uint64_t>(group))),
      failure_rng_(make_stream(scenario.seed, stream_pod_failures, static_cast<std::uint64_t>(group))) {
  if (group_.autoscaler) autoscaler_.emplace(*group_.autoscaler);
  // Without a proxy section the pool still balances each request, as SuperSONIC's Envoy does by default.
  const ProxySettings proxy = group_.proxy.value_or(ProxySettings{});
  balancer_.emplace(proxy.balancing, proxy.choice_count);
  request_limit_ = proxy.request_limit();
}

template <class Then> void ServerPool::at(double time_s, Then then) {
  calendar::at(time_s, [this, then = std::move(then)]() mutable {
    if (!*stopped_ && !*jobs_done_) then();
  });
}

void ServerPool::start() {
  // A group that scales to zero starts idle: its first clients wait for the first pod.
  const int first = group_.autoscaler ? group_.autoscaler->lowest_pods() : static_cast<int>(pods_.size());
  wanted_ = first;
  for (std::size_t p = 0; p < pods_.size() && static_cast<int>(p) < first; ++p)
    set_state(p, State::serving);
  report();
  if (group_.autoscaler) at(group_.autoscaler->sync_period_s, [this]() { sync(); });
  if (group_.autoscaler && group_.autoscaler->scale_to_zero)
    at(group_.autoscaler->poll_interval_s, [this]() { poll_activation(); });
  if (group_.autoscaler && group_.autoscaler->scrape_interval_s) {
    samples_.push_back(snapshot(0.0)); // the first scrape, at the run's start
    at(*group_.autoscaler->scrape_interval_s, [this]() { scrape(); });
  }
  if (group_.proxy && group_.proxy->rate_limit)
    at(group_.proxy->rate_limit->poll_interval_s, [this]() { poll_rate_limit(); });
  if (group_.failures)
    for (const auto& failure : group_.failures->scheduled)
      at(failure.at_s, [this, pod = static_cast<std::size_t>(failure.pod)]() {
        if (states_[pod].state != State::off && states_[pod].state != State::failed) fail(pod);
      });
}

std::optional<int> ServerPool::route(std::optional<int> avoid) {
  std::optional<int> local_avoid;
  if (avoid) local_avoid = *avoid - first_pod_;
  const auto chosen = balancer_->choose(serving_, outstanding_, local_avoid, proxy_rng_);
  if (!chosen) return std::nullopt;
  return first_pod_ + *chosen;
}

void ServerPool::request_sent(int pod) {
  ++outstanding_[static_cast<std::size_t>(pod - first_pod_)];
  ++in_flight_;
}

void ServerPool::request_done(int pod) {
  const auto p = static_cast<std::size_t>(pod - first_pod_);
  if (outstanding_[p] > 0) --outstanding_[p];
  if (in_flight_ > 0) --in_flight_;
  leave_if_drained(p);
}

bool ServerPool::holds_new_clients() const {
  return serving_.empty() && group_.autoscaler && group_.autoscaler->scale_to_zero;
}

void ServerPool::hold_new_client(std::function<void(bool)> then) {
  const double now_s = calendar::now_s();
  const std::uint64_t id = next_held_++;
  held_.emplace(id, HeldClient{now_s, std::move(then)});
  at(now_s + group_.autoscaler->scale_to_zero->hold_timeout_s, [this, id]() {
    const auto found = held_.find(id);
    if (found == held_.end()) return; // released before
    auto refused = std::move(found->second.then);
    held_.erase(found);
    recorder_.client_hold_timed_out();
    refused(false);
  });
}

void ServerPool::release_held() {
  const double now_s = calendar::now_s();
  auto released = std::move(held_);
  held_.clear();
  for (auto& [id, client] : released) {
    recorder_.client_held(now_s - client.since_s);
    client.then(true);
  }
}

bool ServerPool::refuses_new_clients() const {
  return limiting_ && group_.proxy->rate_limit->refuse == RateLimit::Refuse::new_clients;
}

bool ServerPool::refuses_requests() const {
  return limiting_ && group_.proxy->rate_limit->refuse == RateLimit::Refuse::requests;
}

ServerPool::Snapshot ServerPool::snapshot(double time_s) const {
  Snapshot reading{time_s, {}, {}};
  reading.loads.reserve(pods_.size());
  reading.scraped.reserve(pods_.size());
  for (std::size_t p = 0; p < pods_.size(); ++p) {
    reading.loads.push_back(pods_[p].resources->load);
    // Prometheus scrapes the pods that run: serving and draining ones.
    const State state = states_[p].state;
    reading.scraped.push_back(state == State::serving || state == State::draining ? 1 : 0);
  }
  return reading;
}

double ServerPool::metric_between(const MetricQuery& query, const Snapshot& since,
                                  const Snapshot& until) const {
  std::vector<PodWindow> scraped;
  for (std::size_t p = 0; p < pods_.size(); ++p)
    if (until.scraped[p])
      scraped.push_back({since.loads.size() == pods_.size() ? since.loads[p] : PodLoad{}, until.loads[p]});
  return load_metric(query.metric, query.aggregation, scraped, group_.devices_per_pod,
                     until.time_s - since.time_s);
}

double ServerPool::read_metric(const MetricQuery& query, History& history, double window_s) const {
  const double now_s = calendar::now_s();
  if (history.empty()) history.emplace_back(); // the run's start: every counter at zero
  // The latest reading at least a window old (a relative slack, so that a poll exactly one window after
  // another reads from it whatever the rounding of the poll times).
  const double base_until_s = now_s - window_s + 1e-9 * std::max(1.0, window_s);
  while (history.size() > 1 && history[1].time_s <= base_until_s)
    history.pop_front();
  Snapshot reading = snapshot(now_s);
  const double metric = metric_between(query, history.front(), reading);
  history.push_back(std::move(reading));
  return metric;
}

void ServerPool::scrape() {
  const double now_s = calendar::now_s();
  samples_.push_back(snapshot(now_s));
  // Keep what the longest window can still use: the samples within it.
  const AutoscalerSettings& autoscaler = *group_.autoscaler;
  const double keep_s =
      std::max({autoscaler.metric_window_s, autoscaler.sync_period_s, autoscaler.poll_interval_s});
  while (samples_.size() > 2 && samples_[1].time_s < now_s - keep_s - 1e-9 * keep_s)
    samples_.pop_front();
  at(now_s + *group_.autoscaler->scrape_interval_s, [this]() { scrape(); });
}

double ServerPool::read_scraped_metric(const MetricQuery& query, double window_s) {
  const double now_s = calendar::now_s();
  // rate(x[window]) at `now`: the samples in (now - window, now]; with fewer than two the query returns
  // nothing, which KEDA's Prometheus scaler reads as 0 (its ignoreNullValues default).
  const double from_s = now_s - window_s + 1e-9 * std::max(1.0, window_s);
  const Snapshot* first = nullptr;
  const Snapshot* last = nullptr;
  for (const auto& sample : samples_) {
    if (sample.time_s < from_s || sample.time_s > now_s) continue;
    if (!first) first = &sample;
    last = &sample;
  }
  if (!first || first == last) return 0.0;
  return metric_between(query, *first, *last);
}

double ServerPool::read_autoscaler_metric(History& history, double clock_s) {
  const AutoscalerSettings& autoscaler = *group_.autoscaler;
  const MetricQuery query{autoscaler.metric, autoscaler.aggregation};
  if (autoscaler.scrape_interval_s) return read_scraped_metric(query, autoscaler.metric_window_s);
  return read_metric(query, history, std::max(clock_s, autoscaler.metric_window_s));
}

void ServerPool::sync() {
  const double now_s = calendar::now_s();
  const AutoscalerSettings& autoscaler = *group_.autoscaler;
  const double metric = read_autoscaler_metric(autoscaler_history_, autoscaler.sync_period_s);
  recorder_.polled(group_index_, now_s, metric);
  // At zero pods the HPA does nothing (KEDA has scaled the Deployment to its idle count); KEDA's own poll
  // brings it back.
  if (!(autoscaler.scale_to_zero && pod_count() == 0))
    scale_to(autoscaler_->decide(now_s, metric, pod_count()));
  at(now_s + autoscaler.sync_period_s, [this]() { sync(); });
}

void ServerPool::poll_activation() {
  const double now_s = calendar::now_s();
  const AutoscalerSettings& autoscaler = *group_.autoscaler;
  const double metric = read_autoscaler_metric(activation_history_, autoscaler.poll_interval_s);
  // KEDA's activity check: the trigger is active when its metric is above 0 (its activation threshold) or,
  // with the proxy's hold, when a client waits.
  const auto& zero = *autoscaler.scale_to_zero;
  const bool active = metric > zero.activation_threshold || !held_.empty();
  if (active) last_active_s_ = now_s;
  // SuperSONIC's hold: the ScaledObject's minimum stays at 1 until hold_min after the last new client.
  const bool held_by_client = now_s - last_index_call_s_ < zero.hold_min_s - 1e-9;
  if (pod_count() == 0) {
    // KEDA activates the Deployment at min pods; the HPA decides from its next sync on.
    if (active) scale_to(autoscaler.min_pods);
  } else if (!held_by_client && now_s - last_active_s_ >= zero.idle_period_s - 1e-9) {
    scale_to(0); // KEDA's idleReplicaCount 0 after cooldownPeriod without activity
  }
  at(now_s + autoscaler.poll_interval_s, [this]() { poll_activation(); });
}

void ServerPool::poll_rate_limit() {
  const RateLimit& limit = *group_.proxy->rate_limit;
  double reading = read_metric({limit.metric, limit.aggregation}, limiter_history_, limit.poll_interval_s);
  // Pods needed is a total: the admission threshold is per serving pod (SuperSONIC's 3 against its
  // autoscaler's 2), so the proxy refuses only when the pods there are cannot keep up.
  if (limit.metric == LoadMetric::pods_needed)
    reading = serving_.empty() ? 0.0 : reading / static_cast<double>(serving_.size());
  limiting_ = reading > limit.threshold;
  at(calendar::now_s() + limit.poll_interval_s, [this]() { poll_rate_limit(); });
}

int ServerPool::pod_count() const {
  int n = 0;
  for (const auto& s : states_)
    n += s.state == State::starting || s.state == State::serving || s.state == State::failed ? 1 : 0;
  return n;
}

void ServerPool::scale_to(int wanted) {
  const double now_s = calendar::now_s();
  wanted_ = wanted;
  int have = pod_count();
  int added = 0, removed = 0;
  // Up: the lowest-numbered pods that are off start; a draining pod cannot be taken back (Kubernetes
  // terminates it), so it is not counted.
  for (std::size_t p = 0; p < pods_.size() && have < wanted; ++p) {
    if (states_[p].state != State::off) continue;
    set_state(p, State::starting);
    states_[p].decided_s = now_s;
    states_[p].added_by_autoscaler = true;
    at(now_s + serving_delay_s(*group_.autoscaler), [this, p, serial = states_[p].serial]() {
      if (states_[p].serial != serial) return;
      set_state(p, State::serving);
      recorder_.scale_up_serving(group_index_, states_[p].decided_s, calendar::now_s());
      report();
    });
    ++have;
    ++added;
  }
  // Down, as a ReplicaSet picks: failed and starting pods first, then the highest-numbered serving pod.
  for (const State victim : {State::failed, State::starting, State::serving})
    for (std::size_t p = pods_.size(); p-- > 0 && have > wanted;) {
      if (states_[p].state != victim) continue;
      set_state(p, victim == State::serving ? State::draining : State::off);
      if (victim == State::serving) {
        leave_if_drained(p);
        if (states_[p].state == State::draining)
          at(now_s + group_.autoscaler->drain_period_s, [this, p, serial = states_[p].serial]() {
            if (states_[p].serial == serial) end_drain(p);
          });
      }
      --have;
      ++removed;
    }
  if (added + removed > 0) recorder_.scaled(group_index_, added, removed);
  report();
}

void ServerPool::set_state(std::size_t pod, State state) {
  PodState& s = states_[pod];
  const bool was_serving = s.state == State::serving;
  // Prometheus scrapes a pod that runs: serving or draining.
  const auto runs = [](State x) { return x == State::serving || x == State::draining; };
  if (metrics_ && runs(s.state) != runs(state)) {
    const double now_s = calendar::now_s();
    if (runs(state))
      metrics_->pod_up(pods_[pod].number, now_s);
    else
      metrics_->pod_down(pods_[pod].number, now_s);
  }
  s.state = state;
  ++s.serial;
  if (was_serving != (state == State::serving)) {
    serving_.clear();
    for (std::size_t p = 0; p < states_.size(); ++p)
      if (states_[p].state == State::serving) serving_.push_back(static_cast<int>(p));
  }
  if (state != State::serving) return;
  for (auto* server : pods_[pod].servers)
    server->restore(); // a pod that failed serves again once restarted (or started anew)
  arm_failure(pod);
  // Clients held while no pod served go on, once this change is complete.
  if (!held_.empty()) at(calendar::now_s(), [this]() { release_held(); });
}

void ServerPool::arm_failure(std::size_t pod) {
  if (!group_.failures || !group_.failures->mean_time_between_s) return;
  std::exponential_distribution<double> time_to_failure(1.0 / *group_.failures->mean_time_between_s);
  at(calendar::now_s() + time_to_failure(failure_rng_), [this, pod, serial = states_[pod].serial]() {
    if (states_[pod].serial == serial) fail(pod);
  });
}

void ServerPool::fail(std::size_t pod) {
  for (auto* server : pods_[pod].servers)
    server->fail();
  recorder_.pod_failed(group_index_);
  // A draining pod was leaving anyway: it is gone.
  set_state(pod, states_[pod].state == State::draining ? State::off : State::failed);
  report();
  if (states_[pod].state == State::off) return;
  const double restart_s = group_.failures ? group_.failures->restart_delay_s : 0.0;
  at(calendar::now_s() + restart_s, [this, pod, serial = states_[pod].serial]() {
    if (states_[pod].serial != serial) return; // scaled away meanwhile
    set_state(pod, State::serving);
    report();
  });
}

void ServerPool::end_drain(std::size_t pod) {
  for (auto* server : pods_[pod].servers)
    server->stop_resetting();
  set_state(pod, State::off);
  report();
}

void ServerPool::leave_if_drained(std::size_t pod) {
  if (states_[pod].state != State::draining || outstanding_[pod] > 0) return;
  set_state(pod, State::off);
  report();
}

void ServerPool::report() const {
  int held = 0;
  for (const auto& s : states_)
    held += s.state != State::off ? 1 : 0;
  recorder_.pods_changed(group_index_, calendar::now_s(), static_cast<int>(serving_.size()), held);
}

} // namespace sonicsim
