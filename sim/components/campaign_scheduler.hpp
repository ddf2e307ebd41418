// Campaign mode: the batch system of the grid site. It starts a job (a JobClient over events_per_job events)
// on a free grid slot whenever the running jobs are below both the slots the grid gives the campaign at that
// time and the operators' cap on concurrent jobs, until the campaign's events are all handed out or the
// simulated window ends. A job holds its slot until it ends; when slots or the cap drop, running jobs are not
// killed (as on a real grid): the count falls as they finish. The scheduler matches every
// match_interval_s, like an HTCondor negotiation cycle.
//
// The scheduler is a chain of calendar events, not a SimGrid actor: a run without actors lets the calendar
// run its events without SimGrid's engine stepping at each (event_calendar.hpp), which is most of a
// campaign's.
#pragma once

#include "sim/components/job_client.hpp"
#include "sim/components/job_placer.hpp"
#include "sim/policy/load_balancer.hpp"
#include "sim/policy/random_slot_share.hpp"

#include "sim/random/random_engine.hpp"
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <vector>

namespace sonicsim {

class CampaignScheduler {
public:
  static constexpr double match_interval_s = 10.0;

  explicit CampaignScheduler(JobContext& context);
  CampaignScheduler(const CampaignScheduler&) = delete;
  CampaignScheduler& operator=(const CampaignScheduler&) = delete;
  // Its first negotiation cycle now; `on_closed` runs when the campaign has closed (the window over and its
  // events ended, or no work left).
  void start(std::function<void()> on_closed);

  // Slots the campaign may use at simulated time t (before the cap), and the cap (infinite when uncapped):
  // the schedules are read at campaign time start + t.
  double slots_at(double t_s);
  double cap_at(double t_s) const;

private:
  void negotiate(); // one cycle: jobs started on free slots, then the next cycle or the close
  void close();
  double window_end_s() const; // infinite without a window
  void start_job(int slot, double now_s);
  void job_finished(int slot, const std::vector<int>& pods);
  // Frees the jobs that have finished (never from inside their own callbacks).
  void reclaim_finished_jobs();

  JobContext* context_;
  const Scenario& scenario_;
  const Campaign& campaign_;
  const SitePlatform& site_;
  const ServerDirectory& servers_;
  RunRecorder& recorder_;
  JobPlacer placer_;
  std::vector<std::optional<double>> slot_busy_since_s_; // none: the slot is free
  int running_ = 0;
  std::optional<std::int64_t> events_left_; // none: unbounded (the window ends the campaign)
  int next_job_ = 0;
  bool closed_ = false; // the window has ended: jobs still running were recorded up to its end
  std::function<void()> on_closed_;
  RandomEngine rng_;
  std::optional<RandomSlotShare> random_slots_; // campaign.slots_random, when set
};

} // namespace sonicsim
