// Campaign mode (workload.campaign) and the step schedules it and the background traffic use.
#include <cmath>
#include <limits>

#include "sim/scenario/scenario_sections.hpp"
#include "sim/scenario/units.hpp"
#include "sim/scenario/yaml_values.hpp"

namespace sonicsim::detail {
namespace {

// A cap is a job count or "unlimited" (which lifts the cap from that time on).
double read_cap_jobs(const Cursor& c) {
  const std::string expected = "a number of jobs >= 0, or \"unlimited\"";
  if (c.scalar(expected) == "unlimited") return std::numeric_limits<double>::infinity();
  long long jobs = 0;
  try {
    jobs = parse_integer(c.scalar(expected));
  } catch (const UnitError& e) {
    c.fail(e.what() + std::string("; expected ") + expected);
  }
  require(c, jobs >= 0, expected + " (a cap below zero is meaningless)");
  return static_cast<double>(jobs);
}

double read_slot_fraction(const Cursor& c) {
  const double f = read_number(c);
  require(c, f >= 0.0 && f <= 1.0, "a fraction of workload.jobs between 0 and 1");
  return f;
}

} // namespace

StepSchedule read_step_schedule(const Cursor& c, const std::string& value_key,
                                const std::function<double(const Cursor&)>& read_value) {
  require(c, c.node().IsSequence() && c.node().size() > 0,
          "a non-empty list of {from, " + value_key + "} in increasing time");
  StepSchedule schedule;
  for (std::size_t i = 0; i < c.node().size(); ++i) {
    const double from_s = read_duration_s(c[i]["from"]);
    require(c[i]["from"], from_s >= 0.0, "a time >= 0, e.g. \"6h\"");
    // Out-of-order times would make the value at a given time depend on how the list is read.
    if (i > 0 && !(from_s > schedule.from_s.back()))
      c[i]["from"].fail("got " + c[i]["from"].shown() + ", not after the previous step (" +
                        c[i - 1]["from"].shown() + "); expected the steps in increasing time");
    schedule.from_s.push_back(from_s);
    schedule.value.push_back(read_value(c[i][value_key]));
  }
  return schedule;
}

Campaign read_campaign(const Cursor& c, const Workload& workload) {
  Campaign campaign;
  if (c["total_events"].present()) campaign.total_events = read_int(c["total_events"], 1);
  // A pause (a step of 0) is how operators stop a campaign for a while; 0 throughout means no job ever runs.
  if (c["max_concurrent"].present()) {
    campaign.max_concurrent = read_step_schedule(c["max_concurrent"], "jobs", read_cap_jobs);
    require(c["max_concurrent"], campaign.max_concurrent->maximum() > 0.0,
            "a cap above 0 at some time (0 throughout: no job would ever run)");
  }
  if (c["slots"].present()) {
    campaign.slots = read_step_schedule(c["slots"], "fraction", read_slot_fraction);
    require(c["slots"], campaign.slots->maximum() > 0.0,
            "a fraction above 0 at some time (0 throughout: no job would ever run)");
  }
  if (c["slots_repeat"].present()) {
    campaign.slots_repeat_s = read_duration_s(c["slots_repeat"]);
    require(c["slots_repeat"], campaign.slots_repeat_s > 0.0, "a period > 0, e.g. \"2h\"");
    require(c["slots_repeat"], campaign.slots.has_value(),
            "a period for a slots schedule; write campaign.slots too");
    require(c["slots_repeat"], campaign.slots_repeat_s > campaign.slots->from_s.back(),
            "a period longer than the last step of campaign.slots");
  }
  if (c["slots_random"].present()) {
    const Cursor random = c["slots_random"];
    if (campaign.slots)
      random.fail("both campaign.slots and campaign.slots_random; expected one of them (a schedule, or a "
                  "random share)");
    Campaign::RandomSlots slots;
    if (random["min"].present()) slots.min_fraction = read_slot_fraction(random["min"]);
    if (random["max"].present()) slots.max_fraction = read_slot_fraction(random["max"]);
    require(random["max"].present() ? random["max"] : random, slots.max_fraction >= slots.min_fraction,
            "max >= min (the share is drawn between them)");
    if (random["mean_hold"].present()) {
      slots.mean_hold_s = read_duration_s(random["mean_hold"]);
      // Grid shares change over minutes to hours; a hold below one second only generates draws.
      require(random["mean_hold"], slots.mean_hold_s >= 1.0,
              "a mean holding time of at least 1s, e.g. \"1h\"");
    }
    campaign.slots_random = slots;
  }
  if (c["start_delay"].present())
    campaign.start_delay_s = read_distribution(c["start_delay"], Quantity::duration);
  if (c["start"].present()) {
    campaign.start_s = read_duration_s(c["start"]);
    require(c["start"], campaign.start_s >= 0.0, "a campaign time >= 0, e.g. \"20h\"");
  }
  if (c["schedule_seed"].present()) campaign.schedule_seed = read_seed(c["schedule_seed"]);
  if (c["finish_events"].present()) campaign.finish_events = read_bool(c["finish_events"]);
  if (c["window"].present()) {
    campaign.window_s = read_duration_s(c["window"]);
    require(c["window"], *campaign.window_s > 0.0, "a simulated duration > 0, e.g. \"4h\"");
  }
  if (!campaign.total_events && !campaign.window_s)
    c.fail("a campaign needs total_events, window or both; expected at least one, or it would never end");
  if (c["warmup"].present()) {
    campaign.warmup_s = read_duration_s(c["warmup"]);
    require(c["warmup"], campaign.warmup_s >= 0.0, "a duration >= 0");
    if (campaign.window_s)
      require(c["warmup"], campaign.warmup_s < *campaign.window_s,
              "a warm-up shorter than the window, or no event would be measured");
  }
  if (c["scale"].present()) {
    campaign.scale = read_number(c["scale"]);
    require(c["scale"], campaign.scale > 0.0 && campaign.scale <= 1.0,
            "a fraction of the site 0 < scale <= 1");
    // At least one grid slot must remain once scaled.
    require(c["scale"], std::lround(workload.jobs * campaign.scale) >= 1,
            "a scale that leaves at least one of the " + std::to_string(workload.jobs) + " slots");
  }
  if (c["histogram_bin"].present()) {
    campaign.histogram_bin_s = read_duration_s(c["histogram_bin"]);
    // Event times are seconds to minutes; bins below 1 ms hold only noise (and the histogram has one count
    // per bin up to the longest event).
    require(c["histogram_bin"], campaign.histogram_bin_s >= 1e-3, "a bin width of at least 1ms, e.g. \"1s\"");
  }
  return campaign;
}

} // namespace sonicsim::detail
