// Jobs at which a shared site switch is full (the 2023 ProtoDUNE talk, "Network saturation" slides).
//
// Every running job streams its inference inputs out of the site: bits_per_event every event_time_s. The
// switch saturates when running_jobs x bits_per_event / event_time_s reaches the capacity left by other
// traffic. ProtoDUNE: (100 Gb/s) / (4.1 Gb/event) x (25 s/event) ~ 610 jobs, hence the 600-job cap.
#pragma once

namespace sonicsim::models {

// Outbound bits per second of one running job (bits_per_event >= 0, event_time_s > 0).
double per_job_traffic_bps(double bits_per_event, double event_time_s);

// The one network-limit formula: running jobs that fill a link when `free_bps` of it is left for them and
// each job sends `per_job_bps`: free_bps / per_job_bps. 0 when nothing is left (free_bps <= 0); +infinity
// when a job sends nothing. Every network limit sonicsim reports (analytic, plan, compare, validate) is this.
double jobs_filling_link(double free_bps, double per_job_bps);

// Running jobs that fill the switch: (switch_bandwidth_bps - background_bps) / per_job_traffic_bps.
// Throws std::invalid_argument when an input is not positive (background may be 0) or when background_bps
// already uses the whole switch (no job fits).
double network_limited_jobs(double switch_bandwidth_bps, double bits_per_event, double event_time_s,
                            double background_bps = 0.0);

// Outbound traffic with running_jobs jobs: background_bps + running_jobs x per_job_traffic_bps, i.e. the
// line the slides fit (intercept: non-ProtoDUNE traffic, slope: bits per event / event time).
double outbound_traffic_bps(double running_jobs, double bits_per_event, double event_time_s,
                            double background_bps = 0.0);

} // namespace sonicsim::models
