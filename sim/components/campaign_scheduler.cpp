#include "sim/components/campaign_scheduler.hpp"
#include "sim/kernel/event_calendar.hpp"

#include "sim/policy/load_balancer.hpp"
#include "sim/random/distribution.hpp"
#include "sim/random/random_streams.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace sonicsim {

CampaignScheduler::CampaignScheduler(JobContext& context)
    : context_(&context), scenario_(context.scenario), campaign_(*context.scenario.workload.campaign),
      site_(context.site), servers_(context.servers), recorder_(context.recorder),
      placer_(context.scenario, context.servers.layout),
      slot_busy_since_s_(static_cast<std::size_t>(placer_.slots())), events_left_(campaign_.total_events),
      rng_(make_stream(scenario_.seed, stream_campaign)) {
  if (campaign_.slots_random)
    random_slots_.emplace(
        *campaign_.slots_random,
        make_stream(campaign_.schedule_seed.value_or(scenario_.seed), stream_campaign_slots));
}

double CampaignScheduler::slots_at(double simulated_s) {
  const double t_s = campaign_.start_s + simulated_s; // campaign time
  double fraction = 1.0;
  if (random_slots_) {
    fraction = random_slots_->at(t_s);
  } else if (campaign_.slots) {
    const double t_in_cycle = campaign_.slots_repeat_s > 0 ? std::fmod(t_s, campaign_.slots_repeat_s) : t_s;
    fraction = campaign_.slots->at(t_in_cycle);
  }
  return std::floor(fraction * static_cast<double>(placer_.slots()) + 1e-9);
}

double CampaignScheduler::cap_at(double simulated_s) const {
  return campaign_.max_concurrent ? campaign_.max_concurrent->at(campaign_.start_s + simulated_s)
                                  : std::numeric_limits<double>::infinity();
}

void CampaignScheduler::start_job(int slot, double now_s) {
  JobPlacement placement = placer_.place(next_job_++, slot, rng_);
  placement.start_s = now_s + sample(campaign_.start_delay_s, rng_);
  placement.events = scenario_.workload.events_per_job;
  if (events_left_) {
    placement.events = static_cast<int>(std::min<std::int64_t>(*events_left_, *placement.events));
    *events_left_ -= *placement.events;
  }
  slot_busy_since_s_[static_cast<std::size_t>(slot)] = now_s;
  ++running_;
  std::vector<int> connections = placement.pods;
  // A preempted job frees its slot at once; its unfinished events go back to the campaign's (when
  // resubmitted).
  context_->jobs.push_back(std::make_unique<JobClient>(
      *context_, std::move(placement), [this, slot, connections]() { job_finished(slot, connections); },
      [this, slot, connections](int events_back, int /*events_ended: a campaign starts a new job for them*/) {
        if (events_left_) *events_left_ += events_back;
        job_finished(slot, connections);
      }));
  context_->jobs.back()->start();
}

void CampaignScheduler::reclaim_finished_jobs() {
  auto& jobs = context_->jobs;
  jobs.erase(std::remove_if(jobs.begin(), jobs.end(), [](const auto& job) { return job->finished(); }),
             jobs.end());
}

void CampaignScheduler::job_finished(int slot, const std::vector<int>& pods) {
  if (closed_) return;
  placer_.release(pods);
  auto& since_s = slot_busy_since_s_[static_cast<std::size_t>(slot)];
  recorder_.record_job_interval(*since_s, calendar::now_s());
  since_s.reset();
  --running_;
}

void CampaignScheduler::start(std::function<void()> on_closed) {
  on_closed_ = std::move(on_closed);
  calendar::at(calendar::now_s(), [this]() { negotiate(); });
}

double CampaignScheduler::window_end_s() const {
  return campaign_.window_s ? *campaign_.window_s : std::numeric_limits<double>::infinity();
}

void CampaignScheduler::negotiate() {
  const double end_s = window_end_s();
  // finish_events: past the window's end the grid goes on as scheduled (the site stays loaded) until the
  // events that started before it have ended; a day at most.
  constexpr double longest_tail_s = 86400.0;
  const double now_s = calendar::now_s();
  if (now_s >= end_s &&
      (!campaign_.finish_events || context_->events_open_at_end == 0 || now_s >= end_s + longest_tail_s)) {
    close();
    return;
  }
  const bool work_left = events_left_ != 0; // unbounded (none) or events still to hand out
  if (!work_left && running_ == 0) {
    close();
    return;
  }
  const double target = std::min(slots_at(now_s), cap_at(now_s));
  // Lowest free slot first, so that which slot (NIC, CPU) a job gets does not depend on timing details.
  for (std::size_t slot = 0;
       work_left && events_left_ != 0 && running_ < target && slot < slot_busy_since_s_.size(); ++slot)
    if (!slot_busy_since_s_[slot]) start_job(static_cast<int>(slot), now_s);
  reclaim_finished_jobs();
  calendar::at(now_s + (now_s < end_s ? std::min(match_interval_s, end_s - now_s) : match_interval_s),
               [this]() { negotiate(); });
}

void CampaignScheduler::close() {
  const double now_s = calendar::now_s();
  for (const auto& since_s : slot_busy_since_s_)
    if (since_s) recorder_.record_job_interval(*since_s, now_s);
  closed_ = true;
  // Rates (running jobs, traffic, events/s) are measured up to the window's end, not over the tail.
  recorder_.set_measurement_window(campaign_.warmup_s, std::min(now_s, window_end_s()));
  // The jobs still running stop here (their pending timers and flows do nothing more), and the servers
  // forget their requests.
  context_->stopped = true;
  context_->stopped_at_s = now_s;
  for (const auto& server : servers_.owned)
    server->stop();
  if (on_closed_) on_closed_();
}

} // namespace sonicsim
