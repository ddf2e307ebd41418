// The 2022 ProtoDUNE campaign (the 2023 ProtoDUNE talk, "SONIC (GPUaaS) results" and "Network saturation"):
// the site's 100 Gb/s outbound switch, not the GPUs, limits the concurrent jobs to ~610. Runs are at the
// config's scale 0.1 and reported at full scale; each check says where its tolerance comes from.
#include "simulate.hpp"

#include "models/fits.hpp"
#include "models/network_limit.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/execution/process_pool.hpp"
#include "sim/metrics/histogram_peaks.hpp"
#include "sim/metrics/summary_json.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

using sonicsim::RunSummary;
using sonicsim::testing::config_path;

namespace {

const std::string config = "protodune_2022_campaign.yaml";
constexpr double bits_per_event = 55000.0 * 9216.0 * 8.0; // 4.06 Gb (the 2023 ProtoDUNE talk: "4.1 Gb/event")
constexpr double unsaturated_event_s = 25.0;              // the 2023 ProtoDUNE talk: "25 s/event"

// A steady number of running jobs: every slot always available, the cap fixed, 2 h measured after 30 min.
std::vector<std::string> steady_cap(int cap) {
  return {"workload.campaign.max_concurrent=[{from: 0s, jobs: " + std::to_string(cap) + "}]",
          "workload.campaign.slots=[{from: 0s, fraction: 1.0}]", "workload.campaign.window=150min",
          "workload.campaign.warmup=30min"};
}

// Running jobs move between 90 and 300 (slots 0.15 - 0.5 of 600) with 20 Gb/s of background, below the
// limit, so the line of traffic against jobs is determined; at 1/4 of the site, for 6 h (40 min warm-up).
std::vector<std::string> determined_line() {
  return {"workload.jobs=600",
          "platform.site_switch.background=20Gbps",
          "workload.campaign.slots=[{from: 0s, fraction: 0.15}, {from: 40min, fraction: 0.3}, {from: 80min, "
          "fraction: 0.5}, {from: 120min, fraction: 0.25}]",
          "workload.campaign.slots_repeat=160min",
          "workload.campaign.window=6h",
          "workload.campaign.warmup=40min",
          "workload.campaign.scale=0.25"};
}

// Several runs of the config, two child processes at a time (one SimGrid engine per process).
std::vector<RunSummary> simulate_all(const std::vector<std::vector<std::string>>& overrides) {
  std::vector<sonicsim::Scenario> scenarios;
  for (const auto& set : overrides)
    scenarios.push_back(sonicsim::load_scenario_file(config_path(config), set));
  std::vector<RunSummary> summaries(scenarios.size());
  sonicsim::run_in_child_processes(
      scenarios.size(), 2,
      [&scenarios](std::size_t i) {
        return sonicsim::run_summary_to_json(
                   sonicsim::run_simulation(scenarios[i], sonicsim::RunOptions{}).summary)
            .dump();
      },
      [&summaries](std::size_t i, const sonicsim::ChildResult& child) {
        if (!child.ok) throw std::runtime_error("simulation failed: " + child.output);
        summaries[i] = sonicsim::run_summary_from_json(nlohmann::ordered_json::parse(child.output));
      });
  return summaries;
}

// The knee of "mean event time vs running jobs" (flat, then rising), over a sweep of the cap.
struct Limit {
  double knee_jobs;
  double plateau_s; // mean event time at the lowest cap
};

// plateau_s > 0: the lowest cap must give that event time (within 5 %).
Limit simulated_limit(const std::vector<int>& caps, double plateau_s,
                      const std::vector<std::string>& extra = {}) {
  std::vector<std::vector<std::string>> overrides;
  for (const int cap : caps) {
    auto set = steady_cap(cap);
    set.insert(set.end(), extra.begin(), extra.end());
    overrides.push_back(set);
  }
  const auto summaries = simulate_all(overrides);
  std::vector<double> jobs, event_s;
  for (const auto& summary : summaries) {
    REQUIRE(summary.campaign);
    jobs.push_back(summary.campaign->mean_running_jobs);
    event_s.push_back(summary.event.mean_s);
    MESSAGE("running jobs " << jobs.back() << ": event " << event_s.back() << " s, outbound "
                            << summary.campaign->mean_outbound_gbps << " Gb/s");
  }
  // Flat up to the limit: the lowest cap is within 5 % of the unsaturated time; rising past it.
  if (plateau_s > 0) CHECK(event_s.front() == doctest::Approx(plateau_s).epsilon(0.05));
  CHECK(event_s.back() > 1.3 * event_s.front());
  return {sonicsim::models::fit_plateau_knee(jobs, event_s).knee, event_s.front()};
}

} // namespace

