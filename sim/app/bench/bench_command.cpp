// `sonicsim bench`: how fast the simulator is. Runs the default scenario at 100, 400 and 1,000 jobs (each run
// in its own process, repeated, medians reported) and prints simulated requests and events per wall-clock
// second and the peak memory of the process; a second table shows that memory does not grow with the number
// of events. Next to each row, the "SimGrid floor": the same number of request flows on the same platform
// with nothing else simulated (sim/engine/flow_floor.hpp), the ceiling for a simulator that gives each
// request a SimGrid flow.
#include "sim/app/commands.hpp"
#include "sim/metrics/json_fields.hpp"

#include "sim/app/bench/bench_answers.hpp"
#include "sim/app/bench/bench_runs.hpp"
#include "sim/app/common/output_options.hpp"
#include "sim/app/common/scenario_source.hpp"
#include "sim/engine/flow_floor.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/execution/process_pool.hpp"
#include "sim/metrics/bench_figures.hpp"
#include "sim/metrics/summary_json.hpp"
#include "sim/scenario/input_error.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <thread>

#include <sys/resource.h>

namespace sonicsim {
namespace {

struct BenchArguments {
  ScenarioSource source;
  int repeat = 3;
  std::vector<int> jobs{100, 400, 1000};
  std::string campaign = "configs/protodune_2022_campaign.yaml";
  std::vector<double> campaign_scales{0.1, 0.25};
  std::string operations = "configs/supersonic_autoscaling.yaml";
  bool answers = false;           // time a plan, validate --fast and the whole validate as whole commands
  bool answers_calibrate = false; // with --answers, also the CMS spec's calibration (about an hour)
  std::string peer;               // the SimPy peer's script: measured side by side
  bool quiet = false, json = false;
};

// A row of one of the tables, printed as it comes and kept for --json.
using AddRow = std::function<void(nlohmann::ordered_json row, const char* table)>;

// One configuration's medians over its runs (and its SimGrid floor, when measured).
nlohmann::ordered_json bench_row(const std::string& label, const std::vector<Measurement>& runs,
                                 const std::vector<double>& floor_per_s = {}) {
  std::vector<double> requests_per_s, requests_per_cpu_s, events_per_s, wall_s, rss_mb, cpu_us_per_request,
      fast_share;
  for (const auto& run : runs) {
    cpu_us_per_request.push_back(1e6 * run.cpu_s / run.requests);
    fast_share.push_back(run.flows > 0 ? 100.0 * run.fast_flows / run.flows : 0.0);
    requests_per_s.push_back(run.requests / run.wall_s);
    requests_per_cpu_s.push_back(run.requests / run.cpu_s);
    events_per_s.push_back(run.events / run.wall_s);
    wall_s.push_back(run.wall_s);
    rss_mb.push_back(run.peak_rss_mb);
  }
  nlohmann::ordered_json row{{"configuration", label},
                             {"requests", runs.front().requests},
                             {"requests_per_s", median(requests_per_s)},
                             {"requests_per_cpu_s", median(requests_per_cpu_s)},
                             {"events_per_s", median(events_per_s)},
                             {"wall_s", median(wall_s)},
                             {"peak_mb", median(rss_mb)},
                             {"cpu_us_per_request", median(cpu_us_per_request)},
                             {"fast_flow_percent", median(fast_share)}};
  if (!floor_per_s.empty()) {
    std::vector<double> of_floor;
    for (std::size_t i = 0; i < runs.size(); ++i)
      of_floor.push_back(100.0 * runs[i].requests / runs[i].wall_s / floor_per_s[i]);
    row["floor_flows_per_s"] = median(floor_per_s);
    row["of_floor_percent"] = median(of_floor);
  }
  return row;
}

void print_row(const nlohmann::ordered_json& row) {
  std::printf("%-22s %10.0f %12.0f %14.0f %12.0f %10.3f %10.1f",
              row["configuration"].get<std::string>().c_str(), row["requests"].get<double>(),
              row["requests_per_s"].get<double>(), row["requests_per_cpu_s"].get<double>(),
              row["events_per_s"].get<double>(), row["wall_s"].get<double>(), row["peak_mb"].get<double>());
  if (row.contains("floor_flows_per_s"))
    std::printf(" %15.0f %9.0f%%", row["floor_flows_per_s"].get<double>(),
                row["of_floor_percent"].get<double>());
  else
    std::printf(" %15s %10s", "", "");
  std::printf(" %11.2f %8.0f%%\n", row["cpu_us_per_request"].get<double>(),
              row["fast_flow_percent"].get<double>());
}

// What the table's columns mean.
void explain_columns(const TextOutput& say) {
  say("\nrequests/s and events/s: simulated per wall-clock second (engine set-up included);\n"
      "requests/cpu-s: per second of the run's own CPU time, which other load on the machine does not "
      "inflate;\n"
      "SimGrid floor/s: SimGrid alone moving the same request flows on the same platform (no servers, no "
      "module\n"
      "pipeline, nothing recorded), in flows per wall-clock second: the ceiling for a simulator that gives "
      "each\n"
      "request a SimGrid flow; of floor: median over runs of requests/s / the floor measured right after;\n"
      "cpu us/req: CPU microseconds per simulated request; fast: flows timed without SimGrid's solver from\n"
      "start to end (platform.network.fast_path; a flow handed to SimGrid when a link filled is not; the "
      "floor\n"
      "uses the same kernel flows, fast path included, each job's next flow scheduled by its last).\n");
}

// The SimPy peer and this simulator on the same work (the default scenario's 400 jobs x 5 events), run in
// turn `repeat` times so that each pair sees the same state of the machine; the median of the pairs' ratios.
// The SimGrid floor of each run's own flows runs between them: what SimGrid alone costs a request, so that
// the goal's budget for everything else (servers, batches, module pipeline, recording) is measured, not
// guessed.
nlohmann::ordered_json peer_side_by_side(const BenchArguments& arguments, const TextOutput& say) {
  const int jobs = 400, events = 5;
  constexpr double goal_ratio = 15.0;
  const Scenario scenario = arguments.source.load(
      {"workload.jobs=" + std::to_string(jobs), "workload.events_per_job=" + std::to_string(events)});
  std::vector<double> ours, floors, theirs, ratios, floor_ratios, run_fast, floor_fast;
  for (int r = 0; r < arguments.repeat; ++r) {
    const Measurement run = measure(scenario, 1).front();
    const FloorRate floor = measure_flow_floor(
        scenario, flow_floor_workload(scenario, run.requests, run.simulated_s, run.bytes_to_servers));
    floors.push_back(floor.flows_per_s);
    floor_fast.push_back(floor.fast_percent);
    run_fast.push_back(run.flows > 0 ? 100.0 * run.fast_flows / run.flows : 0.0);
    const auto peer = peer_requests_per_s(arguments.peer, jobs, events);
    if (!peer)
      throw InputError("--peer " + arguments.peer +
                       ": it did not print req/s=N (it needs Debian's python3-simpy3: scripts/setup.sh "
                       "installs it)");
    ours.push_back(run.requests / run.wall_s);
    theirs.push_back(*peer);
    ratios.push_back(ours.back() / *peer);
    floor_ratios.push_back(floors.back() / *peer);
  }
  const RequestBudget budget = request_budget(median(ours), median(floors), median(theirs), goal_ratio);
  say("\nSimPy peer (%s), %d jobs x %d events, %d pairs in turn: sonicsim %.0f requests/s, peer %.0f; "
      "ratio %.1fx (median of the pairs; goal >= %.0fx)\n",
      arguments.peer.c_str(), jobs, events, arguments.repeat, median(ours), median(theirs), median(ratios),
      goal_ratio);
  say("SimGrid floor of as many flows, evenly spaced: %.0f flows/s, %.1fx the peer (median of the pairs; "
      "%.0f %% of its flows timed without SimGrid's solver, %.0f %% of the run's): a flow costs %.3f us "
      "there, "
      "and sonicsim spends %.3f us more a request (servers, batches, module pipeline, the flows' sharing, "
      "recording); %.0fx the peer leaves %.3f us for that\n",
      median(floors), median(floor_ratios), median(floor_fast), median(run_fast), budget.floor_us,
      budget.own_us, goal_ratio, budget.own_us_at_goal);
  return {{"script", arguments.peer},
          {"jobs", jobs},
          {"events_per_job", events},
          {"sonicsim_requests_per_s", median(ours)},
          {"peer_requests_per_s", median(theirs)},
          {"ratio", median(ratios)},
          {"floor_flows_per_s", median(floors)},
          {"floor_ratio", median(floor_ratios)},
          {"floor_fast_flow_percent", median(floor_fast)},
          {"run_fast_flow_percent", median(run_fast)},
          {"floor_us_per_request", budget.floor_us},
          {"own_us_per_request", budget.own_us},
          {"own_us_per_request_at_goal", budget.own_us_at_goal}};
}

// The shipped 2022 campaign: jobs coming and going over hours, the site switch saturated part of the time.
// Its rows at each scale, and how its CPU cost grows with its size (none with fewer than two scales).
std::optional<double> campaign_rows(const BenchArguments& arguments, const TextOutput& say,
                                    const AddRow& add_row) {
  if (!arguments.campaign.empty() && std::filesystem::exists(arguments.campaign)) {
    say("\ncampaign (%s, its 5 h window):\n", arguments.campaign.c_str());
    std::vector<std::pair<double, double>> cpu_s_by_scale;
    for (const double scale : arguments.campaign_scales) {
      char setting[64];
      std::snprintf(setting, sizeof setting, "workload.campaign.scale=%g", scale);
      const Scenario scenario = load_scenario_file(arguments.campaign, {setting});
      char label[64];
      std::snprintf(label, sizeof label, "campaign x %g", scale);
      const auto runs = measure(scenario, arguments.repeat);
      add_row(bench_row(label, runs), "campaign");
      std::vector<double> cpu_s;
      for (const auto& run : runs)
        cpu_s.push_back(run.cpu_s);
      cpu_s_by_scale.emplace_back(scale, median(cpu_s));
    }
    if (cpu_s_by_scale.size() >= 2) {
      const auto [small, small_cpu_s] = cpu_s_by_scale.front();
      const auto [large, large_cpu_s] = cpu_s_by_scale.back();
      const double exponent = scaling_exponent(small, small_cpu_s, large, large_cpu_s);
      say("campaign cost against its size: CPU-s ~ scale^%.2f from x %g to x %g (linear: 1; goal: 1)\n",
          exponent, small, large);
      return exponent;
    }
  } else if (!arguments.campaign.empty()) {
    say("\ncampaign rows skipped: no %s here (run from the repository root, or --campaign FILE)\n",
        arguments.campaign.c_str());
  }
  return std::nullopt;
}

int bench(const BenchArguments& arguments) {
  const Scenario base = arguments.source.load();
  const bool text = !arguments.quiet && !arguments.json;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  const TextOutput say{text};
  const AddRow add_row = [&](nlohmann::ordered_json row, const char* table) {
    row["table"] = table;
    if (text) print_row(row);
    rows.push_back(std::move(row));
  };
  say("sonicsim bench: scenario %s, medians of %d runs, each in its own process; %u hardware threads\n\n",
      base.name.c_str(), arguments.repeat, std::thread::hardware_concurrency());
  double load[1] = {0.0};
  if (::getloadavg(load, 1) == 1) say("load average before the runs: %.2f\n\n", load[0]);
  say("%-22s %10s %12s %14s %12s %10s %10s %15s %10s %11s %9s\n", "configuration", "requests", "requests/s",
      "requests/cpu-s", "events/s", "wall s", "peak MB", "SimGrid floor/s", "of floor", "cpu us/req", "fast");
  std::vector<std::pair<int, double>> peak_mb_by_jobs;
  std::optional<double> memory_per_job_kb;
  for (const int jobs : arguments.jobs) {
    const Scenario scenario = arguments.source.load({"workload.jobs=" + std::to_string(jobs)});
    const std::string label =
        std::to_string(jobs) + " jobs x " + std::to_string(scenario.workload.events_per_job) + " ev";
    const WithFloor measured = measure_with_floor(scenario, arguments.repeat);
    add_row(bench_row(label, measured.runs, measured.floor_per_s), "jobs");
    std::vector<double> rss_mb;
    for (const auto& run : measured.runs)
      rss_mb.push_back(run.peak_rss_mb);
    peak_mb_by_jobs.emplace_back(jobs, median(rss_mb));
  }
  if (peak_mb_by_jobs.size() >= 2) {
    // The process's fixed cost (libraries, platform) cancels out between the smallest and largest runs.
    const auto [fewest, fewest_mb] = *std::min_element(peak_mb_by_jobs.begin(), peak_mb_by_jobs.end());
    const auto [most, most_mb] = *std::max_element(peak_mb_by_jobs.begin(), peak_mb_by_jobs.end());
    if (most > fewest) {
      memory_per_job_kb = (most_mb - fewest_mb) * 1024.0 / (most - fewest);
      say("memory per job: %.1f kB (peak memory from %d to %d jobs)\n", *memory_per_job_kb, fewest, most);
    }
  }
  const std::optional<double> campaign_exponent = campaign_rows(arguments, say, add_row);
  // The shipped SuperSONIC day: ~1,000 jobs ramping up and down, the autoscaler and the proxy in the loop.
  if (!arguments.operations.empty() && std::filesystem::exists(arguments.operations)) {
    say("\noperations (%s, a day):\n", arguments.operations.c_str());
    add_row(bench_row("supersonic day", measure(load_scenario_file(arguments.operations), arguments.repeat)),
            "operations");
  } else if (!arguments.operations.empty()) {
    say("\noperations row skipped: no %s here (run from the repository root, or --operations FILE)\n",
        arguments.operations.c_str());
  }
  // The precision rule off: each row runs the events it names (with the rule, both would end where 2 % is
  // met, 48 events per job at 400 jobs).
  say("\nmemory against the number of events (400 jobs, the precision rule off):\n");
  for (const int events : {6, 24}) {
    const Scenario scenario = arguments.source.load(
        {"workload.jobs=400", "workload.events_per_job=" + std::to_string(events), "output.precision=off"});
    const std::string label = "400 jobs x " + std::to_string(events) + " ev";
    add_row(bench_row(label, measure(scenario, arguments.repeat)), "events");
  }
  explain_columns(say);
  const nlohmann::ordered_json answers = arguments.answers || arguments.answers_calibrate
                                             ? time_answers(say, arguments.answers_calibrate)
                                             : nlohmann::ordered_json();
  const nlohmann::ordered_json peer =
      arguments.peer.empty() ? nlohmann::ordered_json() : peer_side_by_side(arguments, say);
  if (arguments.json) {
    nlohmann::ordered_json out{{"scenario", base.name}, {"repeat", arguments.repeat}, {"rows", rows}};
    if (memory_per_job_kb) out["memory_per_job_kb"] = *memory_per_job_kb;
    if (campaign_exponent) out["campaign_cpu_exponent"] = *campaign_exponent;
    if (!answers.is_null()) out["answers"] = answers;
    if (!peer.is_null()) out["peer"] = peer;
    std::printf("%s\n", json_text(out, 1).c_str());
  }
  return exit_ok;
}

} // namespace

void register_bench_command(CLI::App& app, int& result) {
  auto arguments = std::make_shared<BenchArguments>();
  auto* command = app.add_subcommand(
      "bench", "Measure simulator speed (simulated requests per wall-clock second) "
               "and peak memory at 100, 400 and 1,000 jobs, next to the SimGrid floor (the same "
               "request flows moved by SimGrid alone)");
  arguments->source.add_options(*command);
  command->add_option("--repeat", arguments->repeat, "Runs per configuration (median reported)")
      ->check(CLI::Range(1, 50));
  command->add_option("--jobs", arguments->jobs, "Job counts to measure, e.g. 100,400,1000")
      ->check(CLI::PositiveNumber)
      ->delimiter(',')
      ->allow_extra_args(false);
  command->add_option("--campaign", arguments->campaign,
                      "Campaign scenario for the campaign rows (\"\" to skip them)");
  command
      ->add_option("--campaign-scales", arguments->campaign_scales,
                   "Scales of the campaign rows, e.g. 0.1,0.25")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(CLI::Range(1e-3, 1.0));
  command->add_option("--operations", arguments->operations,
                      "Scenario with an autoscaler for the operations row (\"\" to skip it)");
  command->add_flag(
      "--answers", arguments->answers,
      "Also time the answers users wait for as whole commands: plan --jobs 2000 --variant a100, the same "
      "comparing --device-types T4,A100, a 24-point jobs sweep with --html, the 2022 switch sweep (10 "
      "points), validate --fast and the whole validate (a few minutes; from the repository root)");
  command->add_flag(
      "--answers-calibrate", arguments->answers_calibrate,
      "--answers and the CMS spec's calibration, from its fit (--predict-from) and whole (about "
      "an hour)");
  command->add_option(
      "--peer", arguments->peer,
      "The SimPy peer's script (../shared/bench/simpy_peer.py beside a checkout): run in turn "
      "with the same work, 400 jobs x 5 events, and the ratio of simulated requests per wall "
      "second");
  add_output_options(*command, arguments->quiet, &arguments->json);
  command->callback([arguments, &result]() { result = guarded(*arguments, bench); });
}

} // namespace sonicsim
