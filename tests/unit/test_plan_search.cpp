// The pure parts of `sonicsim plan`: the pod layout rule, the confident boundary search, targets, replication
// seeds and intervals, and the cost per event.
#include <doctest/doctest.h>

#include "sim/metrics/confidence_interval.hpp"
#include "sim/metrics/run_figures.hpp"
#include "sim/planning/capacity_analysis.hpp"
#include "sim/planning/confident_search.hpp"
#include "sim/planning/plan_target.hpp"
#include "sim/planning/pod_layout.hpp"
#include "sim/random/replication_seed.hpp"
#include "sim/scenario/input_error.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <cmath>
#include <cstdlib>
#include <set>

using namespace sonicsim;
using namespace sonicsim::planning;

TEST_CASE("layouts: every GPU count whose fewest equal pods are at most 1.5 x the fewest it needs") {
  std::vector<int> gpus;
  for (const auto& layout : candidate_layouts(1, 8, 12))
    gpus.push_back(layout.gpus());
  CHECK(gpus == std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12}); // 11 would be 11 pods of 1
  CHECK(layout_for_gpus(9, 1, 8)->pods == 3);                         // 3 x 3: two pods cannot hold 9 equally
  CHECK(layout_for_gpus(11, 1, 8)->pods == 11); // a prime above the pod size: one GPU per pod
  // With at least 5 pods (the NICs of 2,000 ProtoDUNE jobs at 16 Gb/s), 18 GPUs are 6 pods x 3: the layout
  // the old rule (the fewest pods, or nothing) never tried.
  bool eighteen = false;
  for (const auto& layout : candidate_layouts(5, 8, 30)) {
    CHECK(layout.pods >= 5);
    if (layout.gpus() == 18) eighteen = layout.pods == 6 && layout.gpus_per_pod == 3;
  }
  CHECK(eighteen);
  CHECK(layout_for_gpus(15, 1, 8)->pods == 3);
  CHECK(layout_for_gpus(4, 1, 8)->pods == 1);
  CHECK_FALSE(layout_for_gpus(2, 3, 8));
}

namespace {

// A search against a monotone truth where the indices in [band_low, answer) are undecided until judged more
// than `refinements` times, with a budget of `budget` judgements each.
ConfidentSearch search_with(int answer, int band_low, int start, int refinements, int* calls,
                            int budget = 1000) {
  std::map<int, int> judged;
  return find_first_true_confidently(0, 20, start, 2, [&](const std::vector<int>& indices) {
    ++*calls;
    std::vector<Judgement> out;
    for (const int i : indices) {
      const int times = ++judged[i];
      Judgement j;
      if (i >= band_low && i < answer) {
        j.decision = times > refinements ? (i >= answer ? Decision::yes : Decision::no) : Decision::undecided;
        j.can_refine = j.decision == Decision::undecided && times < budget;
      } else {
        j.decision = i >= answer ? Decision::yes : Decision::no;
      }
      out.push_back(j);
    }
    return out;
  });
}

} // namespace

TEST_CASE("confident search: finds the first true from a start on either side, in batches") {
  for (const int answer : {0, 3, 7, 19}) {
    for (const int start : {0, 5, 12, 20}) {
      int calls = 0;
      const auto search = search_with(answer, answer, start, 0, &calls);
      REQUIRE(search.first_true);
      CHECK(*search.first_true == answer);
      CHECK(search.decided());
      CHECK(search.batches == calls);
      CHECK_FALSE(search.budget_exhausted);
      if (std::abs(start - answer) <= 5) CHECK(search.decisions.size() <= 9); // not a blind sweep
    }
  }
}