TEST_CASE("2022 cap sweep: per-event time flat up to the network limit, rising past it; limit ~610 jobs") {
  const double limit =
      simulated_limit({300, 400, 500, 600, 700, 800, 1000, 1200}, unsaturated_event_s).knee_jobs;
  const double analytic = sonicsim::models::network_limited_jobs(100e9, bits_per_event, unsaturated_event_s);
  MESSAGE("simulated limit " << limit << " jobs, analytic " << analytic);
  // Issue: within 10 % of (100 Gb/s) / (4.1 Gb/event) x (25 s/event).
  CHECK(limit == doctest::Approx(analytic).epsilon(0.10));
}

TEST_CASE("2022 outbound traffic vs running jobs: slope = data per event / time per event, intercept = "
          "background") {
  // Running jobs move between 90 and 300 (slots 0.15 - 0.5 of 600), well below the limit with 20 Gb/s of
  // background ((100 - 20) / 0.162 = 493 jobs), as the operators' points below the ceiling. At 1/4 of the
  // site: at 1/10 the switch carries only ~5 flows of 2 Gb/s, their collisions slow transfers already at 60 %
  // load and the slope comes out ~10 % low (0.146); at 1/4 it is 5 % low, at 1/2 2.5 % (measured).
  const auto summaries = simulate_all({determined_line()});
  const auto& campaign = *summaries.front().campaign;
  MESSAGE("slope " << campaign.slope_gbps_per_job << " Gb/s per job, intercept " << campaign.intercept_gbps
                   << " Gb/s, r2 " << campaign.fit_r_squared << " over " << campaign.fit_intervals
                   << " intervals");
  REQUIRE(campaign.fit_valid);
  // Running jobs span 85-300 outside saturation and transients: a determined line.
  CHECK(campaign.fit_determined);
  CHECK(campaign.transient_intervals > 0); // the slot changes every 40 min
  // Issue: the slope within 10 % of 4.1 Gb / 25 s per job.
  CHECK(campaign.slope_gbps_per_job ==
        doctest::Approx(bits_per_event / 1e9 / unsaturated_event_s).epsilon(0.10));
  // The intercept recovers the 20 Gb/s background, within 3 Gb/s (3 % of the switch; measured 21.6).
  CHECK(std::abs(campaign.intercept_gbps - 20.0) < 3.0);
}

TEST_CASE("2022 histogram: two peaks uncapped with jobs crossing the limit, one peak with the cap at 600") {
  const auto summaries = simulate_all({{}, {"workload.campaign.max_concurrent=[{from: 0s, jobs: 600}]"}});
  const auto& uncapped = *summaries[0].campaign;
  const auto& capped = *summaries[1].campaign;
  for (const auto& peak : uncapped.event_time_peaks)
    MESSAGE("uncapped peak at " << peak.position_s << " s");
  for (const auto& peak : capped.event_time_peaks)
    MESSAGE("capped peak at " << peak.position_s << " s");
  REQUIRE(uncapped.event_time_peaks.size() == 2);
  // The first peak is the unsaturated event (~25 s, the 2023 ProtoDUNE talk); the second is well separated
  // from it.
  CHECK(uncapped.event_time_peaks[0].position_s < 30.0);
  CHECK(uncapped.event_time_peaks[1].position_s > 1.5 * uncapped.event_time_peaks[0].position_s);
  REQUIRE(capped.event_time_peaks.size() == 1);
  CHECK(capped.event_time_peaks[0].position_s < 30.0);
  // Uncapped, the slots alternate between ~1,400 (saturated) and ~415 running jobs: outside saturation and
  // transients the jobs span a few percent, too little for a line, and the summary says so. Their traffic
  // per job is still the data per event over the time per event (10 %, as for the slope).
  REQUIRE(uncapped.fit_valid);
  CHECK_FALSE(uncapped.fit_determined);
  CHECK(uncapped.fit_mean_gbps / uncapped.fit_mean_jobs ==
        doctest::Approx(bits_per_event / 1e9 / unsaturated_event_s).epsilon(0.10));
}

