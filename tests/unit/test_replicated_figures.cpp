// Figures over replications (run/sweep/compare --replications): the mean and 95 % Student-t interval of every
// figure, figures lined up by name, the bottleneck most replications named, and sweep rows whose columns are
// means with interval columns only when replicated.
#include <doctest/doctest.h>

#include "minimal_scenario.hpp"
#include "sim/metrics/replicated_figures.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "sim/sweep/sweep_table.hpp"

#include <cmath>
#include <sstream>

using namespace sonicsim;

namespace {

RunSummary summary_with(double event_mean_s, double events_per_s, const std::string& bottleneck) {
  RunSummary s;
  s.event.count = 100;
  s.event.mean_s = event_mean_s;
  s.events_per_s = events_per_s;
  // Saturated: the sentence is the resource. The kind does not matter here, the name tells them apart.
  s.bottleneck = Bottleneck{ResourceKind::device_pool, 0, bottleneck, 0.95};
  s.modules.push_back({"infer", TimeStatistics{100, event_mean_s / 2, 0, 0, 0, 0, 0}});
  return s;
}

} // namespace

TEST_CASE("replicate: mean and Student-t half-width of each figure, by name") {
  // Event times 10, 12, 14 s: mean 12, sd 2, half-width t(0.975, 2) x 2 / sqrt(3), t = 4.302653 (tables).
  const auto run = replicate({1, 2, 3}, {summary_with(10, 1.0, "GPU pool"), summary_with(12, 2.0, "pod NICs"),
                                         summary_with(14, 3.0, "GPU pool")});
  const auto& event = figure(run, "event_mean_s");
  CHECK(event.values == std::vector<double>{10, 12, 14});
  CHECK(event.interval.mean == doctest::Approx(12.0));
  CHECK(event.interval.sd == doctest::Approx(2.0));
  CHECK(event.interval.half_width == doctest::Approx(4.302653 * 2.0 / std::sqrt(3.0)).epsilon(1e-6));
  CHECK(figure(run, "module_mean_s:infer").interval.mean == doctest::Approx(6.0));
  // The names replications.json used before the figure table still find their figures.
  CHECK(&figure(run, "modules.infer.mean_s") == &figure(run, "module_mean_s:infer"));
  CHECK(&figure(run, "event.mean_s") == &event);
  CHECK(figure(run, "events_per_s").interval.low() == doctest::Approx(2.0 - 4.302653 / std::sqrt(3.0)));
  // Two of three replications named the GPU pool.
  REQUIRE(run.bottlenecks.size() == 2);
  CHECK(run.bottlenecks.front() == std::make_pair(std::string("GPU pool"), 2));
  CHECK(run.bottleneck.bottleneck.busiest == "GPU pool"); // the figure table's vote
  CHECK(run.bottleneck.votes == 2);
  CHECK_THROWS_AS(figure(run, "no.such_s"), std::out_of_range);

  const auto json = replicated_to_json(run);
  CHECK(json["replications"] == 3);
  CHECK(json["figures"]["event_mean_s"]["high"].get<double>() == doctest::Approx(event.interval.high()));
  std::ostringstream csv;
  write_replicated_csv(csv, run);
  CHECK(csv.str().rfind("figure,mean,half_width,low,high,sd,n\n", 0) == 0);
  INFO(csv.str());
  CHECK(csv.str().find("\nevent_mean_s,12,4.96827,7.03173,16.9683,2,3\n") != std::string::npos);
}

TEST_CASE("replicate: a figure some replications do not report has the n of those that do") {
  RunSummary with_campaign = summary_with(10, 1.0, "site switch");
  with_campaign.campaign = CampaignSummary{};
  with_campaign.campaign->mean_outbound_gbps = 50.0;
  const auto run = replicate({1, 2}, {with_campaign, summary_with(12, 1.0, "site switch")});
  CHECK(figure(run, "campaign.mean_outbound_gbps").interval.n == 1);
  CHECK_FALSE(figure(run, "campaign.mean_outbound_gbps").interval.has_interval());
  CHECK(figure(run, "event_mean_s").interval.n == 2);
}

TEST_CASE("sweep rows: one replication is the plain row; several give means and interval columns") {
  const Scenario scenario = load_scenario_text(testing::minimal_scenario_yaml, "minimal");
  SweepPoint point;
  point.index = 0;
  point.values = {"10"};
  const std::vector<VaryAxis> axes{parse_vary("workload.jobs=10")};
  const auto one = make_sweep_row(point, scenario, {summary_with(10, 1.0, "GPU pool")});
  std::ostringstream plain;
  write_sweep_csv(plain, axes, {one});
  CHECK(plain.str().find("replications") == std::string::npos);
  CHECK(one.mean("event_mean_s") == 10.0);

  const auto two =
      make_sweep_row(point, scenario, {summary_with(10, 1.0, "GPU pool"), summary_with(14, 3.0, "GPU pool")});
  CHECK(two.replications == 2);
  CHECK(two.mean("event_mean_s") == doctest::Approx(12.0));
  // sd = 2 sqrt(2), half-width t(0.975, 1) = 12.706205 x sd / sqrt(2) = 25.41241.
  CHECK(two.simulated.at("event_mean_s").half_width == doctest::Approx(25.41241).epsilon(1e-6));
  std::ostringstream replicated;
  write_sweep_csv(replicated, axes, {two});
  std::istringstream lines(replicated.str());
  std::string header, row;
  std::getline(lines, header);
  std::getline(lines, row);
  CHECK(header.find(",replications,module_mean_s_ci95_low,module_mean_s_ci95_high,event_mean_s_ci95_low") !=
        std::string::npos);
  CHECK(row.find(",2,") != std::string::npos);
  CHECK(row.find("-13.4124,37.4124") != std::string::npos); // event_mean_s 12 -+ 25.41241
}