TEST_CASE("confident search: its outlook before each batch, the range open and the batches likely left") {
  // lo 0, hi 20, answer 10, start 3, 2 at a time, every judgement decided at once. By hand:
  //   batch 1: 2, 3, 4 (the start and its neighbours), all false      outlook: nothing known, 1 batch likely
  //   batch 2: 5, 6 (going up, stride 1), false                        5-20 open, 1 + 0 (no gap behind)
  //   batch 3: 8, 10 (stride 2), 8 false, 10 true                      7-20 open, 1 + 1 (the gap of stride 2)
  //   batch 4: 9 (between 8 and 10), false: the answer is 10           9-10 open, bracketed, 1
  CHECK(bisection_batches(0, 2) == 0);
  CHECK(bisection_batches(1, 2) == 1);
  CHECK(bisection_batches(2, 2) == 1);
  CHECK(bisection_batches(8, 2) == 2); // 8 -> 2 -> 0
  CHECK(bisection_batches(8, 1) == 4); // 8 -> 4 -> 2 -> 1 -> 0
  std::vector<SearchOutlook> seen;
  std::vector<std::vector<int>> batches;
  const auto search = find_first_true_confidently(
      0, 20, 3, 2,
      [&](const std::vector<int>& indices) {
        batches.push_back(indices);
        std::vector<Judgement> out;
        for (const int i : indices)
          out.push_back(Judgement{i >= 10 ? Decision::yes : Decision::no, false});
        return out;
      },
      [&](const SearchOutlook& outlook) { seen.push_back(outlook); });
  REQUIRE(search.first_true);
  CHECK(*search.first_true == 10);
  REQUIRE(batches.size() == 4);
  REQUIRE(seen.size() == 4);
  CHECK(batches[2] == std::vector<int>{8, 10});
  CHECK(seen[0].likely_batches == 1);
  CHECK_FALSE(seen[0].false_below);
  CHECK(seen[1].open_low == 5);
  CHECK(seen[1].open_high == 20);
  CHECK(seen[1].likely_batches == 1);
  CHECK(seen[2].open_low == 7);
  CHECK_FALSE(seen[2].true_above);
  CHECK(seen[2].likely_batches == 2);
  CHECK(seen[3].open_low == 9);
  CHECK(seen[3].open_high == 10);
  CHECK(seen[3].false_below);
  CHECK(seen[3].true_above);
  CHECK(seen[3].likely_batches == 1);
  CHECK(seen[3].next_size == 1);
}

TEST_CASE("confident search: undecided indices are refined, and a range is left when the budget runs out") {
  int calls = 0;
  // 5 and 6 undecided twice, then "no": refined until decided, the answer 7.
  const auto refined = search_with(7, 5, 6, 2, &calls);
  REQUIRE(refined.first_true);
  CHECK(*refined.first_true == 7);
  CHECK(refined.decided());
  // 5 and 6 never decided: the answer is the range 5..7, 7 confirmed.
  calls = 0;
  const auto range = search_with(7, 5, 6, 1000, &calls, 3);
  REQUIRE(range.first_true);
  CHECK(*range.first_true == 7);
  CHECK(range.first_possible == 5);
  CHECK(range.budget_exhausted);
  CHECK_FALSE(range.decided());
}

TEST_CASE("confident search: an undecided index just above the highest false is refined before going up") {
  // The plan of 2,000 jobs on A100: 12 and 14 GPUs fail, 15 is undecided after 3 replications and meets
  // after 6. Its refinement alone is the next batch; going up (18, 20 GPUs) first cost 6 simulations more.
  std::vector<std::vector<int>> batches;
  std::map<int, int> judged;
  const auto search = find_first_true_confidently(0, 20, 4, 2, [&](const std::vector<int>& indices) {
    batches.push_back(indices);
    std::vector<Judgement> out;
    for (const int i : indices) {
      const int times = ++judged[i];
      if (i == 5 && times == 1)
        out.push_back(Judgement{Decision::undecided, true});
      else
        out.push_back(Judgement{i >= 5 ? Decision::yes : Decision::no, false});
    }
    return out;
  });
  REQUIRE(search.first_true);
  CHECK(*search.first_true == 5);
  CHECK(search.decided());
  REQUIRE(batches.size() == 2);
  CHECK(batches[0] == std::vector<int>{3, 4, 5});
  CHECK(batches[1] == std::vector<int>{5});
}