TEST_CASE("2022 what-if: compressing patches 2x moves the limit to about twice the jobs") {
  // 1 ns of CPU per input byte on the Opteron 6376 (~1 GB/s, an LZ4-class compressor; an assumption): 0.25 s
  // per event on the average CPU.
  // With 2x less network per event the 100-GPU pool comes close to its own limit (1,230 jobs x 55,000 / 25 s
  // = 2.7 M inferences/s of ~3.1 M; the simulation shows GPU queueing from ~900 jobs): to isolate the network
  // limit this what-if has 400 GPUs (random pod assignment leaves some pods busier than the mean). With 100,
  // GPU queueing, not the switch, sets the knee (~940 jobs).
  const std::vector<std::string> compress{"workload.pipeline.EmTrkMichelId.compression_ratio=2",
                                          "workload.pipeline.EmTrkMichelId.compression_time_per_byte=1ns",
                                          "workload.jobs=2200", "platform.server_groups.gke_t4.pods=400"};
  const Limit limit = simulated_limit({600, 800, 1000, 1200, 1400, 2100}, 0.0, compress);
  // Sending takes half as long (-1.4 s) and compressing adds 0.25 s: the unsaturated event is ~23.8 s.
  CHECK(limit.plateau_s == doctest::Approx(23.8).epsilon(0.05));
  const double analytic = sonicsim::models::network_limited_jobs(100e9, bits_per_event / 2, limit.plateau_s);
  MESSAGE("compressed: simulated limit " << limit.knee_jobs << " jobs, analytic " << analytic);
  CHECK(limit.knee_jobs == doctest::Approx(analytic).epsilon(0.10));
  // About twice the uncompressed ~616 jobs (a bit less: the shorter event sends its bits faster).
  const double uncompressed =
      sonicsim::models::network_limited_jobs(100e9, bits_per_event, unsaturated_event_s);
  CHECK(limit.knee_jobs / uncompressed > 1.7);
  CHECK(limit.knee_jobs / uncompressed < 2.1);
}

TEST_CASE("2022 what-if: with 110 s of non-ML modules per event the limit rises to ~(25 + 110) / 25 x 610") {
  // Mixing ML and non-ML modules as in 2020 (arXiv:2009.04509 Table 2: 110 s non-ML per event on the grid
  // average): the same 4.1 Gb per event is sent every ~135 s instead of 25 s. Shown at 1/20 of the site to
  // stay fast.
  const sonicsim::Scenario scenario = sonicsim::load_scenario_file(config_path(config));
  double mean_inverse_speed = 0.0;
  for (const auto& cpu : scenario.platform.cpu_mix)
    mean_inverse_speed += cpu.fraction / cpu.speed;
  const std::string non_ml_on_reference_s = std::to_string(110.0 / mean_inverse_speed) + "s";
  const std::vector<std::string> mixed{
      "workload.pipeline=[{name: non_ml, type: cpu, duration: {dist: lognormal, mean: " +
          non_ml_on_reference_s +
          ", sd: 40s}}, {name: EmTrkMichelId, type: remote_inference, model: emtrkmichelid, preprocess: "
          "{dist: "
          "lognormal, mean: 45s, sd: 10s}, inferences: {dist: normal, mean: 55000, sd: 5500}, groups: 8, "
          "group_spread: 0.5, max_batch: 16384}]",
      "workload.jobs=6000", "workload.campaign.scale=0.02", "workload.campaign.window=5h",
      "workload.campaign.warmup=2h"};
  const Limit limit = simulated_limit({1500, 2500, 3000, 3500, 4200, 5000}, 0.0, mixed);
  // The time per event that sets the limit is the event-weighted mean (fast CPUs process more events), which
  // is below 25 + 110 s: the non-ML time varies more between CPU types than the ML-only job's. Measured: ~120
  // s.
  CHECK(limit.plateau_s > 110.0);
  CHECK(limit.plateau_s < 140.0);
  const double analytic = sonicsim::models::network_limited_jobs(100e9, bits_per_event, limit.plateau_s);
  MESSAGE("ML + non-ML: simulated limit " << limit.knee_jobs << " jobs, analytic " << analytic);
  CHECK(limit.knee_jobs == doctest::Approx(analytic).epsilon(0.15));
  CHECK(limit.knee_jobs > 4.0 * 610.0);
}

TEST_CASE("2022 traffic vs running jobs with a random grid share: the line is determined and recovers the "
          "slope and the background") {
  // The grid's share for the campaign redrawn in [0.15, 0.5] of 600 slots every ~20 min (slots_random), below
  // the limit with 20 Gb/s of background, as in the schedule-driven test above; same tolerances, same scale.
  const auto summaries = simulate_all(
      {{"workload.jobs=600", "platform.site_switch.background=20Gbps", "workload.campaign.slots=null",
        "workload.campaign.slots_repeat=null",
        "workload.campaign.slots_random={min: 0.15, max: 0.5, mean_hold: 20min}",
        "workload.campaign.window=6h", "workload.campaign.warmup=40min", "workload.campaign.scale=0.25"}});
  const auto& campaign = *summaries.front().campaign;
  MESSAGE("slope " << campaign.slope_gbps_per_job << " +- " << campaign.slope_se_gbps_per_job
                   << " Gb/s per job, intercept " << campaign.intercept_gbps << " Gb/s over "
                   << campaign.fit_jobs_min << "-" << campaign.fit_jobs_max << " jobs");
  REQUIRE(campaign.fit_valid);
  CHECK(campaign.fit_determined);
  CHECK(campaign.slope_gbps_per_job ==
        doctest::Approx(bits_per_event / 1e9 / unsaturated_event_s).epsilon(0.10));
  CHECK(std::abs(campaign.intercept_gbps - 20.0) < 3.0);
  // The share moved: running jobs (full scale) spread over much of 0.15-0.5 of 600 = 90-300.
  CHECK(campaign.fit_jobs_max - campaign.fit_jobs_min > 100.0);
}