TEST_CASE("confident search: a start judged alone, one index a batch, and a search its caller stops") {
  // The A100 plan at 2 cores (3 replications a candidate, so one candidate a batch): the MVA's 14 GPUs
  // (index 4) fail, 15 (index 5) is undecided at first and meets when refined. Judged one at a time from the
  // start alone: 4, 5, 5 again; the start's neighbours in one batch (radius 1) also judged 3, which the
  // answer never needed.
  for (const int radius : {0, 1}) {
    std::vector<std::vector<int>> batches;
    std::map<int, int> judged;
    SearchShape shape;
    shape.first_radius = radius;
    const auto search = find_first_true_confidently(
        0, 20, 4, 1,
        [&](const std::vector<int>& indices) {
          batches.push_back(indices);
          std::vector<Judgement> out;
          for (const int i : indices) {
            const int times = ++judged[i];
            out.push_back(i == 5 && times == 1 ? Judgement{Decision::undecided, true}
                                               : Judgement{i >= 5 ? Decision::yes : Decision::no, false});
          }
          return out;
        },
        {}, shape);
    REQUIRE(search.first_true);
    CHECK(*search.first_true == 5);
    CHECK(search.decided());
    CHECK_FALSE(search.stopped);
    if (radius == 0) {
      CHECK(batches == std::vector<std::vector<int>>{{4}, {5}, {5}});
    } else {
      CHECK(batches == std::vector<std::vector<int>>{{3, 4, 5}, {5}});
    }
  }
  // The caller stops it once nothing from the lowest index not known false up can win (here: from 6 up):
  // asked before every batch with that index, it ends the search after 5 is seen false.
  std::vector<int> asked;
  SearchShape shape;
  shape.first_radius = 0;
  shape.stop = [&](int first_possible) {
    asked.push_back(first_possible);
    return first_possible >= 6;
  };
  int calls = 0;
  const auto stopped = find_first_true_confidently(
      0, 20, 4, 1,
      [&](const std::vector<int>& indices) {
        ++calls;
        std::vector<Judgement> out;
        for (const int i : indices)
          out.push_back(Judgement{i >= 9 ? Decision::yes : Decision::no, false});
        return out;
      },
      {}, shape);
  CHECK(stopped.stopped);
  CHECK_FALSE(stopped.first_true);
  CHECK(calls == 2); // 4, then 5 (going up by one), then stopped
  CHECK(asked == std::vector<int>{0, 5, 6});
}

TEST_CASE("confident search: a true below a false is not the answer (monotone by construction)") {
  // Noise made 4 look true although 6 is false: the answer is read above the highest false.
  const auto search = find_first_true_confidently(0, 12, 5, 3, [](const std::vector<int>& indices) {
    std::vector<Judgement> out;
    for (const int i : indices)
      out.push_back(Judgement{i == 4 || i >= 8 ? Decision::yes : Decision::no, false});
    return out;
  });
  REQUIRE(search.first_true);
  CHECK(*search.first_true == 8);
  CHECK(search.first_possible == 8);
}

TEST_CASE(
    "targets: any figure of the table, parsed with its unit; a side the figure cannot take is an error") {
  const auto relative = parse_plan_target("module_mean_s<=1.10x");
  CHECK(relative.relative);
  CHECK(relative.limit == doctest::Approx(1.10));
  const auto p95 = parse_plan_target("event_p95_s<=200s");
  CHECK(p95.figure.figure == Figure::event_p95_s);
  CHECK(p95.limit == doctest::Approx(200.0));
  CHECK(parse_plan_target("module_mean_s<=1.5min").limit == doctest::Approx(90.0));
  const auto throughput = parse_plan_target("events_per_s>=2.2 events/s");
  CHECK_FALSE(throughput.at_most);
  CHECK(throughput.limit == doctest::Approx(2.2));
  CHECK(parse_plan_target("cost_usd_per_event<=0.002USD").limit == doctest::Approx(0.002));
  // Figures beyond the five of the first planner: GPU headroom (monotone), a batch size (checked at the
  // answer), one module of several.
  CHECK(monotone_in_devices(parse_plan_target("gpu_utilisation<=0.8")));
  CHECK_FALSE(monotone_in_devices(parse_plan_target("mean_executed_batch>=64")));
  CHECK(parse_plan_target("module_p95_s:EmTrkMichelId<=20s").figure.module == "EmTrkMichelId");
  CHECK(parse_plan_target("event_mean_s<=1.2x").relative); // every time takes a factor of low load
  CHECK_THROWS_AS(parse_plan_target("module_mean_s>=15s"), InputError);
  CHECK_THROWS_AS(parse_plan_target("events_per_s<=3"), InputError);
  CHECK_THROWS_AS(parse_plan_target("latency<=3s"), InputError);
  CHECK_THROWS_AS(parse_plan_target("event_mean_s<=15"), InputError); // a time needs its unit
  // Any figure takes a factor of its low-load value: above 1 for a ceiling, below 1 for a floor.
  const auto per_job = parse_plan_target("events_per_s_per_job>=0.95x");
  CHECK(per_job.relative);
  CHECK_FALSE(per_job.at_most);
  CHECK_THROWS_AS(parse_plan_target("events_per_s_per_job>=1.2x"), InputError);
  CHECK_THROWS_AS(parse_plan_target("event_mean_s<=0.9x"), InputError);
  CHECK_THROWS_AS(parse_plan_target("module_mean_s<=0.9x"), InputError);
  CHECK_THROWS_AS(parse_plan_target("event_mean_s:X<=15s"), InputError); // only module figures narrow
  // The bound on the right side decides: <= looks at the upper bound, >= at the lower.
  ConfidenceInterval value;
  value.mean = 1.08;
  value.half_width = 0.01;
  value.n = 5;
  CHECK(decide(relative, value) == Decision::yes);
  value.half_width = 0.03;
  CHECK(decide(relative, value) == Decision::undecided);
  value.mean = 1.14;
  CHECK(decide(relative, value) == Decision::no);
  ConfidenceInterval rate{2.3, 0.05, 0.1, 5};
  CHECK(decide(throughput, rate) == Decision::yes);
  rate.half_width = 0.2;
  CHECK(decide(throughput, rate) == Decision::undecided);
}

TEST_CASE("targets: break-even and zero-count limits are questions; a limit every candidate meets is not") {
  // The gain over direct inference is negative when the remote calls cost more: >=0 asks for break-even,
  // and a loss one accepts (>=-0.05) is a question too.
  const auto break_even = parse_plan_target("direct_inference_gain>=0");
  CHECK(break_even.limit == 0.0);
  CHECK_FALSE(break_even.at_most);
  CHECK(parse_plan_target("direct_inference_gain>=-0.05").limit == doctest::Approx(-0.05));
  // No failed event at all: a count's <=0.
  CHECK(parse_plan_target("events_failed<=0").limit == 0.0);
  CHECK(parse_plan_target("requests_rejected<=0").at_most);
  // A count is never negative, so >=0 holds for every candidate; a time is never 0, so <=0 holds for none.
  CHECK_THROWS_WITH_AS(parse_plan_target("events_completed>=0"), doctest::Contains("met by every candidate"),
                       InputError);
  CHECK_THROWS_AS(parse_plan_target("events_failed<=-1"), InputError);
  CHECK_THROWS_WITH_AS(parse_plan_target("gpu_utilisation<=0"), doctest::Contains("no candidate meets it"),
                       InputError);
  CHECK_THROWS_AS(parse_plan_target("event_mean_s<=0s"), InputError);
  // At a limit of 0 the indifference zone (a fraction of the limit) is empty: only the interval decides.
  ConfidenceInterval gain;
  gain.mean = 0.004;
  gain.half_width = 0.01;
  gain.n = 5;
  CHECK(decide(break_even, gain, 0.05) == Decision::undecided);
  gain.half_width = 0.003;
  CHECK(decide(break_even, gain, 0.05) == Decision::yes);
}