TEST_CASE(
    "2022 campaign with flow classes (the default) against pure SimGrid: peaks, traffic and limit agree") {
  // Pure SimGrid: every flow its own SimGrid comm, every link in the routes, no fast path. The two runs part
  // ways event by event as two seeds would (simultaneous flow ends are handed over in another order), so
  // the figures are compared within what separates two seeds, not to the digit.
  const std::vector<std::string> pure{"platform.network.fast_path=false",
                                      "platform.network.flow_classes=false"};
  const std::vector<std::string> determined = determined_line();
  auto with = [](std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  const auto summaries = simulate_all({{}, pure, determined, with(determined, pure)});
  const auto& classes = *summaries[0].campaign;
  const auto& simgrid = *summaries[1].campaign;
  // The event-time histogram's two regimes, unsaturated (~22 s) and saturated (~52 s): as many maxima, each
  // within 2 bins (2 s) of the other's. Found with a valley of 80 % rather than the reported rule's 50 %: at
  // this scale the valley after the first maximum is 30-52 % of it from seed to seed (measured, pure SimGrid,
  // seeds 1-5: 0.49, 0.40, 0.35, 0.52, 0.30; the seed the config gives, 0.49 before the campaign's scheduler
  // moved to the calendar and 0.50 after), so the reported rule's count is a coin toss between seeds, which
  // the two runs are to each other.
  const sonicsim::PeakRule regimes{3.0, 0.10, 0.8};
  const auto peaks_classes = sonicsim::find_peaks(classes.event_time_counts, 1.0, regimes);
  const auto peaks_simgrid = sonicsim::find_peaks(simgrid.event_time_counts, 1.0, regimes);
  REQUIRE(peaks_classes.size() == 2);
  REQUIRE(peaks_classes.size() == peaks_simgrid.size());
  for (std::size_t p = 0; p < peaks_classes.size(); ++p)
    CHECK(std::abs(peaks_classes[p].position_s - peaks_simgrid[p].position_s) <= 2.0);
  // Running jobs and outbound traffic over the window, and the traffic below saturation: within 2 % (measured
  // 949.8 / 85.36 Gb/s and 66.9 Gb/s at 416 jobs both ways; the 10 % of the checks above is the physics).
  CHECK(classes.mean_running_jobs == doctest::Approx(simgrid.mean_running_jobs).epsilon(0.02));
  CHECK(classes.mean_outbound_gbps == doctest::Approx(simgrid.mean_outbound_gbps).epsilon(0.02));
  CHECK(classes.fit_mean_gbps / classes.fit_mean_jobs ==
        doctest::Approx(simgrid.fit_mean_gbps / simgrid.fit_mean_jobs).epsilon(0.02));
  // The determined line (jobs below the limit): slope and intercept each within twice their combined
  // standard error. Tight on purpose: below the limit no link fills, both runs give the same events and so
  // the same line (measured: equal to 6 digits); between seeds the spread is 4-6 times wider.
  const auto& line_classes = *summaries[2].campaign;
  const auto& line_simgrid = *summaries[3].campaign;
  MESSAGE("slope " << line_classes.slope_gbps_per_job << " vs " << line_simgrid.slope_gbps_per_job
                   << " Gb/s per job, intercept " << line_classes.intercept_gbps << " vs "
                   << line_simgrid.intercept_gbps << " Gb/s");
  REQUIRE(line_classes.fit_determined);
  REQUIRE(line_simgrid.fit_determined);
  CHECK(std::abs(line_classes.slope_gbps_per_job - line_simgrid.slope_gbps_per_job) <=
        2.0 * std::hypot(line_classes.slope_se_gbps_per_job, line_simgrid.slope_se_gbps_per_job));
  CHECK(std::abs(line_classes.intercept_gbps - line_simgrid.intercept_gbps) <=
        2.0 * std::hypot(line_classes.intercept_se_gbps, line_simgrid.intercept_se_gbps));
  // The network limit from the cap sweep: within 2 % (a fifth of the 10 % the physics check allows).
  const std::vector<int> caps{300, 400, 500, 600, 700, 800, 1000, 1200};
  const double limit_classes = simulated_limit(caps, unsaturated_event_s).knee_jobs;
  const double limit_simgrid = simulated_limit(caps, unsaturated_event_s, pure).knee_jobs;
  MESSAGE("network limit " << limit_classes << " jobs with flow classes, " << limit_simgrid << " pure");
  CHECK(limit_classes == doctest::Approx(limit_simgrid).epsilon(0.02));
}

TEST_CASE("2022 campaign in 4 time windows agrees with one sequential run") {
  // The shipped config (5 h: 1 h warm-up, 4 h measured) as one run, and as 4 windows of 1 h, each starting
  // empty one warm-up (1 h) before its hour, the slots read at campaign time, an event crossing a window's
  // end counted in the window it started in.
  namespace fs = std::filesystem;
  const fs::path base = fs::temp_directory_path() / "sonicsim_campaign_windows";
  fs::remove_all(base);
  const auto sequential = sonicsim::testing::run_sonicsim("run " + config_path(config) + " --quiet --out " +
                                                          (base / "sequential").string());
  const auto windows = sonicsim::testing::run_sonicsim(
      "run " + config_path(config) + " --campaign-windows 4 -j 2 --out " + (base / "windows").string());
  INFO(windows.output);
  REQUIRE(sequential.exit_code == 0);
  REQUIRE(windows.exit_code == 0);
  const auto one = sonicsim::testing::read_json(base / "sequential" / "summary.json")["results"];
  const auto merged = sonicsim::testing::read_json(base / "windows" / "campaign_windows.json");
  const auto& a = one["campaign"];
  const auto& b = merged["campaign"];
  // The histogram's peaks: as many, each within 2 bins (2 s).
  REQUIRE(a["event_time_histogram"]["peaks"].size() == b["event_time_histogram"]["peaks"].size());
  for (std::size_t p = 0; p < a["event_time_histogram"]["peaks"].size(); ++p)
    CHECK(std::abs(a["event_time_histogram"]["peaks"][p]["position_s"].get<double>() -
                   b["event_time_histogram"]["peaks"][p]["position_s"].get<double>()) <= 2.0);
  // Events, running jobs and outbound traffic within 3 %: seeds 1-4 of the sequential run span 29,656-30,188
  // events (1.8 %) and 84.0-85.4 Gb/s (1.7 %); windows, seeds 1-3: 29,829-29,982 events, 84.3-84.9 Gb/s.
  CHECK(merged["events_completed"].get<double>() ==
        doctest::Approx(one["events"]["completed"].get<double>()).epsilon(0.03));
  CHECK(b["mean_running_jobs"].get<double>() ==
        doctest::Approx(a["mean_running_jobs"].get<double>()).epsilon(0.03));
  CHECK(b["mean_outbound_gbps"].get<double>() ==
        doctest::Approx(a["mean_outbound_gbps"].get<double>()).epsilon(0.03));
  // Traffic per job below saturation: within the 10 % the physics check states (seeds 1-4
  // sequential: 63.4-66.9 Gb/s at 416 jobs).
  const auto per_job = [](const nlohmann::json& c) {
    return c["outbound_vs_running_jobs"]["outbound_gbps_mean"].get<double>() /
           c["outbound_vs_running_jobs"]["running_jobs_mean"].get<double>();
  };
  CHECK(per_job(b) == doctest::Approx(per_job(a)).epsilon(0.10));
  // The windows' own files are there, and the windows' traffic was measured in their hour only.
  for (int k = 0; k < 4; ++k)
    CHECK(fs::exists(base / "windows" / ("window_" + std::to_string(k)) / "summary.json"));
  CHECK(merged["per_window"][3]["measured_from_s"].get<double>() == doctest::Approx(4 * 3600.0));
}

TEST_CASE(
    "2022 campaign in time windows: the traffic line and the network limit agree with sequential runs") {
  namespace fs = std::filesystem;
  const fs::path base = fs::temp_directory_path() / "sonicsim_campaign_windows_line";
  fs::remove_all(base);
  auto windows_of = [&](const std::string& name, const std::vector<std::string>& set, int windows) {
    std::string arguments = "run " + config_path(config) + " --campaign-windows " + std::to_string(windows) +
                            " -j 2 --quiet --out " + (base / name).string();
    for (const auto& s : set)
      arguments += " --set '" + s + "'";
    const auto result = sonicsim::testing::run_sonicsim(arguments);
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    return sonicsim::testing::read_json(base / name / "campaign_windows.json");
  };
  // The determined line of the test above (85-300 jobs, 20 Gb/s of background, scale 0.25, 5 h 20 min
  // measured), in 4 windows of 80 min against one run, within the tolerances that test states: the slope
  // within 10 %, the intercept within 3 Gb/s. (Measured, seeds 1-4: one run 0.1559-0.1648 Gb/s per job and
  // 20.4-21.5 Gb/s; windows 0.1565-0.1639 and 19.2-21.1. The fit's own standard errors, ~0.0007 and ~0.13,
  // are 4-6 times below that seed-to-seed spread: adjacent minutes are correlated.)
  const std::vector<std::string> determined = determined_line();
  const auto one = *simulate_all({determined}).front().campaign;
  const auto merged = windows_of("line", determined, 4)["campaign"]["outbound_vs_running_jobs"];
  MESSAGE("slope " << merged["slope_gbps_per_job"].get<double>() << " in windows, " << one.slope_gbps_per_job
                   << " in one run; intercept " << merged["intercept_gbps"].get<double>() << " and "
                   << one.intercept_gbps);
  REQUIRE(merged["determined"].get<bool>());
  CHECK(merged["slope_gbps_per_job"].get<double>() == doctest::Approx(one.slope_gbps_per_job).epsilon(0.10));
  CHECK(std::abs(merged["intercept_gbps"].get<double>() - one.intercept_gbps) < 3.0);
  // The network limit of the cap sweep, each cap in 2 windows of 1 h (after 30 min each) against the
  // sequential sweep: within the 10 % the physics check allows.
  const std::vector<int> caps{300, 400, 500, 600, 700, 800, 1000, 1200};
  std::vector<double> jobs, event_s;
  for (const int cap : caps) {
    const auto result = windows_of("cap" + std::to_string(cap), steady_cap(cap), 2);
    jobs.push_back(result["campaign"]["mean_running_jobs"].get<double>());
    event_s.push_back(result["event_mean_s"].get<double>());
  }
  const double limit_windows = sonicsim::models::fit_plateau_knee(jobs, event_s).knee;
  const double limit_one = simulated_limit(caps, unsaturated_event_s).knee_jobs;
  MESSAGE("network limit " << limit_windows << " jobs in windows, " << limit_one << " in one run each");
  CHECK(limit_windows == doctest::Approx(limit_one).epsilon(0.10));
}