TEST_CASE("targets: the names from before the figure table are read as the new ones, with a notice") {
  const auto old = parse_plan_target("event_time_p95<=200s");
  CHECK(old.figure.figure == Figure::event_p95_s);
  CHECK(renamed_notice(old.figure).find("'event_time_p95' is now called 'event_p95_s'") != std::string::npos);
  CHECK(parse_plan_target("module_time<=1.10x").figure.figure == Figure::module_mean_s);
  CHECK(parse_plan_target("throughput>=2.2").figure.figure == Figure::events_per_s);
  CHECK(parse_plan_target("cost_per_event<=0.002").figure.figure == Figure::cost_usd_per_event);
  CHECK(parse_plan_target("event_time<=130s").figure.figure == Figure::event_mean_s);
  CHECK(renamed_notice(parse_plan_target("event_mean_s<=130s").figure).empty());
}

TEST_CASE("replications: seed r = 0 is the scenario's, the others distinct and independent of neighbours") {
  CHECK(replication_seed(7, 0) == 7);
  std::set<std::uint64_t> seeds;
  for (std::uint64_t seed = 1; seed <= 5; ++seed)
    for (int r = 0; r < 20; ++r)
      seeds.insert(replication_seed(seed, r));
  CHECK(seeds.size() == 100); // seed 1's replication 1 is not seed 2
  // Student t interval: the mean of 1, 2, 3 is 2 with sd 1; t(0.975, 2) = 4.303, half-width 4.303 / sqrt(3).
  const auto interval = confidence_interval_95({1.0, 2.0, 3.0});
  CHECK(interval.mean == doctest::Approx(2.0));
  CHECK(interval.sd == doctest::Approx(1.0));
  CHECK(interval.half_width == doctest::Approx(4.303 / std::sqrt(3.0)).epsilon(1e-3));
  CHECK(confidence_interval_95({4.0}).half_width == 0.0);
}

TEST_CASE("cost bill: each group's devices at their type's price, the pods' hosts, the jobs' CPU cores") {
  Scenario s;
  s.platform.server_groups.push_back(ServerGroup{});
  s.platform.server_groups.front().devices_per_pod = 4;
  s.workload.jobs = 270;
  s.workload.threads = 4; // a job holds 4 cores: 1080 core-hours per hour
  CHECK(missing_prices(s) == std::vector<std::string>{"costs.device_hour.T4", "costs.cpu_hour"});
  CHECK_FALSE(cost_bill(s, 2.0));
  s.costs = Costs{{{"T4", 0.36}}, 0.036, std::nullopt};
  const auto bill = cost_bill(s, 2.0);
  REQUIRE(bill);
  // 2 events/s: 7200 events per hour.
  CHECK(bill->device_hours_per_event == doctest::Approx(4.0 / 7200.0));
  CHECK(bill->cpu_core_hours_per_event == doctest::Approx(1080.0 / 7200.0));
  CHECK(bill->usd_per_event == doctest::Approx((4 * 0.36 + 1080 * 0.036) / 7200.0));
  REQUIRE(bill->items.size() == 2);
  CHECK(bill->items[0].price_key == "costs.device_hour.T4");
  CHECK(bill->items[1].usd_per_hour == doctest::Approx(1080 * 0.036));
  // The pod's host is held too; without a price the bill says so instead of counting it as free.
  CHECK(bill->unpriced == std::vector<std::string>{"1 server pods' hosts (no costs.pod_hour)"});
  s.costs->pod_hour_usd = 0.5;
  const auto priced = cost_bill(s, 2.0);
  REQUIRE(priced);
  CHECK(priced->unpriced.empty());
  CHECK(priced->usd_per_hour == doctest::Approx(4 * 0.36 + 0.5 + 1080 * 0.036));
  // The same group moved to A100s has no price until one is given: never the T4's.
  s.platform.server_groups.front().device_type = "A100";
  CHECK(missing_prices(s) == std::vector<std::string>{"costs.device_hour.A100"});
  CHECK_FALSE(cost_bill(s, 2.0));
}

TEST_CASE(
    "cost bill: a campaign's job slots as held on average, a fallback's reserved cores, each line's basis") {
  Scenario s;
  s.platform.server_groups.push_back(ServerGroup{});
  s.platform.server_groups.front().devices_per_pod = 4;
  s.workload.jobs = 1000; // the campaign's peak slots
  s.workload.threads = 1;
  s.costs = Costs{{{"T4", 0.35}}, 0.0316, std::nullopt};
  CampaignSummary campaign;
  campaign.scale = 0.5;
  campaign.mean_running_jobs = 622.0; // full scale; the simulation ran 311 on average
  const auto bill = cost_bill(s, 2.0, nullptr, &campaign);
  REQUIRE(bill);
  REQUIRE(bill->items.size() == 2);
  CHECK(bill->items[0].held == "all run");
  CHECK(bill->items[1].count == doctest::Approx(311.0)); // 622 x 0.5, at the scale of the 2 events/s
  CHECK(bill->items[1].held == "running jobs, mean over the window");
  CHECK(bill->cpu_core_hours_per_event == doctest::Approx(311.0 / 7200.0));
  // Without the campaign: the peak, held all run.
  CHECK(cost_bill(s, 2.0)->items[1].count == doctest::Approx(1000.0));
  // A fallback server on each of 25 client nodes, 4 cores each: 100 cores reserved all run, at cpu_hour.
  ServerGroup fallback;
  fallback.name = "fallback";
  fallback.on_client_nodes = true;
  fallback.devices_per_pod = 0;
  fallback.pods = 25;
  fallback.host_cores = 4;
  s.platform.server_groups.push_back(fallback);
  const auto with_fallback = cost_bill(s, 2.0);
  REQUIRE(with_fallback);
  REQUIRE(with_fallback->items.size() == 3);
  CHECK(with_fallback->items[2].count == doctest::Approx(100.0));
  CHECK(with_fallback->items[2].price_key == "costs.cpu_hour");
  CHECK(with_fallback->items[2].held == "reserved all run");
  CHECK(with_fallback->cpu_core_hours_per_event == doctest::Approx(1100.0 / 7200.0));
  // Its pods are the client nodes, not server hosts.
  CHECK(with_fallback->unpriced == std::vector<std::string>{"1 server pods' hosts (no costs.pod_hour)"});
}

TEST_CASE(
    "station limits: the GPU pool of the default scenario fills at the knee of arXiv:2009.04509 Eq. 3") {
  // One group: the asymptotic bound (D + Z) x 4 / D_GPU is N_GPU t_ideal / t_GPU, the paper's knee (272 jobs
  // for 4 T4), up to the host's own small demand in D.
  const Scenario scenario = load_default_scenario();
  const auto limits = station_limits(scenario);
  REQUIRE_FALSE(limits.empty());
  CHECK(limits.front().resource == "GPU pool");
  CHECK(limits.front().capacity == "4 devices");
  const auto analysis = analyse_layout(scenario, PodLayout{1, 4, "T4", 0.0});
  CHECK(limits.front().jobs_at_saturation == doctest::Approx(analysis.ratio * 4).epsilon(0.01));
  for (std::size_t k = 1; k < limits.size(); ++k)
    CHECK(limits[k - 1].jobs_at_saturation <= limits[k].jobs_at_saturation);
}
